/**
 * The ledger's pure rules: which accounts exist, what a valid posting is, and
 * the postings of every money movement. No I/O here; lambdas/src/data/ledger.ts
 * writes a validated posting in one DynamoDB transaction. See docs/ledger.md.
 *
 * Sign convention: every account has one balance, "money held by this account",
 * and each leg of a posting adds its signed amount to its account's balance. The
 * legs of a posting sum to zero, so money is never created or destroyed: it only
 * moves. Internal accounts can never go below zero; outside-world accounts
 * (the managers' cards, the card network, debts) can, because a negative balance
 * there is exactly "money that came in from (or is owed by) the outside".
 */
import { assertCents, feeCents, splitEvenly } from './money';

export type AccountId =
  /** An employee card's spendable balance. */
  | `card:${string}`
  /** Money held for a card's pending authorizations. */
  | `hold:${string}`
  /** A team's unassigned money: deleted employees' balances, waiting to be reallocated or redeemed. */
  | `pool:${string}`
  /** Provider fee revenue (redemption fees) earned from one team. */
  | `revenue:${string}`
  /** The card network for one team's cards: what merchants were paid through Issuing, net of their refunds. */
  | `network:${string}`
  /** A team manager's card on file: charges take money from it, refunds and redemptions return it. */
  | `external:${string}`
  /** What an employee owes after a capture larger than their hold (never lost, collected from later funding). */
  | `debt:${string}`;

/** Accounts allowed below zero: they stand for the outside world. */
export function mayGoNegative(account: AccountId): boolean {
  return account.startsWith('external:') || account.startsWith('debt:') || account.startsWith('network:');
}

/**
 * Accounts never allowed above zero: a debt is what someone owes, so paying it
 * back can bring it to zero but not past it. Without this, two repayments
 * racing on the same debt would both go through and take the card's money twice.
 */
export function mayNotGoPositive(account: AccountId): boolean {
  return account.startsWith('debt:');
}

export interface Leg {
  account: AccountId;
  /** Signed cents added to the account's balance. */
  amountCents: number;
}

export type PostingKind =
  | 'funding'
  | 'deposit'
  | 'authorization'
  | 'release'
  | 'capture'
  | 'refund'
  | 'reallocation'
  | 'redemption'
  | 'poolTransfer'
  /** A reactivated person's own pooled money back from the team pool to their card (issue 28). */
  | 'poolReturn'
  | 'debtRepayment'
  /** A one-off move of a team's part of a retired shared account to its own account (issue 12). */
  | 'accountSplit';

export interface Posting {
  /** The idempotency key: the same id is posted once, ever. */
  entryId: string;
  kind: PostingKind;
  teamId: string;
  legs: Leg[];
  /** Plain words for statements ("Monthly budget for November"). */
  description: string;
  /** References to outside objects (Stripe charge, authorization, ...), for audit and support. */
  references?: Record<string, string>;
  /** A redemption's refunds, each against the charge it returns money to. */
  refunds?: RedemptionRefund[];
}

export class InvalidPosting extends Error {}

/** A posting is valid when it has legs, whole non-zero cents, each account once, and sums to zero. */
export function validatePosting(posting: Posting): void {
  if (!posting.entryId) throw new InvalidPosting('a posting needs an entry id');
  if (posting.legs.length < 2) throw new InvalidPosting('a posting needs at least two legs');
  const seen = new Set<string>();
  let sum = 0;
  for (const leg of posting.legs) {
    assertCents(leg.amountCents, `leg on ${leg.account}`);
    if (leg.amountCents === 0) throw new InvalidPosting(`zero leg on ${leg.account}`);
    if (seen.has(leg.account)) throw new InvalidPosting(`${leg.account} appears twice`);
    seen.add(leg.account);
    sum += leg.amountCents;
  }
  if (sum !== 0) throw new InvalidPosting(`legs sum to ${sum}, not 0`);
}

// --- The movements --------------------------------------------------------------

