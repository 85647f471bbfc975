/**
 * Fund requests (issue 27): an employee asks for money above their balance
 * (a shop item, a declined purchase, or anything else they name); their
 * manager approves it (the amount asked or less), declines it with a reason,
 * or lets it expire after 14 days. Approval is an extra deposit, charged to the
 * team's card (lambdas/src/services/requests).
 */
import { z } from 'zod';
import { categories } from '../domain/skills';
import { catalogueItemId } from './catalogue';
import { optionalText, requiredText } from './common';

/** A request unanswered this long expires (no money moved). */
export const REQUEST_EXPIRY_DAYS = 14;
/** The most one request may ask for: as a deposit's bound. */
export const MAX_REQUEST_CENTS = 10_000_00;

export const requestStates = [
  'pending',
  'approving',
  'approved',
  'declined',
  'cancelled',
  'expired',
] as const;
export type RequestState = (typeof requestStates)[number];

/** How the employee reads each state. */
export const REQUEST_STATE_WORDS: Record<RequestState, string> = {
  pending: 'Waiting for your manager',
  approving: 'Being approved',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/**
 * Dollars and cents, as people write money: `29.99`, `$29.99`, `30`, or a
 * number of dollars. Becomes integer cents, above $0 and at most $10,000.
 */
export function moneyAmount(label: string) {
  return z.union([z.number(), z.string()], { error: `${label} is required` }).transform((value, ctx) => {
    const text = (typeof value === 'number' ? value.toFixed(2) : value)
      .trim()
      .replace(/^\$\s*/, '')
      .replace(/,/g, '');
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: `${label} is required` });
      return z.NEVER;
    }
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be an amount in dollars, like 29.99` });
      return z.NEVER;
    }
    const [whole, fraction = ''] = text.split('.');
    const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
    if (cents <= 0) {
      ctx.addIssue({ code: 'custom', message: `${label} must be more than $0` });
      return z.NEVER;
    }
    if (cents > MAX_REQUEST_CENTS) {
      ctx.addIssue({ code: 'custom', message: `${label} must be at most $10,000` });
      return z.NEVER;
    }
    return cents;
  });
}

const httpsLink = z.preprocess(
  (value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value),
  z
    .url({ protocol: /^https?$/, error: 'Link must be a web address starting with https://' })
    .max(500, { error: 'Link must be at most 500 characters' })
    .optional(),
);

/**
 * A new request: for a shop item (`itemId`: its name, merchant and skill area
 * come from the catalogue) or free-form (title, merchant and skill area
 * given). The amount is always given: the item's price, a declined purchase's
 * amount, or what the employee names.
 */
const createRequestFields = {
  itemId: catalogueItemId.optional(),
  title: optionalText(120, 'Title must be at most 120 characters'),
  link: httpsLink,
  merchant: optionalText(80, 'Merchant must be at most 80 characters'),
  amount: moneyAmount('Amount'),
  why: requiredText('Please say why this helps your learning', 500, 'Must be at most 500 characters'),
  skillArea: z.enum(categories, { error: 'Please choose a skill area' }).optional(),
};

function freeFormNeedsItsFields(
  input: { itemId?: string; title?: string; merchant?: string; skillArea?: string },
  ctx: z.RefinementCtx,
) {
  if (input.itemId) return;
  if (!input.title) ctx.addIssue({ code: 'custom', path: ['title'], message: 'Title is required' });
  if (!input.merchant) ctx.addIssue({ code: 'custom', path: ['merchant'], message: 'Merchant is required' });
  if (!input.skillArea)
    ctx.addIssue({ code: 'custom', path: ['skillArea'], message: 'Please choose a skill area' });
}

export const createRequestInput = z.object(createRequestFields).superRefine(freeFormNeedsItsFields);

export const requestView = z.object({
  requestId: z.string(),
  userId: z.string(),
  /** The employee's name (for the manager's list). */
  name: z.string(),
  itemId: z.string().optional(),
  title: z.string(),
  link: z.string().optional(),
  merchant: z.string(),
  amountCents: z.number().int(),
  why: z.string(),
  skillArea: z.string(),
  state: z.enum(requestStates),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().optional(),
  approvedCents: z.number().int().optional(),
  /** Approved by the team's rule, not by a person. */
  automatic: z.boolean().optional(),
  declineReason: z.string().optional(),
  /** The team's card declined the last approval: the request is still pending. */
  cardDecline: z.string().optional(),
});
export type RequestView = z.infer<typeof requestView>;

export const requestOutput = z.object({ request: requestView });
export const requestsOutput = z.object({ requests: z.array(requestView) });

export const requestIdInput = z.object({ requestId: z.string().min(1).max(64) });

export const listTeamRequestsInput = z.object({
  state: z.enum(requestStates).optional(),
});

/** Approve one or several: each the amount asked, or a smaller one. */
export const approveRequestsInput = z.object({
  approvals: z
    .array(
      z.object({
        requestId: z.string().min(1).max(64),
        /** Absent: the amount asked. */
        amount: moneyAmount('Amount').optional(),
      }),
    )
    .min(1, { error: 'Please choose at least one request' })
    .max(50),
});

export const approvalResult = z.object({
  requestId: z.string(),
  status: z.enum(['approved', 'refused', 'cardDeclined']),
  message: z.string().optional(),
  request: requestView.optional(),
});
export const approveRequestsOutput = z.object({ results: z.array(approvalResult) });

export const declineRequestInput = z.object({
  requestId: z.string().min(1).max(64),
  reason: requiredText('Please give a reason', 300, 'Must be at most 300 characters'),
});

/** The team's rules for requests (manager). Null turns a rule off. */
export const requestRulesView = z.object({
  /** Approve automatically while a person's automatic approvals this month stay within this. */
  autoApproveMonthlyCents: z.number().int().nullable(),
  /** No request may ask for more than this. */
  maxRequestCents: z.number().int().nullable(),
});
export type RequestRules = z.infer<typeof requestRulesView>;

export const requestRulesInput = z.object({
  autoApproveMonthly: moneyAmount('Automatic approval limit').nullable(),
  maxRequest: moneyAmount('Largest request').nullable(),
});
export const requestRulesOutput = z.object({ rules: requestRulesView });

/**
 * The two routes (docs/decisions.md "Fund requests: two routes"): `GET /requests`
 * reads, `POST /requests` does one action, the action named in the body.
 */
export const requestsQuery = z.object({
  state: z.enum(requestStates).optional(),
  /** One request only (the e-mailed link): the caller's own, or one of the manager's team. */
  requestId: z.string().min(1).max(64).optional(),
});
export const requestsAnswer = z.object({
  requests: z.array(requestView),
  /** The team's rules, for the manager. */
  rules: requestRulesView.optional(),
});

export const requestAction = z.discriminatedUnion('action', [
  z.object({ action: z.literal('ask'), ...createRequestFields }).superRefine(freeFormNeedsItsFields),
  z.object({ action: z.literal('cancel'), requestId: z.string().min(1).max(64) }),
  z.object({ action: z.literal('approve'), approvals: approveRequestsInput.shape.approvals }),
  z.object({ action: z.literal('decline'), ...declineRequestInput.shape }),
  z.object({ action: z.literal('setRules'), ...requestRulesInput.shape }),
]);
export type RequestAction = z.output<typeof requestAction>;

export const requestActionAnswer = z.object({
  request: requestView.optional(),
  results: approveRequestsOutput.shape.results.optional(),
  rules: requestRulesView.optional(),
});
