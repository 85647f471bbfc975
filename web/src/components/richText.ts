/**
 * The small inline markup the public copy uses, so content files stay plain
 * strings: `[label](/pricing)` or `[label](#anchor)` for a link and `**words**`
 * for emphasis. Nothing else is interpreted; text is never parsed as HTML.
 */

export type InlinePart =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'link'; text: string; href: string };

const INLINE = /\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*/g;

export function parseInline(source: string): InlinePart[] {
  const parts: InlinePart[] = [];
  let last = 0;
  for (const match of source.matchAll(INLINE)) {
    const start = match.index;
    if (start > last) parts.push({ kind: 'text', text: source.slice(last, start) });
    const [whole, label, href, strong] = match;
    if (label !== undefined && href !== undefined) parts.push({ kind: 'link', text: label, href });
    else if (strong !== undefined) parts.push({ kind: 'strong', text: strong });
    last = start + whole.length;
  }
  if (last < source.length) parts.push({ kind: 'text', text: source.slice(last) });
  return parts;
}

/** The text a reader sees, markup removed (for descriptions and tests). */
export function plainText(source: string): string {
  return parseInline(source)
    .map((part) => part.text)
    .join('');
}

/** An address on this site (rendered as a router link), as opposed to an anchor or another site. */
export function isSitePath(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//');
}
