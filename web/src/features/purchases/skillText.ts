/**
 * Words for a purchase's skill area and media type (issue 26): the seven
 * areas of the spec and "Uncategorised" as it is, media types capitalised.
 */
import { type PurchaseMedia, purchaseMedia, type SkillArea, skillAreas } from '@shared/schemas/insights';

export const MEDIA_LABELS: Record<PurchaseMedia, string> = {
  book: 'Book',
  audiobook: 'Audiobook',
  course: 'Course',
  assessment: 'Assessment',
  other: 'Other',
};

export const skillOptions = skillAreas.map((area) => ({ value: area, label: area }));
export const mediaOptions = purchaseMedia.map((media) => ({ value: media, label: MEDIA_LABELS[media] }));

/** What the server stored for a purchase (purchase rows carry them since issue 26). */
export interface PurchaseSkill {
  skillArea: SkillArea;
  media: PurchaseMedia;
  skillSource: 'inferred' | 'employee' | 'manager' | 'none';
}

/** Said beside a value the server inferred from the item the employee opened. */
export const SUGGESTED = 'Suggested';

/** A row's skill area and media type, "Uncategorised" and "other" when the server sent none. */
export function skillOf(row: object): PurchaseSkill {
  const r = row as Partial<PurchaseSkill>;
  return {
    skillArea: r.skillArea ?? 'Uncategorised',
    media: r.media ?? 'other',
    skillSource: r.skillSource ?? 'none',
  };
}
