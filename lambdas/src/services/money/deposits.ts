/**
 * Extra deposits (spec §2): a one-time top-up of chosen employees' cards,
 * charged to the team's card and credited per employee under the request's
 * Idempotency-Key, so a retried request charges and credits each person once.
 * New money first pays any debt, then raises the card's backstop. The team's
 * daily deposit limit is reserved before any charge (services/money/velocityLimits.ts).
 * Who is charged is decided once per key (a request step): a retry after a run
 * that died charges the same people, and answers as that run would have.
 */

import { funding } from '@shared/domain/ledger';
import { teamMayCharge } from '@shared/domain/subscription';
import { AppError } from '@shared/errors';
import type { depositInput } from '@shared/schemas/billing';
import type { z } from 'zod';
import { charge } from '../../adapters/stripe';
import { getTeam } from '../../data/accounts';
import { post } from '../../data/ledger';
import type { Actor } from '../../platform/auth';
import type { Logger } from '../../platform/log';
import type { RequestSteps } from '../../platform/requestSteps';
import { updateBackstop } from '../cards';
import { issueInvoice } from '../invoices';
import { audit, teamEmployee } from '../team';
import { collectDebt } from './debtCollection';
import { checkWithinLimit, reserveWithinLimit, settleWithinLimit } from './velocityLimits';

type Eligible = { userId: string; firstName: string; lastName: string; cardId: string };

const POSITIVE = 'Amount must be more than $0';

/**
 * The team (with billing) and who of `userIds` can receive a deposit: active
 * or paused employees of the manager's team with a card. Checked before any
 * money moves, by the preview and the deposit alike.
 */
async function depositPlan(actor: Actor, input: z.output<typeof depositInput>) {
  const team = await getTeam(actor.teamId);
  if (!team?.stripeCustomerId) throw new AppError('CONFLICT', 'Finish setting up your account first.');
  if (!teamMayCharge(team))
    throw new AppError('CONFLICT', 'Your subscription is suspended: resume it to add funds.');
  if (input.amount <= 0) throw new AppError('VALIDATION_FAILED', POSITIVE, { fields: { amount: POSITIVE } });
  const eligible: Eligible[] = [];
  const skipped: string[] = [];
  for (const userId of [...new Set(input.userIds)]) {
    const user = await teamEmployee(actor, userId);
    if (!user || user.status === 'deleted' || !user.cardId) skipped.push(userId);
    else eligible.push({ userId, firstName: user.firstName, lastName: user.lastName, cardId: user.cardId });
  }
  return { team, customerId: team.stripeCustomerId, eligible, skipped };
}

const SKIPPED = 'Not an active employee with a card';

/**
 * What a deposit would charge, without charging: the amount per person, the
 * total charged to the team's card, who would be skipped, and today's room
 * under the team's daily deposit limit (refused as the deposit would be).
 */
export async function previewDeposit(actor: Actor, input: z.output<typeof depositInput>, now: Date) {
  const { team, eligible, skipped } = await depositPlan(actor, input);
  const totalCents = input.amount * eligible.length;
  const room = await checkWithinLimit(team, 'deposit', totalCents, now);
  return {
    amountCents: input.amount,
    totalCents,
    people: [
      ...eligible.map((p) => ({ userId: p.userId, status: 'charged' as const })),
      ...skipped.map((userId) => ({ userId, status: 'skipped' as const, message: SKIPPED })),
    ],
    dailyLimitCents: room.limitCents,
    remainingTodayCents: room.remainingCents,
  };
}

/**
 * One-time top-ups, charged at once and credited when the charge succeeds. The
 * total is counted against the team's daily deposit limit before any charge
 * (refused with the limit named, nothing charged); declined charges are given
 * back to the day. A request that fails midway keeps its reservation, so its
 * retry (same Idempotency-Key) is not counted twice. The plan (who, and the
 * reservation) is the request's step `deposit`: a retry after the first run
 * died is not checked again against what that run changed (a person removed
 * since, another day's limit) but finishes its plan, each charge and credit
 * keyed by the key and person, so it moves nothing twice.
 */
export async function deposit(
  actor: Actor,
  input: z.output<typeof depositInput>,
  key: string,
  now: Date,
  log: Logger,
  steps: RequestSteps,
  /** A fund request's title (issue 27): named on the team's card charge, the employee's statement and the payments history. */
  label?: string,
) {
  const { customerId, eligible, skipped, reservationId } = await steps.once('deposit', async () => {
    const plan = await depositPlan(actor, input);
    const reserved =
      plan.eligible.length > 0
        ? await reserveWithinLimit(
            plan.team,
            'deposit',
            `DEPOSIT#${key}`,
            input.amount * plan.eligible.length,
            now,
          )
        : undefined;
    return {
      customerId: plan.customerId,
      eligible: plan.eligible,
      skipped: plan.skipped,
      reservationId: reserved,
    };
  });
  const teamId = actor.teamId;
  const results: { userId: string; status: 'credited' | 'declined' | 'skipped'; message?: string }[] =
    skipped.map((userId) => ({ userId, status: 'skipped', message: SKIPPED }));
  for (const user of eligible) {
    const { userId } = user;
    const result = await charge(
      {
        customerId,
        amountCents: input.amount,
        description: label
          ? `Extra deposit for ${user.firstName} ${user.lastName}: ${label}`
          : `Extra deposit for ${user.firstName} ${user.lastName}`,
        purpose: `DEPOSIT#${key}#${userId}`,
        metadata: { teamId, userId, reason: 'deposit' },
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
        teamId,
        userId,
        amountCents: input.amount,
        description: label ? `Extra deposit: ${label}` : 'Extra deposit',
        chargeId: result.chargeId,
        card: result.card,
        ...(label ? { request: label } : {}),
      }),
      now.toISOString(),
    );
    await collectDebt(userId, teamId);
    await updateBackstop(userId, user.cardId);
    results.push({ userId, status: 'credited' });
  }
  const credited = results.filter((r) => r.status === 'credited').length;
  // One invoice for the request: a line per person credited (each their own Stripe charge).
  // A retry of the request finishes its charges first, then finds the same invoice.
  await issueInvoice(
    teamId,
    `DEPOSIT#${key}`,
    results.filter((r) => r.status === 'credited').map((r) => `DEPOSIT#${key}#${r.userId}`),
    now,
  );
  if (reservationId) await settleWithinLimit({ teamId }, 'deposit', reservationId, input.amount * credited);
  // Results in the order asked, as before.
  const order = [...new Set(input.userIds)];
  results.sort((a, b) => order.indexOf(a.userId) - order.indexOf(b.userId));
  // Once per request: a retry finishing it does not log the deposit again.
  await steps.once('audited', async () => {
    await audit(actor, 'funds.deposited', now, {
      // A deposit for one person names them as the row's "To whom", as the ledger's row beside it does.
      ...(results.length === 1 ? { targetId: results[0]?.userId } : {}),
      after: { amountCents: input.amount, results },
    });
    return true;
  });
  return { results };
}
