/**
 * Extra deposits (spec §2): a one-time top-up of chosen employees' cards,
 * charged to the team's card and credited per employee under the request's
 * Idempotency-Key, so a retried request charges and credits each person once.
 * New money first pays any debt, then raises the card's backstop.
 */
import type { z } from 'zod';
import { funding } from '../../../shared/src/domain/ledger';
import { AppError } from '../../../shared/src/errors';
import type { depositInput } from '../../../shared/src/schemas/billing';
import { charge } from '../adapters/stripe';
import { getTeam } from '../data/accounts';
import { post } from '../data/ledger';
import type { Actor } from '../platform/auth';
import type { Logger } from '../platform/log';
import { updateBackstop } from './cardBackstop';
import { collectDebt } from './debtCollection';
import { teamMayCharge } from './subscription';
import { audit, teamEmployee } from './teamScope';

/** One-time top-ups, charged at once and credited when the charge succeeds. */
export async function deposit(
  actor: Actor,
  input: z.output<typeof depositInput>,
  key: string,
  now: Date,
  log: Logger,
) {
  const team = await getTeam(actor.teamId);
  if (!team?.stripeCustomerId) throw new AppError('CONFLICT', 'Finish setting up your account first.');
  if (!teamMayCharge(team))
    throw new AppError('CONFLICT', 'Your subscription is suspended: resume it to add funds.');
  if (input.amount <= 0)
    throw new AppError('VALIDATION_FAILED', 'Amount must be more than $0', {
      fields: { amount: 'Amount must be more than $0' },
    });
  const results: { userId: string; status: 'credited' | 'declined' | 'skipped'; message?: string }[] = [];
  for (const userId of [...new Set(input.userIds)]) {
    const user = await teamEmployee(actor, userId);
    if (!user || user.status === 'deleted' || !user.cardId) {
      results.push({ userId, status: 'skipped', message: 'Not an active employee with a card' });
      continue;
    }
    const result = await charge(
      {
        customerId: team.stripeCustomerId,
        amountCents: input.amount,
        description: `Extra deposit for ${user.firstName} ${user.lastName}`,
        purpose: `DEPOSIT#${key}#${userId}`,
        metadata: { teamId: team.teamId, userId, reason: 'deposit' },
      },
      `DEPOSIT#${key}#${userId}`,
    );
    if (result.status === 'declined') {
      log.warn('deposit declined', { userId, code: result.code });
      results.push({ userId, status: 'declined', message: result.message });
      continue;
    }
    await post(
      funding({
        entryId: `DEPOSIT#${key}#${userId}`,
        kind: 'deposit',
        teamId: team.teamId,
        userId,
        amountCents: input.amount,
        description: 'Extra deposit',
        chargeId: result.chargeId,
      }),
      now.toISOString(),
    );
    await collectDebt(userId, team.teamId);
    await updateBackstop(userId, user.cardId);
    results.push({ userId, status: 'credited' });
  }
  await audit(actor, 'funds.deposited', now, { after: { amountCents: input.amount, results } });
  return { results };
}
