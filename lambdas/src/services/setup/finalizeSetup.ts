/**
 * The setup wizard's last step: the team's Stripe customer with its first
 * card, the billing address, the cycle anchored on today, then the
 * invitations (if any), then funding for anyone who joined before billing
 * worked.
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
import { declined, fundPendingMembers, teamOf } from '../billing';
import { inviteEmployees } from '../employees';

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
) {
  const team = await teamOf(actor);
  if (team.stripeCustomerId)
    throw new AppError('CONFLICT', 'Your team is already set up. Add cards on the Credit Card page.');
  const manager = await getUser(actor.userId);
  let customerId: string;
  try {
    customerId = await createCustomer(
      { teamId: team.teamId, email: actor.email, name: input.businessName, token: input.token },
      // The token is part of the key: Stripe replays a key's first answer (a decline
      // included) for 24 hours, so a retry with a new card must be a new request,
      // while a retry of the same token (a lost answer) still creates one customer.
      `SETUP#${team.teamId}#${input.token}`,
    );
  } catch (error) {
    declined(error);
  }
  const cycleDay = now.getUTCDate();
  await setTeamFields(team.teamId, {
    stripeCustomerId: customerId,
    businessName: input.businessName,
    billingAddress: input.billingAddress,
    cycleDay,
    setupMonth: now.toISOString().slice(0, 7),
    status: 'active',
    // The cycle index lets the daily job find the teams renewing on a given day.
    ...teamCycleIndex(cycleDay, team.teamId),
  });
  await recordAudit({
    teamId: team.teamId,
    actorId: actor.userId,
    action: 'billing.setup',
    after: { businessName: input.businessName, cycleDay, manager: manager?.email },
    at: now.toISOString(),
  });
  const invited = input.invite
    ? (await inviteEmployees(actor, input.invite, now)).results.filter(
        (r) => r.result === 'invited' || r.result === 'reinvited',
      ).length
    : 0;
  const { funded } = await fundPendingMembers(team.teamId, now, log);
  return { teamId: team.teamId, status: 'active' as const, invited, funded };
}
