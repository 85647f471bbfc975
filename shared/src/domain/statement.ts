/**
 * The employee's statement as a card statement reads (docs/decisions.md,
 * "Employee statement"): one row per movement, newest first, with what the card
 * can still spend after it and what is on hold. Built from the entries of the
 * employee's three accounts (card, hold, debt): a movement touching two of them
 * (a hold takes from the card and adds to the hold) is one row, not one per leg.
 * Pure: the server reads the entries, this decides the rows, the page shows them.
 */

import type { PostingKind } from './ledger';
import { RELEASE_REASONS } from './ledger';
import { formatCents } from './money';
import { descriptionInWords } from './monthWords';

/** One entry of one account, in the order the ledger wrote it. */
export interface AccountEntry {
  entryId: string;
  kind: PostingKind;
  description: string;
  postedAt: string;
  /** Orders entries as the ledger wrote them (lambdas/src/data/ledger.ts). */
  sequence: string;
  amountCents: number;
  references?: Record<string, string>;
}

export type StatementRowType =
  | 'credit'
  | 'hold'
  | 'purchase'
  | 'holdReleased'
  | 'holdExpired'
  | 'refund'
  | 'reallocationIn'
  | 'reallocationOut'
  | 'debtCollected'
  | 'declined'
  | 'other';

export const STATEMENT_ROW_LABELS: Record<StatementRowType, string> = {
  credit: 'Credit',
  hold: 'Hold',
  purchase: 'Purchase',
  holdReleased: 'Hold released',
  holdExpired: 'Hold expired',
  refund: 'Refund',
  reallocationIn: 'Reallocation in',
  reallocationOut: 'Reallocation out',
  debtCollected: 'Debt collected',
  declined: 'Declined',
  other: 'Adjustment',
};

export interface StatementRow {
  entryId: string;
  type: StatementRowType;
  label: string;
  description: string;
  /** A second line when the row needs it (what became of a hold, where a purchase was paid from). */
  detail?: string;
  postedAt: string;
  /**
   * The movement as a statement shows it: credited (+), held, spent or taken
   * (-). A purchase paid from its hold shows its price, though the available
   * balance already went down when the hold was placed (the detail says so).
   */
  amountCents: number;
  /** What the card can still spend after this row (the balance the header shows). */
  availableCents: number;
  /** Held for purchases not yet settled, after this row. */
  onHoldCents: number;
  /** Owed for purchases that settled above their hold, after this row. */
  owedCents: number;
  /** A declined purchase's price: shown, never taken (its `amountCents` is 0, it moved nothing). */
  declinedCents?: number;
}

/**
 * A purchase the card declined (lambdas/src/data/cards.ts `DeclineRecord`):
 * not a movement, so it changes no balance; the statement shows it where it
 * happened, with the reason the employee was given.
 */
export interface DeclinedPurchase {
  authorizationId: string;
  amountCents: number;
  merchant: string;
  reason?: string;
  decidedAt: string;
}

/** What a declined row says under its description: the reason, and that nothing moved. */
export function declinedDetail(reason: string | undefined): string {
  return `${reason ?? 'This purchase was declined.'} Nothing was taken from your balance.`;
}

interface Movement {
  entryId: string;
  kind: PostingKind;
  description: string;
  postedAt: string;
  sequence: string;
  references?: Record<string, string>;
  cardCents: number;
  holdCents: number;
  debtCents: number;
}

/** The authorization a hold, a release or a capture belongs to (their entry ids and references name it). */
function authorizationOf(movement: Movement): string | undefined {
  if (movement.kind === 'authorization' || movement.kind === 'release') return movement.entryId.split('#')[1];
  return movement.references?.authorization;
}

function merge(entries: { card: AccountEntry[]; hold: AccountEntry[]; debt: AccountEntry[] }): Movement[] {
  const byEntry = new Map<string, Movement>();
  const add = (list: AccountEntry[], field: 'cardCents' | 'holdCents' | 'debtCents') => {
    for (const entry of list) {
      const movement = byEntry.get(entry.entryId) ?? {
        entryId: entry.entryId,
        kind: entry.kind,
        description: entry.description,
        postedAt: entry.postedAt,
        sequence: entry.sequence,
        references: entry.references,
        cardCents: 0,
        holdCents: 0,
        debtCents: 0,
      };
      movement[field] += entry.amountCents;
      if (entry.sequence < movement.sequence) movement.sequence = entry.sequence;
      byEntry.set(entry.entryId, movement);
    }
  };
  add(entries.card, 'cardCents');
  add(entries.hold, 'holdCents');
  add(entries.debt, 'debtCents');
  return [...byEntry.values()].sort((a, b) =>
    a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : a.entryId < b.entryId ? -1 : 1,
  );
}