export const cardAccount = (userId: string): AccountId => `card:${userId}`;
export const holdAccount = (userId: string): AccountId => `hold:${userId}`;
export const poolAccount = (teamId: string): AccountId => `pool:${teamId}`;
export const externalAccount = (teamId: string): AccountId => `external:${teamId}`;
export const debtAccount = (userId: string): AccountId => `debt:${userId}`;
/**
 * The network and revenue accounts are per team (issue 12): one item written by
 * every team's captures would cap the whole service at one item's write rate,
 * and concurrent transactions on it cancel each other. So every account a
 * posting names belongs to its team or to one of the team's people.
 */
export const networkAccount = (teamId: string): AccountId => `network:${teamId}`;
export const revenueAccount = (teamId: string): AccountId => `revenue:${teamId}`;

/**
 * The shared accounts postings used before issue 12. Old journal entries still
 * name them (entries are never edited); their balances were moved to the
 * per-team accounts by lambdas/src/data/ledgerMigrations.ts.
 */
export const LEGACY_NETWORK_ACCOUNT: AccountId = 'network:settlement';
export const LEGACY_REVENUE_ACCOUNT: AccountId = 'revenue:fees';

function posting(p: Posting): Posting {
  validatePosting(p);
  return p;
}

/** A successful charge of the manager's card credited to an employee's card (monthly funding or joining). */
export function funding(args: {
  entryId: string;
  teamId: string;
  userId: string;
  amountCents: number;
  description: string;
  chargeId: string;
  kind?: 'funding' | 'deposit';
  /** The card the charge went to, when known: the payments history names it. */
  card?: { brand: string; last4: string };
  /** The fund request an extra deposit approved (its title): the payments history names it. */
  request?: string;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: args.kind ?? 'funding',
    teamId: args.teamId,
    description: args.description,
    references: {
      charge: args.chargeId,
      ...(args.card ? { cardBrand: args.card.brand, cardLast4: args.card.last4 } : {}),
      ...(args.request ? { request: args.request } : {}),
    },
    legs: [
      { account: externalAccount(args.teamId), amountCents: -args.amountCents },
      { account: cardAccount(args.userId), amountCents: args.amountCents },
    ],
  });
}

/** An approved authorization: the amount moves from spendable to held. */
export function authorizationHold(args: {
  authorizationId: string;
  teamId: string;
  userId: string;
  amountCents: number;
  merchant: string;
  /**
   * For a merchant's later request for more on the same authorization (an
   * increment): its position in Stripe's request_history, which keys the extra hold.
   */
  increment?: number;
}): Posting {
  const increment = args.increment;
  return posting({
    entryId:
      increment === undefined ? `AUTH#${args.authorizationId}` : `AUTH#${args.authorizationId}#${increment}`,
    kind: 'authorization',
    teamId: args.teamId,
    description: increment === undefined ? `Hold for ${args.merchant}` : `More held for ${args.merchant}`,
    references: { authorization: args.authorizationId },
    legs: [
      { account: cardAccount(args.userId), amountCents: -args.amountCents },
      { account: holdAccount(args.userId), amountCents: args.amountCents },
    ],
  });
}

/**
 * A capture settles against the hold. Up to the held amount it comes out of the
 * hold; anything captured above it (an over-capture, or a capture with no hold
 * at all) is recorded as the employee's debt, never lost. Whatever stays on hold
 * after a final capture is released separately.
 */
