/**
 * Billing: the setup wizard's finalize call, cards on file, extra deposits
 * (spec §2 /setupAccount, /dashboard/creditcard, §5 "Card form", §7).
 * Card numbers never reach our server: the browser turns them into a token
 * with the card provider's library, and only the token is sent here.
 */
import { z } from 'zod';
import { optionalText, requiredText } from './common';
import { inviteEmployeesInput } from './invitations';
import { amountDollars } from './profile';
import { timeZoneField } from './team';

export const US_STATE = /^[A-Z]{2}$/;

/**
 * The longest each text of the card form may be, in characters. The schemas
 * below refuse more, and the form's inputs stop there (maxLength), so nobody
 * types what the server will refuse. The name on the card goes to the card
 * provider only, never here; the form holds it to an address line's length.
 */
export const CARD_FORM_MAX = {
  businessName: 120,
  name: 200,
  address1: 200,
  address2: 200,
  city: 100,
} as const;

/** A refusal names its field: the wizard shows the server's message beside the form. */
const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;

export const billingAddressSchema = z.object({
  address1: requiredText(
    'Address is required',
    CARD_FORM_MAX.address1,
    tooLong('Address', CARD_FORM_MAX.address1),
  ),
  address2: optionalText(CARD_FORM_MAX.address2, tooLong('Address line 2', CARD_FORM_MAX.address2)),
  city: requiredText('City is required', CARD_FORM_MAX.city, tooLong('City', CARD_FORM_MAX.city)),
  state: z
    .string({ error: 'State is required' })
    .trim()
    .min(1, { error: 'State is required' })
    .transform((s) => s.toUpperCase())
    .refine((s) => US_STATE.test(s), { error: 'State must be a 2-letter code' }),
  zip: z
    .string({ error: 'Postal Code is required' })
    .trim()
    .min(1, { error: 'Postal Code is required' })
    .regex(/^\d{5}(-\d{4})?$/, { error: 'Postal Code must be 5 digits (or ZIP+4)' }),
});
export type BillingAddress = z.output<typeof billingAddressSchema>;

/** A card token from the provider's browser library (tok_...), never a card number. */
export const cardToken = z
  .string({ error: 'Credit card number is required' })
  .trim()
  .regex(/^tok_[A-Za-z0-9_]+$/, { error: 'Credit card number is not valid' });

export const finalizeSetupInput = z.object({
  businessName: requiredText(
    'Business name is required',
    CARD_FORM_MAX.businessName,
    tooLong('Business name', CARD_FORM_MAX.businessName),
  ),
  token: cardToken,
  billingAddress: billingAddressSchema,
  /** Invite now (optional, spec: only when both budget and emails are given). */
  invite: inviteEmployeesInput.optional(),
  /** The team's time zone (the wizard offers the browser's); absent: the team keeps the one it has. */
  timeZone: timeZoneField.optional(),
});

export const setupOutput = z.object({
  teamId: z.string(),
  status: z.enum(['setup', 'active', 'pastDue']),
  invited: z.number().int(),
  funded: z.number().int(),
});

export const cardOnFileSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});

export const customerOutput = z.object({
  cards: z.array(cardOnFileSchema),
  defaultCardId: z.string().nullable(),
});

export const addCardInput = z.object({ token: cardToken });
export const updateCustomerInput = z.object({ defaultCardId: z.string().trim().min(1).max(100) });
export const cardIdInput = z.object({ cardId: z.string().trim().min(1).max(100) });

export const depositInput = z.object({
  userIds: z
    .array(z.string().min(1).max(64))
    .min(1, { error: 'Please select at least one employee' })
    .max(100),
  amount: amountDollars,
});
export const depositOutput = z.object({
  results: z.array(
    z.object({
      userId: z.string(),
      status: z.enum(['credited', 'declined', 'skipped']),
      message: z.string().optional(),
    }),
  ),
});

/**
 * What a deposit would charge, shown before confirming: per person and in
 * total (what the team's card is charged), and today's room under the team's
 * daily deposit limit.
 */
export const depositPreviewOutput = z.object({
  amountCents: z.number().int(),
  totalCents: z.number().int(),
  people: z.array(
    z.object({
      userId: z.string(),
      status: z.enum(['charged', 'skipped']),
      message: z.string().optional(),
    }),
  ),
  dailyLimitCents: z.number().int(),
  remainingTodayCents: z.number().int(),
  /**
   * With today's moves and commitments this deposit passes the step-up
   * threshold: sent, it needs a factor proven in the last few minutes
   * (GET /me/secondFactor `stepUpNeeded` says whether this session has one).
   */
  needsFreshFactor: z.boolean(),
});