/**
 * The movements in an order every balance allows. The ledger wrote each one on
 * the condition that the card and the hold covered it (and that no debt went
 * above zero), so in the order it wrote them nothing is ever below zero. Entries
 * written before the ledger kept that order carry only their event time, and a
 * capture stamped with Stripe's whole second can sort before the hold it
 * settles: such a movement waits until the movements after it cover it.
 */
function inCoveredOrder(movements: Movement[]): Movement[] {
  const ordered: Movement[] = [];
  const waiting: Movement[] = [];
  let card = 0;
  let hold = 0;
  let debt = 0;
  const covered = (m: Movement) =>
    card + m.cardCents >= 0 && hold + m.holdCents >= 0 && debt + m.debtCents <= 0;
  const apply = (m: Movement) => {
    card += m.cardCents;
    hold += m.holdCents;
    debt += m.debtCents;
    ordered.push(m);
  };
  for (const movement of movements) {
    if (!covered(movement)) {
      waiting.push(movement);
      continue;
    }
    apply(movement);
    for (let i = 0; i < waiting.length; ) {
      const next = waiting[i] as Movement;
      if (covered(next)) {
        waiting.splice(i, 1);
        apply(next);
        i = 0;
      } else i++;
    }
  }
  // Only books that break the ledger's invariants leave anything here: show it as it stands.
  for (const m of waiting) apply(m);
  return ordered;
}

function typeOf(movement: Movement): StatementRowType {
  switch (movement.kind) {
    case 'funding':
    case 'deposit':
      return 'credit';
    case 'authorization':
      return 'hold';
    case 'capture':
      return 'purchase';
    case 'release':
      return movement.description === RELEASE_REASONS.expired ? 'holdExpired' : 'holdReleased';
    case 'refund':
      return 'refund';
    case 'reallocation':
    case 'poolReturn':
      return 'reallocationIn';
    case 'poolTransfer':
      return 'reallocationOut';
    case 'debtRepayment':
      return 'debtCollected';
    default:
      return 'other';
  }
}

/** What became of each authorization's hold over the whole statement. */
interface HoldOutcome {
  merchant: string;
  heldCents: number;
  capturedCents: number;
  releasedCents: number;
  purchase?: string;
}

/**
 * Captures posted before they named their authorization settle, for the
 * statement's words, the oldest hold at the same merchant with that much still
 * open (the network captures a merchant's holds in order).
 */
function legacyAuthorization(m: Movement, outcomes: Map<string, HoldOutcome>): string | undefined {
  if (m.kind !== 'capture' || m.holdCents === 0) return undefined;
  const merchant = m.description.replace(/^Purchase at /, '');
  for (const [authorization, o] of outcomes)
    if (o.merchant === merchant && o.heldCents - o.capturedCents - o.releasedCents >= -m.holdCents)
      return authorization;
  return undefined;
}

function holdOutcomes(movements: Movement[]): Map<string, HoldOutcome> {
  const outcomes = new Map<string, HoldOutcome>();
  for (const m of movements) {
    const authorization = authorizationOf(m) ?? legacyAuthorization(m, outcomes);
    if (!authorization) continue;
    const outcome = outcomes.get(authorization) ?? {
      merchant: '',
      heldCents: 0,
      capturedCents: 0,
      releasedCents: 0,
    };
    if (m.kind === 'authorization') {
      outcome.heldCents += m.holdCents;
      outcome.merchant ||= m.description.replace(/^(Hold for|More held for) /, '');
    } else if (m.kind === 'capture') {
      outcome.capturedCents -= m.holdCents;
      outcome.purchase = m.description;
    } else if (m.kind === 'release') {
      outcome.releasedCents -= m.holdCents;
    }
    outcomes.set(authorization, outcome);
  }
  return outcomes;
}

