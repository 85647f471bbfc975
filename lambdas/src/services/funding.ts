/**
 * Managers' money becomes employees' card balances. Every charge has an
 * idempotency key derived from what it pays for, every credit is a ledger
 * posting keyed the same way, so a retried flow or a job fired twice charges
 * and funds once. Stripe is called before the ledger transaction, never inside.
 *
 *   join      JOIN#<userId>                      charged when the person becomes active
 *   monthly   CYCLE#<teamId>#<yyyy-mm>           one charge per team and cycle
 *             FUNDING#<teamId>#<userId>#<yyyy-mm> one credit per employee and cycle
 */
import { cardAccount, debtAccount, debtRepayment, funding } from '../../../shared/src/domain/ledger';
import { formatCents } from '../../../shared/src/domain/money';
import { newId } from '../adapters/clock';
import { sendEmail } from '../adapters/email';
import { charge, issueVirtualCard, setSpendingLimit } from '../adapters/stripe';
import { getTeam, listTeamUsers, setTeamFields, setUserFields, type TeamRecord } from '../data/accounts';
import { recordAudit } from '../data/audit';
import { getCard, putCard, updateCard } from '../data/cards';
import { balanceOf, InsufficientFunds, post, statement } from '../data/ledger';
import { getUser, type UserRecord } from '../data/users';
import type { Logger } from '../platform/log';

/** Kinds of credit that raise what a card may ever spend (the backstop limit). */
const CREDIT_KINDS = new Set(['funding', 'deposit', 'reallocation', 'refund']);

/**
 * Mirrors the ledger into the issuer's spending controls: the card's all-time
 * limit is everything ever credited to it, so a missed or failed webhook can
 * never let it spend money it was not given.
 */
export async function updateBackstop(userId: string, cardId: string): Promise<void> {
  const lines = await statement(cardAccount(userId));
  const lifetime = lines
    .filter((l) => l.amountCents > 0 && CREDIT_KINDS.has(l.kind))
    .reduce((s, l) => s + l.amountCents, 0);
  const card = await getCard(cardId);
  if (!card || card.lifetimeLimitCents === lifetime) return;
  await setSpendingLimit(cardId, Math.max(lifetime, 0));
  await updateCard(cardId, { lifetimeLimitCents: lifetime });
}

/**
 * Pays back what an employee owes (a purchase settled above its hold) from
 * money that just arrived on their card, as far as it reaches.
 */
export async function collectDebt(userId: string, teamId: string): Promise<void> {
  const [owed, available] = await Promise.all([
    balanceOf(debtAccount(userId)),
    balanceOf(cardAccount(userId)),
  ]);
  const amount = Math.min(-owed, available);
  if (amount <= 0) return;
  try {
    await post(debtRepayment({ entryId: `DEBT#${userId}#${newId()}`, teamId, userId, amountCents: amount }));
  } catch (error) {
    // A purchase spent the money meanwhile: the debt waits for the next credit.
    if (!(error instanceof InsufficientFunds)) throw error;
  }
}

/** Issues the employee's virtual card once (idempotent by user id). */
export async function ensureCard(user: UserRecord, team: TeamRecord, now: Date): Promise<string> {
  if (user.cardId) return user.cardId;
  if (!team.billingAddress) throw new Error(`team ${team.teamId} has no billing address yet`);
  const issued = await issueVirtualCard(
    {
      userId: user.userId,
      teamId: team.teamId,
      name: `${user.firstName} ${user.lastName}`.slice(0, 24),
      email: user.email,
      billing: {
        line1: team.billingAddress.address1,
        city: team.billingAddress.city,
        state: team.billingAddress.state,
        postalCode: team.billingAddress.zip,
      },
      spendingLimitCents: 0,
    },
    `ISSUE#${user.userId}`,
  );
  await putCard({
    cardId: issued.cardId,
    cardholderId: issued.cardholderId,
    userId: user.userId,
    teamId: team.teamId,
    last4: issued.last4,
    expMonth: issued.expMonth,
    expYear: issued.expYear,
    status: issued.status,
    lifetimeLimitCents: 0,
    createdAt: now.toISOString(),
  });
  await setUserFields(user.userId, { cardId: issued.cardId });
  return issued.cardId;
}

async function notifyDecline(team: TeamRecord, amountCents: number, message: string) {
  const manager = await getUser(team.managerId);
  if (!manager) return;
  await sendEmail({
    to: [manager.email],
    subject: 'Your card was declined: learning budgets are not funded',
    text: [
      `We tried to charge ${formatCents(amountCents)} to your card on file for your team's learning budgets, and it was declined: ${message}`,
      '',
      'Cards keep what they already hold. Please update your card on the Credit Card page; we try again every day.',
    ].join('\n'),
  });
}

export type ActivationResult = 'funded' | 'pendingBilling' | 'declined';

/**
 * A person became an active member: issue their card, charge their budget to
 * the manager's card, credit it. Without billing set up yet, nothing is charged
 * and they are funded when the manager finishes setup.
 */
