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
});
export const inviteEmployeesOutput = z.object({ results: z.array(inviteResultSchema) });

export function isInvitableEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email) && email.length <= 254;
}
