/** The employee's own card: the "Will this be approved?" check (decisions.md). */
import { z } from 'zod';

/** Largest amount the check accepts: $100,000 (no learning budget comes near it). */
export const PURCHASE_CHECK_MAX_CENTS = 10_000_000;

/** GET query: numbers arrive as text. */
export const purchaseCheckInput = z.object({
  amountCents: z.coerce
    .number({ error: 'Enter an amount' })
    .int({ error: 'Enter an amount in cents' })
    .min(1, { error: 'Enter an amount above $0.00' })
    .max(PURCHASE_CHECK_MAX_CENTS, { error: 'Enter an amount up to $100,000.00' }),
  /** Stripe's merchant category name, e.g. `book_stores` (spendPolicy.MERCHANT_KINDS lists the usual ones). */
  merchantCategory: z.string().regex(/^[a-z][a-z_]{1,63}$/, { error: 'Choose a kind of merchant' }),
  /** Named in the answer when given (a shop item knows its merchant). */
  merchantName: z.string().trim().min(1).max(100).optional(),
});

export const purchaseCheckOutput = z.object({
  approved: z.boolean(),
  /** Why not, in plain words; absent when approved. */
  reason: z.string().optional(),
  code: z
    .enum([
      'card_unknown',
      'card_cancelled',
      'frozen_missing_receipts',
      'frozen',
      'currency',
      'not_learning_merchant',
      'over_balance',
    ])
    .optional(),
  /** What the card could spend at the moment of the check. */
  availableCents: z.number().int(),
});