export function capture(args: {
  entryId: string;
  teamId: string;
  userId: string;
  capturedCents: number;
  heldCents: number;
  merchant: string;
  transactionId: string;
  /** The authorization whose hold it settles: lets the statement say the hold became this purchase. */
  authorizationId?: string;
}): Posting {
  const fromHold = Math.min(args.capturedCents, Math.max(0, args.heldCents));
  const owed = args.capturedCents - fromHold;
  // The network receives what the merchant was paid; the hold (and, past it, a debt) gives it.
  const legs: Leg[] = [{ account: networkAccount(args.teamId), amountCents: args.capturedCents }];
  if (fromHold > 0) legs.push({ account: holdAccount(args.userId), amountCents: -fromHold });
  if (owed > 0) legs.push({ account: debtAccount(args.userId), amountCents: -owed });
  return posting({
    entryId: args.entryId,
    kind: 'capture',
    teamId: args.teamId,
    description: `Purchase at ${args.merchant}`,
    references: {
      transaction: args.transactionId,
      ...(args.authorizationId ? { authorization: args.authorizationId } : {}),
    },
    legs,
  });
}

/** Why held money went back (a release's description; the statement tells an expiry apart by it). */
export const RELEASE_REASONS = {
  released: 'Hold released',
  partial: 'Part of a hold released',
  expired: 'Hold expired',
} as const;

/** Held money going back to spendable (reversal, expiry, or the rest after a partial capture). */
export function release(args: {
  entryId: string;
  teamId: string;
  userId: string;
  amountCents: number;
  reason: string;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: 'release',
    teamId: args.teamId,
    description: args.reason,
    legs: [
      { account: holdAccount(args.userId), amountCents: -args.amountCents },
      { account: cardAccount(args.userId), amountCents: args.amountCents },
    ],
  });
}

/** A merchant refund comes back through the network onto the card. */
export function merchantRefund(args: {
  entryId: string;
  teamId: string;
  userId: string;
  amountCents: number;
  merchant: string;
  transactionId: string;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: 'refund',
    teamId: args.teamId,
    description: `Refund from ${args.merchant}`,
    references: { transaction: args.transactionId },
    legs: [
      { account: networkAccount(args.teamId), amountCents: -args.amountCents },
      { account: cardAccount(args.userId), amountCents: args.amountCents },
    ],
  });
}

/**
 * Why an employee's money moved to the team pool. The caller says so: the
 * person's record at the time of the sweep does not (a deletion sweeps with the
 * record read before it, and a closing team's employees are still active).
 */
export type PoolReason = 'removed' | 'dormant' | 'closed';

/** The words of a pool entry, by its reason: the statement and the Activity Log show them. */
export const POOL_WORDS: Record<PoolReason, string> = {
  removed: 'Balance of a removed employee moved to the team pool',
  dormant: 'Balance of a dormant employee moved to the team pool',
  closed: 'Balance moved to the team pool when the subscription closed',
};

/** A removed, dormant or closing team's employee's spendable balance moves to the team pool. */
export function toPool(args: {
  entryId: string;
  teamId: string;
  userId: string;
  amountCents: number;
  /** Why it leaves the card: the person was removed, went dormant and stays on the team, or the team closed. */
  reason: PoolReason;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: 'poolTransfer',
    teamId: args.teamId,
    description: POOL_WORDS[args.reason],
    references: { user: args.userId },
    legs: [
      { account: cardAccount(args.userId), amountCents: -args.amountCents },
      { account: poolAccount(args.teamId), amountCents: args.amountCents },
    ],
  });
}

/** The words of a pool return: the statement and the Activity Log show them. */
export const POOL_RETURN_WORDS = 'Balance returned from the team pool: reactivated';

/**
 * A removed person reactivated before the team's next cycle day (issue 28):
 * what of their own money is still in the pool goes back to their card. The
 * entry names them (`references.user`), as their pool entries do, so what is
 * pooled from them (services/money/pool.ts `pooledFrom`) goes down by it.
 */
export function fromPool(args: {
  entryId: string;
  teamId: string;
  userId: string;
  amountCents: number;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: 'poolReturn',
    teamId: args.teamId,
    description: POOL_RETURN_WORDS,
    references: { user: args.userId },
    legs: [
      { account: poolAccount(args.teamId), amountCents: -args.amountCents },
      { account: cardAccount(args.userId), amountCents: args.amountCents },
    ],
  });
}

