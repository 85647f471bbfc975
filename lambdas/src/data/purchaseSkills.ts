/**
 * A purchase's skill area and media type (issue 26), inferred at capture from
 * the newest catalogue item its owner opened in the shop, in the
 * SKILL_INFERENCE_DAYS before the purchase, that is sold by the purchase's
 * merchant (an item's partner links name the platforms: a purchase at
 * "Udemy" follows a course opened with a Udemy link). Nothing found: the
 * purchase stays Uncategorised / other, `skillSource: 'none'`: never guessed.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  merchantSells,
  SKILL_INFERENCE_DAYS,
  UNKNOWN_MEDIA,
  UNKNOWN_SKILL,
} from '@shared/domain/insightDeltas';
import { db, tableName } from './client';
import { userItemViewsBetween } from './itemViews';
import { keys } from './keys';

export interface PurchaseSkill {
  skillArea: string;
  media: string;
  skillSource: 'inferred' | 'employee' | 'manager' | 'none';
}

/** How many of the person's newest views in the window are looked at (a bounded read). */
const VIEWS_READ = 100;

interface ItemTags {
  category: string;
  media: string;
  affiliateLinks: Record<string, string>;
}

/**
 * A catalogue item's skill area, media type and partner links (projected).
 * Read here, not through data/catalogue.ts: that one brings the catalogue's
 * zod schema, and the settlement runs in the authorization Lambda, whose
 * bundle stays on zod/mini (test/infra/authorizationBundle.test.ts).
 */
async function itemTags(itemId: string): Promise<ItemTags | undefined> {
  const result = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.merch(itemId),
      ProjectionExpression: 'category, media, affiliateLinks',
    }),
  );
  return result.Item as ItemTags | undefined;
}
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
  const items = new Map<string, Promise<ItemTags | undefined>>();
  for (const view of views) {
    if (!items.has(view.itemId)) items.set(view.itemId, itemTags(view.itemId));
    const item = await items.get(view.itemId);
    if (item && merchantSells(merchant, Object.keys(item.affiliateLinks ?? {}))) {
      return { skillArea: item.category, media: item.media, skillSource: 'inferred' };
    }
  }
  return { skillArea: UNKNOWN_SKILL, media: UNKNOWN_MEDIA, skillSource: 'none' };
}
