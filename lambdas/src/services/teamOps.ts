/**
 * A manager's operations on the employees of their own team (spec §2 Employees
 * screen, §4 states): pause and unpause, freeze and activate, delete, reallocate
 * and redeem a removed employee's money, extra deposits. Each acts only on the
 * manager's team (others are reported `notFound`), is audited, and moves money
 * only through ledger postings.
 */

import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import {
  cardAccount,
  debtAccount,
  funding,
  holdAccount,
  InvalidPosting,
  planRedemptionRefunds,
  type RedemptionRefund,
  reallocationPart,
  reallocationShares,
  redemption,
  redemptionFee,
} from '../../../shared/src/domain/ledger';
import { AppError } from '../../../shared/src/errors';
import type { depositInput } from '../../../shared/src/schemas/billing';
import type { reallocateInput } from '../../../shared/src/schemas/team';
import { charge, createCardKey, refund, setCardStatus as setIssuerCardStatus } from '../adapters/stripe';
import { getTeam, listTeamUsers, setUserFields } from '../data/accounts';
import { type AuditEvent, listAudit, recordAudit } from '../data/audit';
import { getCard, getCards, recentAuthorizations, updateCard } from '../data/cards';
import { db, tableName } from '../data/client';
import { keys } from '../data/keys';
import { balanceOf, MAX_LEGS, post, statement, teamJournal } from '../data/ledger';
import {
  closePoolClaim,
  getPoolClaim,
  openPoolClaim,
  type PoolClaim,
  type PoolPlan,
} from '../data/poolClaims';
import { getUser, type UserRecord } from '../data/users';
import type { Actor } from '../platform/auth';
import { stripeConfig } from '../platform/config';
import type { Logger } from '../platform/log';
import { collectDebt, updateBackstop } from './funding';
import { pooledFrom, sweepToPool } from './pool';
import { deleteAccount } from './profiles';

type Result = { userId: string; status: string; message?: string };

async function teamEmployee(actor: Actor, userId: string): Promise<UserRecord | undefined> {
  const user = await getUser(userId);
  return user && user.teamId === actor.teamId && user.role === 'employee' ? user : undefined;
}

/**
 * All the named employees of the actor's team, or 404 for the whole request:
 * a bulk action naming anyone else's people does nothing at all.
 */
async function teamEmployees(actor: Actor, userIds: string[]): Promise<UserRecord[]> {
  const users = await Promise.all([...new Set(userIds)].map((id) => teamEmployee(actor, id)));
  if (users.some((u) => !u)) throw new AppError('NOT_FOUND', 'No such person on your team.');
  return users as UserRecord[];
}

async function audit(
  actor: Actor,
  action: string,
  now: Date,
  fields: Pick<AuditEvent, 'targetId' | 'before' | 'after'>,
) {
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action,
    at: now.toISOString(),
    ...fields,
  });
}

// --- Reading ------------------------------------------------------------------

async function balances(userIds: string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  for (let i = 0; i < userIds.length; i += 30) {
    const chunk = userIds
      .slice(i, i + 30)
      .flatMap((id) => [keys.account(cardAccount(id)), keys.account(holdAccount(id))]);
    if (chunk.length === 0) continue;
    const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: chunk } } }));
    for (const item of result.Responses?.[tableName()] ?? [])
      map.set(item.accountId, Number(item.balanceCents));
  }
  return map;
}

