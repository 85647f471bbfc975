/**
 * The spend policy: whether a card purchase goes through, and if not, why in
 * plain words. One pure function, used by the real-time authorization (the
 * webhook, which then holds the money in the same write) and by the read-only
 * "Will this be approved?" check, so the two can never disagree. No I/O: the
 * caller reads the card, its owner and the spendable balance.
 */
import { merchantCategoryName } from './merchantCategories';
import { formatCents } from './money';

/**
 * Merchant categories (Stripe's names) a learning budget may be spent at. Also
 * mirrored into every card's spending controls as a backstop (docs/decisions.md).
 */
export const LEARNING_CATEGORIES = [
  'book_stores',
  'books_periodicals_and_newspapers',
  'colleges_universities',
  'correspondence_schools',
  'business_secretarial_schools',
  'vocational_trade_schools',
  'digital_goods_media',
  'digital_goods_applications',
  'computer_software_stores',
  'educational_services',
] as const;

export type LearningCategory = (typeof LEARNING_CATEGORIES)[number];

const learning = new Set<string>(LEARNING_CATEGORIES);

export function isLearningCategory(category: string): boolean {
  return learning.has(category);
}

/**
 * Kinds of merchant a person can pick when asking whether a purchase would go
 * through: every learning category in words, and a few everyday ones that are
 * not, so the answer "no" can be seen before it happens at a till.
 */
export const MERCHANT_KINDS: readonly { category: string; label: string }[] = [
  { category: 'book_stores', label: 'Bookstore' },
  { category: 'books_periodicals_and_newspapers', label: 'Books, magazines and newspapers' },
  { category: 'digital_goods_media', label: 'E-books, audiobooks and online media' },
  { category: 'educational_services', label: 'Online course or training provider' },
  { category: 'colleges_universities', label: 'College or university' },
  { category: 'correspondence_schools', label: 'Distance-learning school' },
  { category: 'business_secretarial_schools', label: 'Business school' },
  { category: 'vocational_trade_schools', label: 'Vocational or trade school' },
  { category: 'digital_goods_applications', label: 'Learning app' },
  { category: 'computer_software_stores', label: 'Software store' },
  { category: 'eating_places_restaurants', label: 'Restaurant' },
  { category: 'grocery_stores_supermarkets', label: 'Grocery store' },
  { category: 'electronics_stores', label: 'Electronics store' },
  { category: 'digital_goods_games', label: 'Games' },
  { category: 'airlines_air_carriers', label: 'Airline' },
  { category: 'hotels_motels_and_resorts', label: 'Hotel' },
];

/** Why a card is frozen. A manager's freeze is only lifted by a manager; a receipt freeze lifts itself. */
export interface FreezeReasons {
  manager?: boolean;
  missingReceipt?: boolean;
  dormant?: boolean;
}

/**
 * The one reason to tell the person whose card is frozen: a manager's freeze
 * wins (uploading receipts would not lift it), then missing receipts, then
 * dormancy; `manager` when no reason was recorded (only a manager freezes
 * without one).
 */
export function freezeReason(freeze: FreezeReasons | undefined): 'manager' | 'missingReceipt' | 'dormant' {
  if (freeze?.manager) return 'manager';
  if (freeze?.missingReceipt) return 'missingReceipt';
  if (freeze?.dormant) return 'dormant';
  return 'manager';
}

export interface PurchaseAttempt {
  amountCents: number;
  currency: string;
  merchantCategory: string;
  /** Named in the reason when known (the card network always sends it). */
  merchantName?: string;
}

export interface CardState {
  status: string;
  freeze?: FreezeReasons;
}

export interface OwnerState {
  status: string;
}

export type DeclineCode =
  | 'card_unknown'
  | 'card_cancelled'
  | 'frozen_missing_receipts'
  | 'frozen'
  | 'currency'
  | 'not_learning_merchant'
  | 'over_balance';

export type PurchaseDecision = { approved: true } | { approved: false; code: DeclineCode; reason: string };

export function overBalanceReason(amountCents: number, balanceCents: number): string {
  return `${formatCents(amountCents)} is above your ${formatCents(balanceCents)} balance.`;
}

/**
 * The rules, in the order a person would want to hear them. `balanceCents` is
 * what the card can spend now (money on hold already left it).
 *
 * A paused employee is not funded again but spends what the card holds
 * (decisions.md), so the owner's status matters only once they are deleted.
 */
export function decidePurchase(
  attempt: PurchaseAttempt,
  card: CardState | undefined,
  owner: OwnerState | undefined,
  balanceCents: number,
): PurchaseDecision {
  const no = (code: DeclineCode, reason: string): PurchaseDecision => ({ approved: false, code, reason });
  if (!card || !owner) return no('card_unknown', 'This card is not recognized.');
  if (card.status === 'canceled' || owner.status === 'deleted') {
    return no('card_cancelled', 'This card has been cancelled.');
  }
  if (card.status !== 'active') {
    if (freezeReason(card.freeze) === 'missingReceipt') {
      return no('frozen_missing_receipts', 'Your card is frozen until your missing receipts are uploaded.');
    }
    return no('frozen', 'Your card is frozen. Please contact your manager.');
  }
  if (attempt.currency.toLowerCase() !== 'usd') {
    return no('currency', 'Only purchases in US dollars are supported.');
  }
  if (!isLearningCategory(attempt.merchantCategory)) {
    const what = merchantCategoryName(attempt.merchantCategory);
    return no(
      'not_learning_merchant',
      attempt.merchantName
        ? `${attempt.merchantName} (${what}) is not a learning merchant.`
        : `A merchant of this kind (${what}) is not a learning merchant.`,
    );
  }
  if (attempt.amountCents > balanceCents) {
    return no('over_balance', overBalanceReason(attempt.amountCents, balanceCents));
  }
  return { approved: true };
}

/**
 * The decline code of a reason this policy (or the issuer backstop) wrote, for
 * metrics: a closed set of labels, where the reason itself names amounts and
 * merchants. Decisions are stored with their reason only, so a redelivered
 * request's answer is classified the same way as the first.
 */
export function declineCodeOf(reason: string | undefined): DeclineCode | 'issuer_limit' | 'other' {
  if (!reason) return 'other';
  const known: [RegExp, DeclineCode | 'issuer_limit'][] = [
    // Reasons stored before the US spelling said 'recognised'.
    [/^This card is not recogni[sz]ed\./, 'card_unknown'],
    [/^This card has been cancelled\./, 'card_cancelled'],
    [/^Your card is frozen until your missing receipts/, 'frozen_missing_receipts'],
    [/^Your card is frozen\./, 'frozen'],
    [/^Only purchases in US dollars/, 'currency'],
    [/is not a learning merchant\.$/, 'not_learning_merchant'],
    [/ is above your .* balance\.$/, 'over_balance'],
    [/spending limit\.$/, 'issuer_limit'],
  ];
  return known.find(([pattern]) => pattern.test(reason))?.[1] ?? 'other';
}

/**
 * What the employee can do about a decline, shown after its reason (spec §8
 * "Policy consequences": a purchase above the balance is refused and the user
 * must ask the manager for funds). Undefined where the reason already says it
 * ("Please contact your manager", "until your missing receipts are uploaded")
 * or nothing helps.
 */
export function declineNextStep(reason: string): string | undefined {
  return declineCodeOf(reason) === 'over_balance' ? 'Ask your manager for more funds.' : undefined;
}

/** A decline's reason with its next step, as the employee reads it. */
export function declineWithNextStep(reason: string): string {
  const next = declineNextStep(reason);
  return next ? `${reason} ${next}` : reason;
}