/** One receiver's part of a reallocation. */
export interface Share {
  userId: string;
  amountCents: number;
}

/**
 * Reallocation (decisions.md): an amount from the team pool split evenly across
 * the receivers, free of fee. Receivers are sorted by id and the first ones get
 * the remainder cents, so the same request always splits the same way. Shares
 * of zero (more receivers than cents) are left out.
 */
export function reallocationShares(amountCents: number, receiverIds: string[]): Share[] {
  const receivers = [...new Set(receiverIds)].sort();
  if (receivers.length === 0)
    throw new InvalidPosting('Please select at least one employee to receive the reallocation');
  const shares = splitEvenly(amountCents, receivers.length);
  return receivers
    .map((userId, i) => ({ userId, amountCents: shares[i] as number }))
    .filter((share) => share.amountCents > 0);
}

/**
 * The posting of some shares of a reallocation: the pool gives what they add
 * up to. A reallocation to many people is posted in parts of this kind, since
 * one posting holds a bounded number of legs.
 */
export function reallocationPart(args: {
  entryId: string;
  teamId: string;
  shares: Share[];
  /** The removed employee whose pooled money this is. */
  fromUserId?: string;
}): Posting {
  const total = args.shares.reduce((sum, share) => sum + share.amountCents, 0);
  return posting({
    entryId: args.entryId,
    kind: 'reallocation',
    teamId: args.teamId,
    description: 'Reallocated funds',
    ...(args.fromUserId ? { references: { user: args.fromUserId } } : {}),
    legs: [
      { account: poolAccount(args.teamId), amountCents: -total },
      ...args.shares.map((share) => ({ account: cardAccount(share.userId), amountCents: share.amountCents })),
    ],
  });
}

/** A whole reallocation in one posting (for a few receivers). */
export function reallocation(args: {
  entryId: string;
  teamId: string;
  amountCents: number;
  receiverIds: string[];
  fromUserId?: string;
}): Posting {
  return reallocationPart({ ...args, shares: reallocationShares(args.amountCents, args.receiverIds) });
}

/** Redemption fee (decisions.md, the terms): 15% or $5, whichever is greater; nothing under $5. */
export const REDEMPTION_FEE_BPS = 1500;
export const REDEMPTION_MIN_FEE_CENTS = 500;
export const REDEMPTION_MINIMUM_CENTS = 500;

export function redemptionFee(amountCents: number): number {
  assertCents(amountCents);
  if (amountCents < REDEMPTION_MINIMUM_CENTS)
    throw new InvalidPosting('Refund is not available for balances under $5.');
  return Math.min(amountCents, Math.max(feeCents(amountCents, REDEMPTION_FEE_BPS), REDEMPTION_MIN_FEE_CENTS));
}

/**
 * What redeeming `amountCents` gives back: the fee and the net. The preview the
 * manager sees and the redemption that is posted both come from here, so the
 * two cannot disagree. Throws under $5, and when the $5 fee would take it all.
 */
export function redemptionQuote(amountCents: number): {
  amountCents: number;
  feeCents: number;
  netCents: number;
} {
  const feeCents = redemptionFee(amountCents);
  const netCents = amountCents - feeCents;
  if (netCents <= 0) throw new InvalidPosting(`After the ${'$'}5.00 minimum fee nothing would be returned.`);
  return { amountCents, feeCents, netCents };
}

/**
 * What each receiver gets from reallocating several removed employees' money:
 * each person's money is split on its own (as it is posted, one plan per
 * person), then the parts are added up per receiver, in receiver-id order.
 */
export function combineShares(plans: Share[][]): Share[] {
  const byReceiver = new Map<string, number>();
  for (const plan of plans)
    for (const share of plan)
      byReceiver.set(share.userId, (byReceiver.get(share.userId) ?? 0) + share.amountCents);
  return [...byReceiver]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([userId, amountCents]) => ({ userId, amountCents }));
}