/** The Employees screen: members (with balances and card state) and pending invitations. */
export async function listEmployees(actor: Actor) {
  const members = (await listTeamUsers(actor.teamId)).filter((u) => u.role === 'employee');
  const money = await balances(members.map((m) => m.userId));
  const cards = await getCards(members.flatMap((m) => (m.cardId ? [m.cardId] : [])));
  const invitations = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `TEAM#${actor.teamId}`, ':prefix': 'INVITE#' },
    }),
  );
  const employees = members.map((m) => ({
    userId: m.userId,
    email: m.email,
    firstName: m.firstName,
    lastName: m.lastName,
    status: m.status,
    cardStatus: ((m.cardId && cards.get(m.cardId)?.status) || 'pending') as
      | 'active'
      | 'inactive'
      | 'canceled'
      | 'pending',
    budgetCents: m.budgetCents ?? 0,
    nextBudgetCents: m.nextBudgetCents ?? m.budgetCents ?? 0,
    remainingBudgetCents: money.get(cardAccount(m.userId)) ?? 0,
    onHoldCents: money.get(holdAccount(m.userId)) ?? 0,
  }));
  const invited = (invitations.Items ?? []).map((inv) => ({
    userId: `invite:${inv.email}`,
    email: inv.email as string,
    firstName: (inv.email as string).split('@')[0] ?? '',
    // Spec: invited people are listed with last name N/A.
    lastName: 'N/A',
    status: 'invited' as const,
    cardStatus: 'pending' as const,
    budgetCents: Number(inv.budgetCents),
    nextBudgetCents: Number(inv.budgetCents),
    remainingBudgetCents: 0,
    onHoldCents: 0,
  }));
  // Spec default sort: remaining budget, highest first.
  return {
    employees: [...employees, ...invited].sort((a, b) => b.remainingBudgetCents - a.remainingBudgetCents),
  };
}

/** The signed-in employee's own balance and card. */
export async function myBalance(actor: Actor) {
  const user = await getUser(actor.userId);
  const card = user?.cardId ? await getCard(user.cardId) : undefined;
  const [available, onHold, debt, decisions] = await Promise.all([
    balanceOf(cardAccount(actor.userId)),
    balanceOf(holdAccount(actor.userId)),
    balanceOf(debtAccount(actor.userId)),
    recentAuthorizations(actor.userId, 1),
  ]);
  const last = decisions[0];
  return {
    availableCents: available,
    onHoldCents: onHold,
    owedCents: -debt,
    cardStatus: (card?.status ?? 'pending') as 'active' | 'inactive' | 'canceled' | 'pending',
    last4: card?.last4 ?? null,
    lastDecline:
      last && !last.approved
        ? {
            amountCents: last.amountCents,
            merchant: last.merchant,
            reason: last.reason ?? 'Declined',
            at: last.decidedAt,
          }
        : null,
  };
}

export async function myStatement(actor: Actor) {
  const [card, hold] = await Promise.all([
    statement(cardAccount(actor.userId)),
    statement(holdAccount(actor.userId)),
  ]);
  // One list, newest first; each line keeps its own account's running balance.
  const lines = [...card, ...hold.map((l) => ({ ...l, description: `${l.description} (on hold)` }))];
  return { lines: lines.sort((a, b) => b.postedAt.localeCompare(a.postedAt)) };
}

// --- Pause, freeze ------------------------------------------------------------

export async function setPaused(actor: Actor, userIds: string[], action: 'pause' | 'unpause', now: Date) {
  const results: Result[] = [];
  for (const user of await teamEmployees(actor, userIds)) {
    const userId = user.userId;
    if (user.status === 'deleted') results.push({ userId, status: 'skipped', message: 'Deleted' });
    else {
      const status = action === 'pause' ? 'paused' : 'active';
      if (user.status !== status) {
        await setUserFields(userId, { status });
        await audit(actor, `employee.${action}d`, now, {
          targetId: userId,
          before: { status: user.status },
          after: { status },
        });
      }
      results.push({ userId, status });
    }
  }
  return { results };
}

/** Freeze (inactive) or activate a card: the issuer and our record always agree. */
export async function setCardStatus(
  actor: Actor,
  userIds: string[],
  status: 'active' | 'inactive',
  now: Date,
) {
  const results: Result[] = [];
  for (const user of await teamEmployees(actor, userIds)) {
    const userId = user.userId;
    const card = user.cardId ? await getCard(user.cardId) : undefined;
    if (user.status === 'deleted' || !card || card.status === 'canceled') {
      results.push({ userId, status: 'skipped', message: 'No active card' });
    } else {
      await setIssuerCardStatus(card.cardId, status);
      // A manager's activation lifts every freeze; a manager's freeze is theirs to lift.
      await updateCard(card.cardId, {
        status,
        freeze: status === 'inactive' ? { ...card.freeze, manager: true } : {},
      });
      await audit(actor, status === 'inactive' ? 'card.frozen' : 'card.activated', now, {
        targetId: userId,
        before: { status: card.status },
        after: { status },
      });
      results.push({ userId, status });
    }
  }
  return { results };
}

