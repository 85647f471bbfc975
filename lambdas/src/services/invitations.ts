/**
 * A manager invites people by e-mail (spec §5 "Invite"). Each address gets its
 * own result; registered people are not invited again; inviting again refreshes
 * the invitation (new budget) and resends the e-mail; a pending invitation of
 * another team is left alone until it is stale. Invited people cost nothing
 * until they join (decisions.md).
 */
import type { z } from 'zod';
import { AppError } from '../../../shared/src/errors';
import { type inviteEmployeesInput, isInvitableEmail } from '../../../shared/src/schemas/invitations';
import { getEmailOwner, getTeam, putInvitation } from '../data/accounts';
import { recordAudit } from '../data/audit';
import { getUser } from '../data/users';
import type { Actor } from '../platform/auth';
import { sendInvitationEmail } from './accountEmails';
import { mayEmail } from './emailCaps';

type Result = 'invited' | 'reinvited' | 'alreadyRegistered' | 'invitedByAnotherTeam' | 'invalidEmail';

export async function inviteEmployees(actor: Actor, input: z.output<typeof inviteEmployeesInput>, now: Date) {
  const [team, manager] = await Promise.all([getTeam(actor.teamId), getUser(actor.userId)]);
  if (!team || !manager) throw new AppError('NOT_FOUND', 'Your team could not be found.');
  const results: { email: string; result: Result }[] = [];
  for (const email of input.emails) {
    if (!isInvitableEmail(email)) {
      results.push({ email, result: 'invalidEmail' });
      continue;
    }
    if (await getEmailOwner(email)) {
      results.push({ email, result: 'alreadyRegistered' });
      continue;
    }
    const outcome = await putInvitation(
      {
        email,
        teamId: actor.teamId,
        managerId: actor.userId,
        budgetCents: input.budget,
        invitedAt: now.toISOString(),
      },
      now,
    );
    if (outcome === 'heldByAnotherTeam') {
      results.push({ email, result: 'invitedByAnotherTeam' });
      continue;
    }
    // The invitation is stored either way; the e-mail only within its daily cap per address.
    if (await mayEmail('invitation', email, now))
      await sendInvitationEmail(email, `${manager.firstName} ${manager.lastName}`, team.name, input.budget);
    results.push({ email, result: outcome === 'created' ? 'invited' : 'reinvited' });
  }
  const invited = results
    .filter((r) => r.result === 'invited' || r.result === 'reinvited')
    .map((r) => r.email);
  if (invited.length > 0) {
    await recordAudit({
      teamId: actor.teamId,
      actorId: actor.userId,
      action: 'employees.invited',
      after: { emails: invited, budgetCents: input.budget },
      at: now.toISOString(),
    });
  }
  return { results };
}
