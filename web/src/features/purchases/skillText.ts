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

/** What the server stored for a purchase (a settled purchase row carries them, shared/src/schemas/purchases.ts). */
export interface PurchaseSkill {
  skillArea: SkillArea;
  media: PurchaseMedia;
  skillSource: 'inferred' | 'employee' | 'manager' | 'none';
}

/** Said beside a value the server inferred from the item the employee opened. */
export const SUGGESTED = 'Suggested';

/** A row's skill area and media type, "Uncategorised" and "other" when it has none (pending and declined rows). */
export function skillOf(row: Partial<PurchaseSkill>): PurchaseSkill {
  return {
    skillArea: row.skillArea ?? 'Uncategorised',
    media: row.media ?? 'other',
    skillSource: row.skillSource ?? 'none',
  };
}