// --- Delete, pool, reallocate, redeem ------------------------------------------

async function deletedTeamEmployee(actor: Actor, userId: string) {
  const user = await teamEmployee(actor, userId);
  if (user?.status !== 'deleted') return undefined;
  await sweepToPool(user);
  return user;
}

/** Turns a rule of the ledger's pure functions into the error the manager sees. */
function asRule<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof InvalidPosting) throw new AppError('RULE_VIOLATED', error.message);
    throw error;
  }
}

const BUSY: Record<PoolPlan['op'], string> = {
  reallocate: 'This person’s remaining budget is being reallocated right now; please try again in a moment.',
  redeem: 'This person’s remaining budget is being redeemed right now; please try again in a moment.',
};

/**
 * The claim under which a removed employee's pooled money leaves the pool: the
 * open one, resumed with its plan (when it is for the same operation), or a new
 * one planned from the pool as it is now. Undefined when nothing of theirs is
 * left in the pool.
 */
async function claimPooledMoney(
  actor: Actor,
  deletedId: string,
  op: PoolPlan['op'],
  plan: (amountCents: number) => Promise<PoolPlan>,
  now: Date,
): Promise<PoolClaim | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getPoolClaim(deletedId);
    if (current?.status === 'open') {
      if (current.plan.op !== op) throw new AppError('CONFLICT', BUSY[current.plan.op]);
      return current;
    }
    const { cents, stateId } = await pooledFrom(actor.teamId, deletedId);
    if (cents <= 0 || !stateId) return undefined;
    const claim = {
      userId: deletedId,
      teamId: actor.teamId,
      stateId,
      amountCents: cents,
      plan: await plan(cents),
      openedAt: now.toISOString(),
    };
    if (await openPoolClaim(claim)) return { ...claim, status: 'open' };
    // Another request opened one between our read and write: look again.
  }
  throw new AppError('CONFLICT', BUSY[op]);
}

/** Receivers per reallocation posting: a posting's leg limit, less the pool's leg. */
const SHARES_PER_POSTING = MAX_LEGS - 1;

export async function reallocate(actor: Actor, input: z.output<typeof reallocateInput>, now: Date) {
  // One read of the team serves the receivers' check, "all employees" and the backstops.
  const team = new Map((await listTeamUsers(actor.teamId)).map((u) => [u.userId, u]));
  const receivers = input.allEmployees
    ? [...team.values()].filter((u) => u.role === 'employee' && u.status === 'active').map((u) => u.userId)
    : input.receiverIds;
  if (receivers.length === 0)
    throw new AppError(
      'VALIDATION_FAILED',
      'Please select at least one employee to receive the reallocation',
      { fields: { receiverIds: 'Please select at least one employee to receive the reallocation' } },
    );
  for (const id of receivers) {
    const user = team.get(id);
    if (user?.role !== 'employee' || user.status === 'deleted')
      throw new AppError('NOT_FOUND', 'A receiving employee is not an active member of your team.');
  }
  let total = 0;
  const shares = new Map<string, number>();
  for (const deletedId of input.deletedUserIds) {
    if (!(await deletedTeamEmployee(actor, deletedId)))
      throw new AppError('NOT_FOUND', 'Only removed employees of your team can be reallocated.');
    const claim = await claimPooledMoney(
      actor,
      deletedId,
      'reallocate',
      async (cents) => ({ op: 'reallocate', shares: asRule(() => reallocationShares(cents, receivers)) }),
      now,
    );
    if (claim?.plan.op !== 'reallocate') continue;
    // Resuming an interrupted claim posts its own plan, which may name other receivers than asked here.
    const planned = claim.plan.shares;
    for (let i = 0; i < planned.length; i += SHARES_PER_POSTING) {
      await post(
        reallocationPart({
          entryId: `REALLOCATE#${deletedId}#${claim.stateId}#${i / SHARES_PER_POSTING + 1}`,
          teamId: actor.teamId,
          shares: planned.slice(i, i + SHARES_PER_POSTING),
          fromUserId: deletedId,
        }),
        now.toISOString(),
      );
    }
    await closePoolClaim(deletedId, claim.stateId, now.toISOString());
    total += claim.amountCents;
    for (const share of planned)
      shares.set(share.userId, (shares.get(share.userId) ?? 0) + share.amountCents);
  }
  if (total === 0) throw new AppError('RULE_VIOLATED', 'There is no remaining budget to reallocate.');
  for (const id of shares.keys()) {
    const cardId = team.get(id)?.cardId;
    if (cardId) await updateBackstop(id, cardId);
  }
  await audit(actor, 'funds.reallocated', now, {
    after: { from: input.deletedUserIds, totalCents: total, shares: Object.fromEntries(shares) },
  });
  return {
    amountCents: total,
    shares: [...shares].map(([userId, amountCents]) => ({ userId, amountCents })),
  };
}