/** One refund of a redemption: part of the net, back to one earlier charge of the team. */
export interface RedemptionRefund {
  chargeId: string;
  refundId: string;
  amountCents: number;
}

/**
 * Which earlier charges take a redemption's net amount. A card refund goes back
 * to a charge and never exceeds what is left of it, so the net is split over the
 * team's charges in the order given (newest first), each taking what it can.
 * Throws when all of them together cannot take it.
 */
export function planRedemptionRefunds(
  netCents: number,
  charges: { chargeId: string; refundableCents: number }[],
): { chargeId: string; amountCents: number }[] {
  assertCents(netCents, 'redemption net');
  const plan: { chargeId: string; amountCents: number }[] = [];
  let left = netCents;
  for (const charge of charges) {
    if (left === 0) break;
    const take = Math.min(left, charge.refundableCents);
    if (take <= 0) continue;
    plan.push({ chargeId: charge.chargeId, amountCents: take });
    left -= take;
  }
  if (left > 0) throw new InvalidPosting('Your earlier charges cannot take this refund; please contact us.');
  return plan;
}

/**
 * Redemption: pool money back to the manager's card, less the fee. The net may
 * be refunded in several parts (see planRedemptionRefunds); they are one entry,
 * so the pool, the fee and every refund are recorded together or not at all.
 */
export function redemption(args: {
  entryId: string;
  teamId: string;
  amountCents: number;
  refunds: RedemptionRefund[];
  fromUserId?: string;
}): Posting {
  const fee = redemptionFee(args.amountCents);
  const net = args.amountCents - fee;
  if (net <= 0) {
    throw new InvalidPosting(`After the ${'$'}5.00 minimum fee nothing would be returned.`);
  }
  for (const r of args.refunds) assertCents(r.amountCents, `refund ${r.refundId}`);
  const refunded = args.refunds.reduce((sum, r) => sum + r.amountCents, 0);
  if (args.refunds.length === 0 || refunded !== net || args.refunds.some((r) => r.amountCents <= 0)) {
    throw new InvalidPosting(
      `the refunds (${refunded} cents) must be positive and add up to the net (${net} cents)`,
    );
  }
  const legs: Leg[] = [
    { account: poolAccount(args.teamId), amountCents: -args.amountCents },
    { account: revenueAccount(args.teamId), amountCents: fee },
    { account: externalAccount(args.teamId), amountCents: net },
  ];
  return posting({
    entryId: args.entryId,
    kind: 'redemption',
    teamId: args.teamId,
    description: 'Redeemed to the manager’s card',
    references: {
      refund: args.refunds.map((r) => r.refundId).join(' '),
      ...(args.fromUserId ? { user: args.fromUserId } : {}),
    },
    refunds: args.refunds,
    legs,
  });
}

/** An employee's debt (from an over-capture) paid back from their card when money arrives. */
export function debtRepayment(args: {
  entryId: string;
  teamId: string;
  userId: string;
  amountCents: number;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: 'debtRepayment',
    teamId: args.teamId,
    description: 'Paid back: a purchase that settled above its hold',
    legs: [
      { account: cardAccount(args.userId), amountCents: -args.amountCents },
      { account: debtAccount(args.userId), amountCents: args.amountCents },
    ],
  });
}

/**
 * Moves what one team's postings left on a retired shared account (issue 12)
 * to the team's own account. A correction, posted as a new entry: the old
 * entries stay as they were, and every account still equals the sum of its
 * entries. `amountCents` is the team's part of the shared balance (signed).
 */
export function accountSplit(args: {
  entryId: string;
  teamId: string;
  from: AccountId;
  to: AccountId;
  amountCents: number;
}): Posting {
  return posting({
    entryId: args.entryId,
    kind: 'accountSplit',
    teamId: args.teamId,
    description: `Moved from ${args.from} to ${args.to}: the team's own account`,
    legs: [
      { account: args.from, amountCents: -args.amountCents },
      { account: args.to, amountCents: args.amountCents },
    ],
  });
}
