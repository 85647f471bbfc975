/**
 * Insights (issue 26): what one ledger posting adds to a team's aggregates.
 * Pure: derived from the posting's kind and legs alone (plus, for a purchase,
 * the skill area and media type it was tagged with), so every path that posts
 * money adds the same, and lambdas/src/data/insightTotals.ts writes the result
 * in the posting's own transaction (docs/insights.md).
 *
 * Figures (all cents):
 *   - onCards: the sum of the legs on card and hold accounts (an authorization
 *     moves card -> hold and a release hold -> card: both add 0, so neither
 *     writes anything);
 *   - inPool: the sum of the legs on pool accounts;
 *   - funded: credits to cards by a funding or deposit; charged: what the
 *     manager's card (external account) gave to them;
 *   - spent: a capture's amount (what the network was paid) less a merchant
 *     refund's; refunded: merchant refunds;
 *   - redeemed: a redemption's net back to the manager's card; fees: its fee;
 *   - pooled: card -> pool; reallocated: pool -> cards (a reallocation, or a
 *     pool return to a person reactivated before the next billing day).
 */
import { dayIn } from './calendar';
import type { Posting } from './ledger';

/** The skill areas and media types of purchases (as shared/src/schemas/insights.ts lists them). */
export const UNKNOWN_SKILL = 'Uncategorised';
export const UNKNOWN_MEDIA = 'other';

/** What a purchase (capture) or its refund is tagged with. */
export interface PurchaseTags {
  skillArea: string;
  media: string;
  /** The merchant's name as the card network gave it. */
  merchant: string;
}

export interface InsightDelta {
  /** ADDs to the team-month item (attribute -> cents or count). */
  month: Record<string, number>;
  /** ADDs to the team's NOW item. */
  now: { onCardsCents?: number; inPoolCents?: number };
  /** A purchase or refund: its merchant (written onto the month item: merchantAttr, merchantCountAttr). */
  merchant?: { name: string; cents: number; count: number };
  /** A purchase or refund: its owner's month, by skill area. */
  person?: { userId: string; spentCents: number; count: number; skill: Record<string, number> };
}

/** Attribute names of the per-area and per-media figures on a month item. */
export const skillAttr = (area: string) => `skill:${area}`;
export const skillCountAttr = (area: string) => `skillN:${area}`;
export const mediaAttr = (media: string) => `media:${media}`;
export const mediaCountAttr = (media: string) => `mediaN:${media}`;

/**
 * A merchant's figures live on the team-month item itself (`merchant:<name>`,
 * `merchantN:<name>`), so a period of N months reads N items whatever the
 * number of merchants. Names are cut to MERCHANT_NAME_MAX characters (a card
 * network's merchant name is at most 22 in practice), which bounds what one
 * merchant adds to the item: docs/insights.md says how many fit in 400 KB.
 */
export const MERCHANT_NAME_MAX = 64;
const merchantKey = (name: string) => name.slice(0, MERCHANT_NAME_MAX);
export const merchantAttr = (name: string) => `merchant:${merchantKey(name)}`;
export const merchantCountAttr = (name: string) => `merchantN:${merchantKey(name)}`;

/** The team's calendar month (`yyyy-mm`) of an instant. */
export function teamMonthOf(instant: string | Date, zone: string): string {
  return dayIn(instant, zone).slice(0, 7);
}

function ownerOf(account: string): string {
  return account.slice(account.indexOf(':') + 1);
}

function sumOf(posting: Posting, prefix: string, sign?: 'credit' | 'debit'): number {
  return posting.legs
    .filter((leg) => leg.account.startsWith(prefix))
    .filter((leg) =>
      sign === 'credit' ? leg.amountCents > 0 : sign === 'debit' ? leg.amountCents < 0 : true,
    )
    .reduce((sum, leg) => sum + leg.amountCents, 0);
}

/** The merchant of a capture or refund posting when no tags were given ("Purchase at X", "Refund from X"). */
export function merchantOfPosting(posting: Posting): string {
  return posting.description.replace(/^(Purchase at|Refund from) /, '');
}

function add(target: Record<string, number>, key: string, value: number) {
  if (value !== 0) target[key] = (target[key] ?? 0) + value;
}