function holdDetail(outcome: HoldOutcome | undefined): string | undefined {
  if (!outcome) return undefined;
  const open = outcome.heldCents - outcome.capturedCents - outcome.releasedCents;
  if (open > 0) return `${formatCents(open)} still on hold until the merchant settles the purchase.`;
  if (outcome.capturedCents > 0 && outcome.releasedCents > 0)
    return `Settled: ${formatCents(outcome.capturedCents)} became the purchase, ${formatCents(outcome.releasedCents)} came back to your balance.`;
  if (outcome.capturedCents > 0) return 'Settled: this hold became the purchase.';
  if (outcome.releasedCents > 0) return 'Released: the money came back to your balance.';
  return undefined;
}

function purchaseDetail(movement: Movement): string {
  const fromHold = -movement.holdCents;
  const owed = -movement.debtCents;
  if (owed <= 0) return 'Paid from its hold: the hold became this purchase, so your balance did not change.';
  if (fromHold > 0)
    return `Its ${formatCents(fromHold)} hold became this purchase; the ${formatCents(owed)} above it is owed and comes out of your next credit.`;
  return `Settled without a hold: the ${formatCents(owed)} is owed and comes out of your next credit.`;
}

function describe(movement: Movement, type: StatementRowType, outcome: HoldOutcome | undefined) {
  const merchant = outcome?.merchant;
  switch (type) {
    case 'hold':
      return { description: movement.description, detail: holdDetail(outcome) };
    case 'purchase':
      return { description: movement.description, detail: purchaseDetail(movement) };
    case 'holdReleased':
      return {
        description: merchant
          ? movement.description === RELEASE_REASONS.partial
            ? `Part of the hold for ${merchant} released`
            : `Hold for ${merchant} released`
          : movement.description,
        detail: 'Back to your balance.',
      };
    case 'holdExpired':
      return {
        description: merchant ? `Hold for ${merchant} expired` : movement.description,
        detail: 'The merchant never settled it: the money came back to your balance.',
      };
    default:
      // Older monthly credits named their month `2026-12`; the entry stays as written, the row reads it in words.
      return { description: descriptionInWords(movement.description) };
  }
}

/**
 * The statement rows, newest first, from the employee's card, hold and debt
 * entries, with each declined purchase among them where it happened (after
 * the movements posted before it), carrying the balances as they stood.
 */
export function statementRows(
  entries: {
    card: AccountEntry[];
    hold: AccountEntry[];
    debt: AccountEntry[];
  },
  declines: readonly DeclinedPurchase[] = [],
): StatementRow[] {
  const movements = inCoveredOrder(merge(entries));
  const outcomes = holdOutcomes(movements);
  const waiting = [...declines].sort((a, b) =>
    a.decidedAt < b.decidedAt ? -1 : a.decidedAt > b.decidedAt ? 1 : 0,
  );
  let available = 0;
  let onHold = 0;
  let debt = 0;
  const rows: StatementRow[] = [];
  const declinedUpTo = (time: string | undefined) => {
    while (waiting.length > 0 && (time === undefined || (waiting[0] as DeclinedPurchase).decidedAt < time)) {
      const d = waiting.shift() as DeclinedPurchase;
      rows.push({
        entryId: `decline#${d.authorizationId}`,
        type: 'declined',
        label: STATEMENT_ROW_LABELS.declined,
        description: `Purchase at ${d.merchant}`,
        detail: declinedDetail(d.reason),
        postedAt: d.decidedAt,
        amountCents: 0,
        declinedCents: d.amountCents,
        availableCents: available,
        onHoldCents: onHold,
        owedCents: debt === 0 ? 0 : -debt,
      });
    }
  };
  for (const m of movements) {
    declinedUpTo(m.postedAt);
    available += m.cardCents;
    onHold += m.holdCents;
    debt += m.debtCents;
    const type = typeOf(m);
    const authorization = authorizationOf(m);
    const { description, detail } = describe(
      m,
      type,
      authorization ? outcomes.get(authorization) : undefined,
    );
    rows.push({
      entryId: m.entryId,
      type,
      label: STATEMENT_ROW_LABELS[type],
      description,
      ...(detail ? { detail } : {}),
      postedAt: m.postedAt,
      // A purchase leaves the card alone (the hold and, past it, a debt pay for it): show its price.
      amountCents: m.cardCents !== 0 ? m.cardCents : m.holdCents + m.debtCents,
      availableCents: available,
      onHoldCents: onHold,
      owedCents: debt === 0 ? 0 : -debt, // not -0
    });
  }
  declinedUpTo(undefined);
  return rows.reverse();
}