/** The team's charges (from funding entries), newest first, with what each can still take back. */
async function refundableCharges(teamId: string): Promise<{ chargeId: string; refundableCents: number }[]> {
  const journal = await teamJournal(teamId);
  const byCharge = new Map<string, number>();
  for (const entry of journal) {
    const chargeId = entry.references?.charge;
    if (!chargeId) continue;
    const credited = entry.legs
      .filter((l) => l.account.startsWith('card:'))
      .reduce((s, l) => s + l.amountCents, 0);
    byCharge.set(chargeId, (byCharge.get(chargeId) ?? 0) + credited);
  }
  for (const entry of journal) {
    for (const r of entry.refunds ?? []) {
      byCharge.set(r.chargeId, (byCharge.get(r.chargeId) ?? 0) - r.amountCents);
    }
  }
  return [...byCharge]
    .map(([chargeId, refundableCents]) => ({ chargeId, refundableCents }))
    .filter((c) => c.refundableCents > 0)
    .reverse();
}

/**
 * Checks every person before any money moves, so a request naming one person
 * under the minimum changes nothing. A person whose money this same redemption
 * already returned (a retry after a partial failure) is skipped, not refused.
 */
async function redeemable(actor: Actor, deletedUserIds: string[]): Promise<string[]> {
  const people: string[] = [];
  for (const deletedId of deletedUserIds) {
    if (!(await deletedTeamEmployee(actor, deletedId)))
      throw new AppError('NOT_FOUND', 'Only removed employees of your team can be redeemed.');
    const claim = await getPoolClaim(deletedId);
    if (claim?.status === 'open') {
      people.push(deletedId);
      continue;
    }
    const { cents } = await pooledFrom(actor.teamId, deletedId);
    if (cents === 0 && claim?.plan.op === 'redeem' && deletedUserIds.length > 1) continue;
    const fee = asRule(() => redemptionFee(cents));
    if (cents - fee <= 0)
      throw new AppError('RULE_VIOLATED', 'After the $5.00 minimum fee nothing would be returned.');
    people.push(deletedId);
  }
  if (people.length === 0)
    throw new AppError('RULE_VIOLATED', 'Refund is not available for balances under $5.');
  return people;
}

/**
 * Redeems removed employees' pooled money back to the manager's card, less the
 * fee (15 % or $5, whichever is greater; not under $5). The net is refunded to
 * the team's own charges, newest first, split over several when one cannot
 * take it all. The plan is kept in the pool claim and each refund is made once
 * per purpose, so a retry (under any Idempotency-Key) finishes the same
 * redemption rather than starting another.
 */