/**
 * What a posting adds to the aggregates, or undefined when it adds nothing
 * (an authorization, a release, an account split): such a posting writes no
 * aggregate item at all.
 */
export function insightDelta(posting: Posting, tags?: PurchaseTags): InsightDelta | undefined {
  const month: Record<string, number> = {};
  const now: InsightDelta['now'] = {};
  const onCards = sumOf(posting, 'card:') + sumOf(posting, 'hold:');
  const inPool = sumOf(posting, 'pool:');
  if (onCards !== 0) now.onCardsCents = onCards;
  if (inPool !== 0) now.inPoolCents = inPool;
  let merchant: InsightDelta['merchant'];
  let person: InsightDelta['person'];
  const purchase = (cents: number, count: number, userId: string) => {
    const skillArea = tags?.skillArea ?? UNKNOWN_SKILL;
    const media = tags?.media ?? UNKNOWN_MEDIA;
    add(month, 'spentCents', cents);
    add(month, skillAttr(skillArea), cents);
    add(month, mediaAttr(media), cents);
    add(month, 'purchases', count);
    add(month, skillCountAttr(skillArea), count);
    add(month, mediaCountAttr(media), count);
    merchant = { name: tags?.merchant ?? merchantOfPosting(posting), cents, count };
    person = { userId, spentCents: cents, count, skill: { [skillArea]: cents } };
  };
  switch (posting.kind) {
    case 'funding':
    case 'deposit':
      add(month, 'fundedCents', sumOf(posting, 'card:', 'credit'));
      add(month, 'chargedCents', -sumOf(posting, 'external:', 'debit'));
      break;
    case 'capture': {
      const captured = sumOf(posting, 'network:', 'credit');
      const owner = posting.legs.find((l) => l.account.startsWith('hold:') || l.account.startsWith('debt:'));
      if (!owner || captured === 0) break;
      add(month, 'capturedCents', captured);
      purchase(captured, 1, ownerOf(owner.account));
      break;
    }
    case 'refund': {
      const refunded = sumOf(posting, 'card:', 'credit');
      const owner = posting.legs.find((l) => l.account.startsWith('card:'));
      if (!owner || refunded === 0) break;
      add(month, 'refundedCents', refunded);
      purchase(-refunded, 0, ownerOf(owner.account));
      break;
    }
    case 'reallocation':
    // A pool return (issue 28: a removed person back before the next billing day) also moves pool -> card.
    case 'poolReturn':
      add(month, 'reallocatedCents', -sumOf(posting, 'pool:', 'debit'));
      break;
    case 'poolTransfer':
      add(month, 'pooledCents', sumOf(posting, 'pool:', 'credit'));
      break;
    case 'redemption':
      add(month, 'redeemedCents', sumOf(posting, 'external:', 'credit'));
      add(month, 'feesCents', sumOf(posting, 'revenue:', 'credit'));
      break;
    default:
      // authorization, release, debtRepayment, accountSplit: only the NOW figures (if any) move.
      break;
  }
  if (Object.keys(month).length === 0 && Object.keys(now).length === 0) return undefined;
  return { month, now, ...(merchant ? { merchant } : {}), ...(person ? { person } : {}) };
}

// --- Skill area of a purchase --------------------------------------------------

/**
 * How long after opening an item a purchase at its merchant is taken to be that
 * item: 30 days (a person reads about a course, and buys it on payday).
 */
export const SKILL_INFERENCE_DAYS = 30;

/** The words a card network's merchant name carries for each partner platform (lower case, letters and digits). */
const MERCHANT_WORDS: Record<string, readonly string[]> = {
  amazon: ['amazon', 'amzn'],
  audible: ['audible'],
  udemy: ['udemy'],
  walmart: ['walmart'],
  cultureWorks: ['cultureworks', 'theculture'],
  coursera: ['coursera'],
  ebay: ['ebay'],
  lorman: ['lorman'],
};

/** Does the merchant (as the card network names it) sell through one of these platforms (an item's links)? */
export function merchantSells(merchant: string, platforms: readonly string[]): boolean {
  const name = merchant.toLowerCase().replace(/[^a-z0-9]/g, '');
  return platforms.some((p) => (MERCHANT_WORDS[p] ?? [p.toLowerCase()]).some((word) => name.includes(word)));
}
