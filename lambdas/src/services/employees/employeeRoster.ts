/**
 * The manager's Employees screen (spec §2): every employee of the team with
 * their remaining budget, money on hold and card state, and the pending
 * invitations beside them. Balances are read in batches from the ledger's
 * account items, so the list costs a few reads however large the team.
 */

import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { dormancyViewOf } from '@shared/domain/dormancy';
import { cardAccount, holdAccount, poolAccount } from '@shared/domain/ledger';
import { getTeamZone, listTeamInvitations, listTeamUsers } from '../../data/accounts';
import { type CardRecord, getCards } from '../../data/cards';
import { db, tableName } from '../../data/client';
import { keys } from '../../data/keys';
import { statement } from '../../data/ledger';
import type { Actor } from '../../platform/auth';
import { receiptCounts } from '../receipts';
import { scheduledStartsOf } from './roster';

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

/**
 * What of the team pool came from each removed employee and is still there
 * (pool lines carry the person they came from). One read of the pool's
 * statement, and only when the team has removed people.
 */
async function pooledByPerson(teamId: string): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  for (const line of await statement(poolAccount(teamId))) {
    const from = line.references?.user;
    if (from) map.set(from, (map.get(from) ?? 0) + line.amountCents);
  }
  return map;
}

const FREEZE_REASONS = ['manager', 'missingReceipt', 'dormant'] as const;

/** The reasons an inactive card is frozen for, in a fixed order. */
function freezeReasonsOf(card: CardRecord | undefined): (typeof FREEZE_REASONS)[number][] {
  if (card?.status !== 'inactive') return [];
  return FREEZE_REASONS.filter((reason) => card.freeze?.[reason]);
}

/** The Employees screen: members (with balances and card state) and pending invitations. */
export async function listEmployees(actor: Actor, now: Date) {
  const members = (await listTeamUsers(actor.teamId)).filter((u) => u.role === 'employee');
  const money = await balances(members.map((m) => m.userId));
  const cards = await getCards(members.flatMap((m) => (m.cardId ? [m.cardId] : [])));
  const pooled = members.some((m) => m.status === 'deleted')
    ? await pooledByPerson(actor.teamId)
    : new Map<string, number>();
  const receipts = await receiptCounts(actor.teamId, now);
  const zone = await getTeamZone(actor.teamId);
  const invitations = await listTeamInvitations(actor.teamId);
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
    cardId: m.cardId ?? null,
    budgetCents: m.budgetCents ?? 0,
    nextBudgetCents: m.nextBudgetCents ?? m.budgetCents ?? 0,
    // A removed employee's money waits in the pool (what the card still held is swept there on the next move).
    remainingBudgetCents:
      Math.max(0, money.get(cardAccount(m.userId)) ?? 0) +
      (m.status === 'deleted' ? (pooled.get(m.userId) ?? 0) : 0),
    onHoldCents: money.get(holdAccount(m.userId)) ?? 0,
    receiptsOutstanding: receipts.get(m.userId)?.outstanding ?? 0,
    freezeReasons: freezeReasonsOf(m.cardId ? cards.get(m.cardId) : undefined),
    receiptsOverdue: receipts.get(m.userId)?.overdue ?? 0,
    dormancy: dormancyViewOf(m.quietSince, m.dormancy, zone),
    lastDay: m.lastDay ?? null,
  }));
  const invited = invitations.map((inv) => ({
    userId: `invite:${inv.email}`,
    email: inv.email,
    firstName: inv.email.split('@')[0] ?? '',
    // Spec: invited people are listed with last name N/A.
    lastName: 'N/A',
    status: 'invited' as const,
    cardStatus: 'pending' as const,
    cardId: null,
    budgetCents: Number(inv.budgetCents),
    nextBudgetCents: Number(inv.budgetCents),
    remainingBudgetCents: 0,
    onHoldCents: 0,
    receiptsOutstanding: 0,
    freezeReasons: [],
    receiptsOverdue: 0,
    dormancy: { stage: 'active' as const, inactiveFrom: null },
  }));
  // Spec default sort: remaining budget, highest first.
  return {
    employees: [...employees, ...invited].sort((a, b) => b.remainingBudgetCents - a.remainingBudgetCents),
    scheduled: await scheduledStartsOf(actor.teamId),
  };
}