export async function redeem(actor: Actor, deletedUserIds: string[], now: Date) {
  const people = await redeemable(actor, [...new Set(deletedUserIds)]);
  let total = 0;
  let fees = 0;
  for (const deletedId of people) {
    const claim = await claimPooledMoney(
      actor,
      deletedId,
      'redeem',
      async (cents) => {
        const feeCents = asRule(() => redemptionFee(cents));
        if (cents - feeCents <= 0)
          throw new AppError('RULE_VIOLATED', 'After the $5.00 minimum fee nothing would be returned.');
        const charges = await refundableCharges(actor.teamId);
        return {
          op: 'redeem',
          feeCents,
          refunds: asRule(() => planRedemptionRefunds(cents - feeCents, charges)),
        };
      },
      now,
    );
    // Nothing of theirs is left in the pool: the same words as for a small balance.
    if (claim?.plan.op !== 'redeem')
      throw new AppError('RULE_VIOLATED', 'Refund is not available for balances under $5.');
    const entryId = `REDEEM#${deletedId}#${claim.stateId}`;
    const refunds: RedemptionRefund[] = [];
    for (const part of claim.plan.refunds) {
      const refundId = await refund({
        chargeId: part.chargeId,
        amountCents: part.amountCents,
        purpose: `${entryId}#${part.chargeId}`,
        metadata: { teamId: actor.teamId, userId: deletedId },
      });
      refunds.push({ ...part, refundId });
    }
    await post(
      redemption({
        entryId,
        teamId: actor.teamId,
        amountCents: claim.amountCents,
        refunds,
        fromUserId: deletedId,
      }),
      now.toISOString(),
    );
    await closePoolClaim(deletedId, claim.stateId, now.toISOString());
    total += claim.amountCents;
    fees += claim.plan.feeCents;
  }
  await audit(actor, 'funds.redeemed', now, {
    after: { from: deletedUserIds, totalCents: total, feeCents: fees },
  });
  return { amountCents: total, feeCents: fees };
}

// --- Extra deposits -----------------------------------------------------------

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

/** Removes employees of the team: all or none (naming anyone else's people changes nothing). */
export async function deleteEmployees(actor: Actor, userIds: string[], now: Date) {
  const results: Result[] = [];
  for (const user of await teamEmployees(actor, userIds)) {
    results.push({ userId: user.userId, status: (await deleteAccount(actor, user.userId, now)).status });
  }
  return { results };
}

/**
 * An ephemeral key for the employee's own card, so the browser shows number and
 * CVC in the issuer's frame: they never pass through our servers, database or logs.
 */
export async function cardKey(actor: Actor, nonce: string | undefined) {
  const user = await getUser(actor.userId);
  const card = user?.cardId ? await getCard(user.cardId) : undefined;
  if (!card || card.userId !== actor.userId) throw new AppError('NOT_FOUND', 'You have no card yet.');
  const key = await createCardKey(card.cardId, nonce);
  const local = stripeConfig().STRIPE_API_URL;
  return {
    cardId: card.cardId,
    ephemeralKeySecret: key.secret,
    expires: key.expires,
    // Locally the emulator serves the card frame; in AWS the page uses Stripe Issuing Elements.
    ...(local
      ? {
          frameUrl: `${local.replace(/\/$/, '')}/issuing-elements/card?card=${card.cardId}&ephemeral_key=${key.secret}`,
        }
      : {}),
  };
}

/** The team's audit log: every manager action and every money movement (from the journal), newest first. */
export async function teamAudit(actor: Actor) {
  const [actions, journal] = await Promise.all([listAudit(actor.teamId, 500), teamJournal(actor.teamId)]);
  const movements = journal.map((entry) => ({
    eventId: entry.entryId,
    // Money moves for the system (cycles, the card network) or for a manager's request,
    // whose own action is logged beside it.
    actorId: 'system',
    action: `money.${entry.kind}`,
    after: { description: entry.description, legs: entry.legs, ...(entry.references ?? {}) },
    at: entry.postedAt,
  }));
  return { events: [...actions, ...movements].sort((a, b) => b.at.localeCompare(a.at)) };
}
