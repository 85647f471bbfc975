/** The manager's Subscription screen: its state, and what closing would do with the money left. */
import { z } from 'zod';

export const subscriptionOutput = z.object({
  state: z.enum(['running', 'suspended', 'closed']),
  suspendedAt: z.string().optional(),
  suspendedBy: z.enum(['manager', 'unpaid']).optional(),
  closedAt: z.string().optional(),
  /** What closing now would leave: every employee's spendable balance plus the team pool. */
  remainingCents: z.number().int(),
  /**
   * True when a charge Stripe may have taken (a renewal or joining charge cut
   * off half-way) could not be checked just now: its money is not in
   * `remainingCents`, and closing credits it first.
   */
  chargeBeingConfirmed: z.literal(true).optional(),
  /** Redeeming that: the fee (15% or $5, whichever is greater) and the net; absent when it cannot be redeemed (under $5). */
  redeemFeeCents: z.number().int().optional(),
  redeemNetCents: z.number().int().optional(),
  /**
   * The monthly charge, by the funding job's own rules (shared/src/domain/billingCycle.ts,
   * services/billing/renewals.ts `cycleMembers`); absent before setup and unless running.
   */
  billing: z
    .object({
      /** Day of month (1-31) the cycle renews; 29-31 renew on the last day of shorter months. */
      cycleDay: z.number().int(),
      /** `yyyy-mm-dd` (UTC) of the next monthly charge. */
      nextChargeDate: z.string(),
      /** Active employees that charge would fund, and its total at their next budgets. */
      employees: z.number().int(),
      expectedTotalCents: z.number().int(),
      /** Pending invitations: nothing is charged for them until each person joins, then their budget monthly. */
      invited: z.number().int(),
      invitedMonthlyCents: z.number().int(),
    })
    .optional(),
  /** Cards closing would cancel. */
  cardsToCancel: z.number().int(),
  /** A closed team: what was done with the money. */
  closing: z
    .object({
      choice: z.enum(['redeem', 'keep']),
      amountCents: z.number().int(),
      feeCents: z.number().int(),
      netCents: z.number().int(),
    })
    .optional(),
});
export type SubscriptionOutput = z.infer<typeof subscriptionOutput>;

export const closeSubscriptionInput = z.object({
  remaining: z.enum(['redeem', 'keep']),
});

/** A page of the payments history (GET /subscription's `payments`). */
export const PAYMENTS_PAGE_MAX = 100;

/** GET /subscription: the payments page to answer with (the first, unless a cursor is given). */
export const subscriptionInput = z.object({
  /** Opaque: the `payments.nextCursor` of the previous answer. */
  paymentsCursor: z.string().max(500).optional(),
  paymentsLimit: z.coerce.number().int().min(1).max(PAYMENTS_PAGE_MAX).default(10),
});

/** One row of the payments history: what the team's card on file was charged or refunded (shared/src/domain/payments.ts). */
export const paymentRow = z.object({
  id: z.string(),
  kind: z.enum(['monthly', 'joining', 'deposit', 'redemption', 'closing', 'other']),
  direction: z.enum(['charge', 'refund']),
  /** ISO time the ledger first recorded it; shown MM/DD/YYYY. */
  date: z.string(),
  description: z.string(),
  /** Positive cents: charged to the card, or refunded to it (per `direction`). */
  amountCents: z.number().int(),
  /** The people it funded, or whose money it returned. */
  people: z.number().int(),
  feeCents: z.number().int().optional(),
  /** When one row is several card charges or refunds: "2 charges of $15.00". */
  note: z.string().optional(),
  /** The card charged or refunded, when the ledger recorded it. */
  card: z.object({ brand: z.string(), last4: z.string() }).optional(),
});
export type PaymentRowOutput = z.output<typeof paymentRow>;

export const subscriptionPageOutput = subscriptionOutput.extend({
  payments: z.object({ rows: z.array(paymentRow), nextCursor: z.string().nullable() }),
});