export async function activateEmployee(userId: string, now: Date, log: Logger): Promise<ActivationResult> {
  const user = await getUser(userId);
  if (user?.role !== 'employee' || user.status !== 'active') return 'pendingBilling';
  const team = await getTeam(user.teamId);
  if (!team?.stripeCustomerId || !team.billingAddress) {
    await setUserFields(userId, { fundingPending: true });
    return 'pendingBilling';
  }
  const cardId = await ensureCard(user, team, now);
  const amountCents = user.budgetCents ?? 0;
  if (amountCents > 0) {
    const result = await charge(
      {
        customerId: team.stripeCustomerId,
        amountCents,
        description: `Learning budget for ${user.firstName} ${user.lastName}`,
        purpose: `JOIN#${userId}`,
        metadata: { teamId: team.teamId, userId, reason: 'join' },
      },
      `JOIN#${userId}`,
    );
    if (result.status === 'declined') {
      log.warn('joining charge declined', { userId, code: result.code });
      await setUserFields(userId, { fundingPending: true });
      await setTeamFields(team.teamId, { status: 'pastDue', pastDueSince: now.toISOString() });
      await notifyDecline(team, amountCents, result.message);
      return 'declined';
    }
    await post(
      funding({
        entryId: `JOIN#${userId}`,
        teamId: team.teamId,
        userId,
        amountCents,
        description: 'First learning budget',
        chargeId: result.chargeId,
      }),
      now.toISOString(),
    );
  }
  await setUserFields(userId, { fundingPending: false });
  await collectDebt(userId, team.teamId);
  await updateBackstop(userId, cardId);
  return 'funded';
}

/** After setup (or a card update), funds the members who joined before billing worked. */
export async function fundPendingMembers(teamId: string, now: Date, log: Logger): Promise<number> {
  const members = await listTeamUsers(teamId);
  let funded = 0;
  for (const member of members) {
    if (member.role !== 'employee' || member.status !== 'active' || !member.fundingPending) continue;
    if ((await activateEmployee(member.userId, now, log)) === 'funded') funded++;
  }
  return funded;
}

export function monthOfDate(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/**
 * One team's monthly renewal: one charge for all active employees' budgets
 * (next cycle's budget takes effect now), then one credit per employee. Paused
 * and deleted employees are neither charged nor funded. Runs again safely.
 */
export async function renewTeam(
  team: TeamRecord & {
    lastRenewedMonth?: string;
    cycleAttempt?: { month: string; key: string; status: string };
  },
  month: string,
  now: Date,
  log: Logger,
): Promise<'funded' | 'declined' | 'nothing'> {
  if (!team.stripeCustomerId || !team.setupMonth || team.setupMonth >= month) return 'nothing';
  if (team.lastRenewedMonth && team.lastRenewedMonth >= month) return 'nothing';
  const members = (await listTeamUsers(team.teamId)).filter(
    (m) => m.role === 'employee' && m.status === 'active' && !m.fundingPending,
  );
  const budgets = members
    .map((m) => ({ member: m, cents: m.nextBudgetCents ?? m.budgetCents ?? 0 }))
    .filter((b) => b.cents > 0);
  const total = budgets.reduce((s, b) => s + b.cents, 0);
  if (total === 0) return 'nothing';
  // The charge key is recorded before charging: a run that crashed after the charge reuses it
  // (Stripe answers with the same charge); only a declined attempt gets a new key next time.
  const previous = team.cycleAttempt;
  const key =
    previous?.month === month && previous.status === 'pending'
      ? previous.key
      : `CYCLE#${team.teamId}#${month}#${now.toISOString().slice(0, 10)}`;
  await setTeamFields(team.teamId, { cycleAttempt: { month, key, status: 'pending' } });
  const result = await charge(
    {
      customerId: team.stripeCustomerId,
      amountCents: total,
      description: `Learning budgets for ${month} (${budgets.length} employees)`,
      purpose: `CYCLE#${team.teamId}#${month}`,
      metadata: { teamId: team.teamId, cycle: month },
    },
    key,
  );
  if (result.status === 'declined') {
    log.warn('renewal declined', { teamId: team.teamId, code: result.code });
    await setTeamFields(team.teamId, { cycleAttempt: { month, key, status: 'declined' } });
    if (team.status !== 'pastDue') {
      await setTeamFields(team.teamId, { status: 'pastDue', pastDueSince: now.toISOString() });
      await notifyDecline(team, total, result.message);
    }
    return 'declined';
  }
  for (const { member, cents } of budgets) {
    await post(
      funding({
        entryId: `FUNDING#${team.teamId}#${member.userId}#${month}`,
        teamId: team.teamId,
        userId: member.userId,
        amountCents: cents,
        description: `Learning budget for ${month}`,
        chargeId: result.chargeId,
      }),
      now.toISOString(),
    );
    await setUserFields(member.userId, { budgetCents: cents, lastFundedMonth: month });
    await collectDebt(member.userId, team.teamId);
    if (member.cardId) await updateBackstop(member.userId, member.cardId);
  }
  await setTeamFields(team.teamId, { status: 'active', lastRenewedMonth: month });
  await recordAudit({
    teamId: team.teamId,
    actorId: 'system',
    action: 'cycle.funded',
    after: { month, chargeId: result.chargeId, totalCents: total, employees: budgets.length },
    at: now.toISOString(),
  });
  return 'funded';
}
