/**
 * A purchase's skill area and media type (issue 26), inferred at capture from
 * the newest catalogue item its owner opened in the shop, in the
 * SKILL_INFERENCE_DAYS before the purchase, that is sold by the purchase's
 * merchant (an item's partner links name the platforms: a purchase at
 * "Udemy" follows a course opened with a Udemy link). Nothing found: the
 * purchase stays Uncategorised / other, `skillSource: 'none'`: never guessed.
 */
import {
  merchantSells,
  SKILL_INFERENCE_DAYS,
  UNKNOWN_MEDIA,
  UNKNOWN_SKILL,
} from '@shared/domain/insightDeltas';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import { getCatalogueItem } from './catalogue';
import { userItemViewsBetween } from './itemViews';

export interface PurchaseSkill {
  skillArea: string;
  media: string;
  skillSource: 'inferred' | 'employee' | 'manager' | 'none';
}

/** How many of the person's newest views in the window are looked at (a bounded read). */
const VIEWS_READ = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function inferPurchaseSkill(
  userId: string,
  merchant: string,
  at: string,
): Promise<PurchaseSkill> {
  const from = new Date(Date.parse(at) - SKILL_INFERENCE_DAYS * DAY_MS).toISOString();
  // The card network's time is whole seconds: a view in the same second may be just before the purchase.
  const to = new Date(Date.parse(at) + 999).toISOString();
  const views = await userItemViewsBetween(userId, from, to, VIEWS_READ);
  const items = new Map<string, Promise<CatalogueItem | undefined>>();
  for (const view of views) {
    if (!items.has(view.itemId)) items.set(view.itemId, getCatalogueItem(view.itemId));
    const item = await items.get(view.itemId);
    if (item && merchantSells(merchant, Object.keys(item.affiliateLinks))) {
      return { skillArea: item.category, media: item.media, skillSource: 'inferred' };
    }
  }
  return { skillArea: UNKNOWN_SKILL, media: UNKNOWN_MEDIA, skillSource: 'none' };
}
