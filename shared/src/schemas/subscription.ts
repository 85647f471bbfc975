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
   * services/renewals.ts `cycleMembers`); absent before setup and unless running.
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
