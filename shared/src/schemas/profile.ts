/** /editProfile (spec §2): names, job role, and - for a manager editing an employee - next cycle's budget. */
import { z } from 'zod';
import { requiredText } from './common';

export const JOB_ROLES = ['Animation', 'Engineering', 'Construction'] as const;
export const jobRoleSchema = z.enum(JOB_ROLES);

/**
 * Whole dollars (decisions.md): a number, or text with an optional leading
 * `$`. Becomes cents. Zero is allowed (an employee can be given nothing new);
 * the upper bound keeps typos from charging a card $1,000,000. `label` names
 * the field in the messages ("Budget", "Amount"), as people see it.
 */
export const MAX_BUDGET_DOLLARS = 10_000;
/** "$10,000": the bound as people write money. */
const MAX_TEXT = `$${MAX_BUDGET_DOLLARS.toLocaleString('en-US')}`;

export function wholeDollars(label: string) {
  return z.union([z.number(), z.string()], { error: `${label} is required` }).transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim().replace(/^\$\s*/, '');
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: `${label} is required` });
      return z.NEVER;
    }
    if (!/^\d+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a whole number of dollars` });
      return z.NEVER;
    }
    const dollars = Number(text);
    if (dollars > MAX_BUDGET_DOLLARS) {
      ctx.addIssue({ code: 'custom', message: `${label} must be at most ${MAX_TEXT}` });
      return z.NEVER;
    }
    return dollars * 100;
  });
}

/** A monthly budget, in whole dollars. */
export const budgetDollars = wholeDollars('Budget');
/** A one-time amount (an extra deposit), in whole dollars. */
export const amountDollars = wholeDollars('Amount');

export const updateProfileInput = z.object({
  userId: z.string().min(1).max(64),
  firstName: requiredText('First name is required', 50),
  lastName: requiredText('Last name is required', 50),
  /** null or '' clears it ("None"). */
  jobRole: z.preprocess((v) => (v === '' || v === 'None' ? null : v), jobRoleSchema.nullable().optional()),
  /** Only a manager editing an employee of their team may send this. Whole dollars. */
  budget: budgetDollars.optional(),
  /** Your own monthly e-mail: "Monthly nudges" (employee) or "Monthly digest" (manager); issue 26. */
  monthlyEmails: z.boolean().optional(),
});

export const profileOutput = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(['manager', 'employee']),
  status: z.enum(['invited', 'active', 'paused', 'deleted']),
  jobRole: jobRoleSchema.nullable().optional(),
  /** Present when the caller may see budgets (a manager looking at their employee, or the employee). */
  budgetCents: z.number().int().optional(),
  nextBudgetCents: z.number().int().optional(),
  /** A manager looking at their employee: the last day set (`yyyy-mm-dd`), or null (issue 28). */
  lastDay: z.string().nullable().optional(),
  /** Your own profile only: whether your monthly e-mail (nudges or digest) is on. */
  monthlyEmails: z.boolean().optional(),
});

export const userIdInput = z.object({ userId: z.string().min(1).max(64) });

/** Before saving an employee's next-cycle budget: the budget /editProfile would send. */
export const budgetPreviewInput = z.object({ userId: z.string().min(1).max(64), budget: budgetDollars });
