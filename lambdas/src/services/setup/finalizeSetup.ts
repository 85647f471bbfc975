/**
 * The setup wizard's last step: the team's Stripe customer with its first
 * card, the billing address, the cycle anchored on today, then the
 * invitations (if any), then funding for anyone who joined before billing
 * worked. Each step is decided once per Idempotency-Key, so a retry after a
 * run that died finishes that run's setup (which had made the team "already
 * set up") and answers as it would have.
 */

import { AppError } from '@shared/errors';
import type { finalizeSetupInput } from '@shared/schemas/billing';
import type { z } from 'zod';
import { createCustomer } from '../../adapters/stripe';
import { setTeamFields, teamCycleIndex } from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import { getUser } from '../../data/users';
import type { Actor } from '../../platform/auth';
import type { Logger } from '../../platform/log';
import type { RequestSteps } from '../../platform/requestSteps';
import { declined, fundPendingMembers, pendingMembers, teamOf } from '../billing';
import { invitationCommitment, inviteEmployees } from '../employees';
import { checkCommitment } from '../money';

/**
 * Finish setup: the team's customer with its first card, the billing address,
 * the cycle anchored on today, then the invitations (if any), then funding for
 * anyone who joined before billing worked.
 */
export async function finalizeSetup(
  actor: Actor,
  input: z.output<typeof finalizeSetupInput>,
  now: Date,
  log: Logger,
  steps: RequestSteps,
) {
  const team = await teamOf(actor);
  const customerId = await steps.once('customer', async () => {
    if (team.stripeCustomerId)
      throw new AppError('CONFLICT', 'Your team is already set up. Add cards on the Credit Card page.');
    // The invitations commit the card to their budgets (step-up, daily limit): refused here, before
    // the customer exists, not after it, where a retry would find the team already set up.
    if (input.invite)
      await checkCommitment(
        actor,
        team,
        await invitationCommitment(actor, input.invite.emails, input.invite.budget),
        now,
      );
    try {
      return await createCustomer(
        { teamId: team.teamId, email: actor.email, name: input.businessName, token: input.token },
        // The token is part of the key: Stripe replays a key's first answer (a decline
        // included) for 24 hours, so a retry with a new card must be a new request,
        // while a retry of the same token (a lost answer) still creates one customer.
        `SETUP#${team.teamId}#${input.token}`,
      );
    } catch (error) {
      declined(error);
    }
  });
  // This request's retry may find the team set up with its customer already: written once.
  const cycleDay = team.stripeCustomerId === customerId ? Number(team.cycleDay) : now.getUTCDate();
  if (team.stripeCustomerId !== customerId)
    await setTeamFields(team.teamId, {
      stripeCustomerId: customerId,
      businessName: input.businessName,
      billingAddress: input.billingAddress,
      cycleDay,
      setupMonth: now.toISOString().slice(0, 7),
      status: 'active',
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
      // The cycle index lets the daily job find the teams renewing on a given day.
      ...teamCycleIndex(cycleDay, team.teamId),
    });
  await steps.once('audited', async () => {
    const manager = await getUser(actor.userId);
    await recordAudit({
      teamId: team.teamId,
      actorId: actor.userId,
      action: 'billing.setup',
      after: {
        businessName: input.businessName,
        cycleDay,
        manager: manager?.email,
        timeZone: input.timeZone,
      },
      at: now.toISOString(),
    });
    return true;
  });
  const invited = await steps.once('invited', async () =>
    input.invite
      ? (await inviteEmployees(actor, input.invite, now)).results.filter(
          (r) => r.result === 'invited' || r.result === 'reinvited',
        ).length
      : 0,
  );
  // Who waited for billing, decided before funding them: a retry after they were funded
  // counts them as the first run did.
  const waiting = await steps.once('waiting', () => pendingMembers(team.teamId));
  await fundPendingMembers(team.teamId, now, log);
  const stillWaiting = new Set(await pendingMembers(team.teamId));
  const funded = waiting.filter((userId) => !stillWaiting.has(userId)).length;
  return { teamId: team.teamId, status: 'active' as const, invited, funded };
}
