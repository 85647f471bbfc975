/** Manager invitations (spec §5 "Invite"): comma-separated e-mails, whole-dollar budget, default 25. */
import { z } from 'zod';
import { EMAIL_PATTERN } from './fields';
import { budgetDollars } from './profile';

export const DEFAULT_BUDGET_DOLLARS = 25;
export const MAX_INVITES_PER_REQUEST = 100;

/** Splits the spec's comma list; blank entries are skipped, case and spaces ignored, duplicates dropped. */
export function splitEmailList(list: string): string[] {
  const seen = new Set<string>();
  for (const part of list.split(',')) {
    const email = part.trim().toLowerCase();
    if (email !== '') seen.add(email);
  }
  return [...seen];
}

export const inviteEmployeesInput = z.object({
  emails: z
    .union([z.string(), z.array(z.string())], { error: 'Emails are required' })
    .transform((value) => splitEmailList(Array.isArray(value) ? value.join(',') : value))
    .refine((list) => list.length > 0, { error: 'Emails are required' })
    .refine((list) => list.length <= MAX_INVITES_PER_REQUEST, {
      error: `At most ${MAX_INVITES_PER_REQUEST} emails at a time`,
    }),
  budget: budgetDollars.default(DEFAULT_BUDGET_DOLLARS * 100),
});

export const inviteResultSchema = z.object({
  email: z.string(),
  result: z.enum(['invited', 'reinvited', 'alreadyRegistered', 'invitedByAnotherTeam', 'invalidEmail']),
  /** `invited`, `reinvited`: the monthly budget the invitation now offers. */
  budgetCents: z.number().int().optional(),
  /** `reinvited`: the budget the earlier invitation offered, which this one replaced (the request's budget). */
  previousBudgetCents: z.number().int().optional(),
  /**
   * `invited`, `reinvited`: false when the address already had its daily
   * invitation e-mails (EMAIL_CAPS.invitation): the invitation stands, but no
   * e-mail went, and the manager is told rather than led to believe one did.
   */
  emailed: z.boolean().optional(),
});
export const inviteEmployeesOutput = z.object({ results: z.array(inviteResultSchema) });

/** How an address that cannot be invited is named, on the invite page's results and the roster import's rows. */
export const INVALID_EMAIL_MESSAGE = 'Not a valid email address';

export function isInvitableEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email) && email.length <= 254;
}

/** The Employees screen lists an invitation as a row whose id is this prefix and the address. */
export const INVITATION_ROW_PREFIX = 'invite:';

export function invitationRowId(email: string): string {
  return `${INVITATION_ROW_PREFIX}${email}`;
}

/**
 * Withdrawing pending invitations: by address (comma list or array, as when
 * inviting) or by the Employees screen's row ids (`invite:<email>`), or both;
 * one list of distinct addresses, at most MAX_INVITES_PER_REQUEST.
 */
export const withdrawInvitationsInput = z
  .object({
    emails: z.union([z.string(), z.array(z.string().max(320)).max(MAX_INVITES_PER_REQUEST)]).optional(),
    userIds: z
      .array(
        z.string().max(330).startsWith(INVITATION_ROW_PREFIX, { error: 'Only invitations can be withdrawn' }),
      )
      .max(MAX_INVITES_PER_REQUEST)
      .optional(),
  })
  .transform(({ emails, userIds }) => {
    const fromIds = (userIds ?? []).map((id) => id.slice(INVITATION_ROW_PREFIX.length));
    const listed = emails === undefined ? [] : Array.isArray(emails) ? emails : [emails];
    return { emails: splitEmailList([...listed, ...fromIds].join(',')) };
  })
  .refine(({ emails }) => emails.length > 0, {
    error: 'Please select at least one invitation',
    path: ['emails'],
  })
  .refine(({ emails }) => emails.length <= MAX_INVITES_PER_REQUEST, {
    error: `At most ${MAX_INVITES_PER_REQUEST} invitations at a time`,
    path: ['emails'],
  });

export const withdrawResultSchema = z.object({
  email: z.string(),
  /**
   * withdrawn: this team's pending invitation is gone and its link refused;
   * alreadyJoined: the person signed up with it (a member now; nothing changed);
   * notInvited: no pending invitation of this team (never sent, withdrawn
   * before, or another team's: not said which).
   */
  result: z.enum(['withdrawn', 'alreadyJoined', 'notInvited', 'invalidEmail']),
});
export const withdrawInvitationsOutput = z.object({ results: z.array(withdrawResultSchema) });
