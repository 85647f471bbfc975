/** Shapes shared by the Terms of Use and the Privacy Policy. */

/** A paragraph (inline markup allowed, see components/richText.ts) or a bulleted list. */
export type LegalBlock = string | { list: readonly string[] };

export interface LegalSection {
  /** The section's id attribute: links such as /terms#redemptionfees land on it. */
  id: string;
  title: string;
  blocks: readonly LegalBlock[];
}

export interface LegalDocument {
  title: string;
  /** Shown under the heading. */
  updated: string;
  intro: readonly string[];
  sections: readonly LegalSection[];
}
