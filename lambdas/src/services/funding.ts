/**
 * Managers' money becomes employees' card balances. Every charge is made for a
 * purpose derived from what it pays for, every credit is a ledger posting keyed
 * the same way, so a retried flow or a job fired twice charges and funds once.
 * Stripe is called before the ledger transaction, never inside.
 *
 *   join      purpose and entry JOIN#<userId>; Stripe key JOIN#<userId>#<attempt>
 *   monthly   purpose CYCLE#<teamId>#<yyyy-mm>; Stripe key CYCLE#<teamId>#<yyyy-mm>#<attempt>
 *             FUNDING#<teamId>#<userId>#<yyyy-mm> one credit per employee and cycle
 *
 * What an attempt will charge (and so credit) is stored before the charge: on
 * the member (`joinAttempt`) or on the team (`cycleAttempt`, the cycle's plan).
 * A retry of an interrupted attempt reuses its key and amounts, and the adapter
 * finds a charge already made for the purpose (also after Stripe's 24 h), so
 * the credits always equal what was charged. Only a declined attempt gets a new
 * Stripe key, because Stripe replays a stored decline under the same key for 24 h.
 */
import { cardAccount, debtAccount, debtRepayment, funding } from '../../../shared/src/domain/ledger';
import { formatCents } from '../../../shared/src/domain/money';
import { newId } from '../adapters/clock';
import { sendEmail } from '../adapters/email';
import { charge, issueVirtualCard, setSpendingLimit } from '../adapters/stripe';
import {
  getTeam,
  listTeamUsers,
  replaceAttempt as replaceStoredAttempt,
  setTeamFields,
  setUserFields,
  type TeamRecord,
} from '../data/accounts';
import { recordAudit } from '../data/audit';
import { getCard, putCard, updateCard } from '../data/cards';
import { keys } from '../data/keys';
import { balanceOf, InsufficientFunds, post, statement } from '../data/ledger';
import { getUser, type UserRecord } from '../data/users';
import { errorFields, type Logger } from '../platform/log';
import { sweepToPool } from './pool';

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

// --- Attempts -------------------------------------------------------------------

/** A try at one charge, stored before Stripe is called. */
interface Attempt {
  /** 1, 2, ...: a declined attempt is followed by a new one under a new Stripe key. */
  n: number;
  /** Stripe's idempotency key for this attempt. */
  key: string;
  /** pending: charging (or interrupted while charging); charged: taken, credits may be missing. */
  status: 'pending' | 'declined' | 'charged' | 'funded';
}

/** A member's joining charge: the amount is fixed when the attempt starts, so a retry credits what it charged. */
export interface JoinAttempt extends Attempt {
  cents: number;
  /** First decline of the current run of declines: the daily job retries for RETRY_DAYS after it. */
  declinedSince?: string;
}

/** A team's renewal for one month: who is credited how much, fixed before the charge. */
export interface CyclePlan extends Attempt {
  month: string;
  purpose: string;
  members: { userId: string; cents: number }[];
  totalCents: number;
  chargeId?: string;
}

type MemberRecord = UserRecord & { joinAttempt?: JoinAttempt };
type RenewableTeam = TeamRecord & {
  lastRenewedMonth?: string;
  /** A plan, or an attempt stored before plans were (month, key, status only). */
  cycleAttempt?: CyclePlan | { month: string; key: string; status: string; n?: undefined };
};

/** Another run started or finished an attempt since this one read it; this one stops without charging. */
export class AttemptRaced extends Error {}

/**
 * Writes an attempt only if the stored one is still the one this run read, so
 * two runs that race (a sign-up and a card update, say) never start two
 * attempts under different Stripe keys, which would bypass Stripe's dedup.
 */
async function replaceAttempt<T extends Attempt>(
  key: { pk: string; sk: string },
  field: 'joinAttempt' | 'cycleAttempt',
  next: T,
  previousKey: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!(await replaceStoredAttempt(key, field, next, previousKey, extra)))
    throw new AttemptRaced(`${key.pk} ${field} changed meanwhile`);
}

// --- Joining --------------------------------------------------------------------

export type ActivationResult = 'funded' | 'pendingBilling' | 'declined';

/**
 * The member's current joining attempt, written with `fundingPending: true`
 * before anything is charged. An attempt still pending (in flight, or cut off
 * after the charge) is reused as it is: same Stripe key, same amount. After a
 * decline (or a finished one) the next attempt gets the next key.
 */
async function startJoinAttempt(user: MemberRecord): Promise<JoinAttempt> {
  const previous = user.joinAttempt;
  if (previous?.status === 'pending' && user.fundingPending) return previous;
  const n = (previous?.n ?? 0) + 1;
  const next: JoinAttempt = {
    n,
    key: `JOIN#${user.userId}#${n}`,
    status: 'pending',
    cents: user.budgetCents ?? 0,
    ...(previous?.status === 'declined' && previous.declinedSince
      ? { declinedSince: previous.declinedSince }
      : {}),
  };
  await replaceAttempt(keys.user(user.userId), 'joinAttempt', next, previous?.key, { fundingPending: true });
  return next;
}

/**
 * A person became an active member: issue their card, charge their budget to
 * the manager's card, credit it. Without billing set up yet, nothing is charged
 * and they are funded when the manager finishes setup. The member stays
 * `fundingPending` from before the charge until the credit is posted, so a
 * crash anywhere in between leaves them to the retries (daily job, card change).
 */
export async function activateEmployee(userId: string, now: Date, log: Logger): Promise<ActivationResult> {
  const user = (await getUser(userId)) as MemberRecord | undefined;
  if (user?.role !== 'employee' || user.status !== 'active') return 'pendingBilling';
  const team = await getTeam(user.teamId);
  if (!team?.stripeCustomerId || !team.billingAddress) {
    await setUserFields(userId, { fundingPending: true });
    return 'pendingBilling';
  }
  const attempt = await startJoinAttempt(user);
  const cardId = await ensureCard(user, team, now);
  if (attempt.cents > 0) {
    const result = await charge(
      {
        customerId: team.stripeCustomerId,
        amountCents: attempt.cents,
        description: `Learning budget for ${user.firstName} ${user.lastName}`,
        purpose: `JOIN#${userId}`,
        metadata: { teamId: team.teamId, userId, reason: 'join' },
      },
      attempt.key,
    );
    if (result.status === 'declined') {
      log.warn('joining charge declined', { userId, code: result.code, attempt: attempt.n });
      await replaceAttempt(
        keys.user(userId),
        'joinAttempt',
        { ...attempt, status: 'declined', declinedSince: attempt.declinedSince ?? now.toISOString() },
        attempt.key,
      );
      const alreadyPastDue = team.status === 'pastDue';
      await setTeamFields(team.teamId, {
        status: 'pastDue',
        pastDueSince: alreadyPastDue ? team.pastDueSince : now.toISOString(),
      });
      // The manager hears of each member's first decline, and of a team falling past due;
      // the daily retries of a card they already know is declined do not e-mail again.
      if (!alreadyPastDue || attempt.n === 1) await notifyDecline(team, attempt.cents, result.message);
      return 'declined';
    }
    await post(
      funding({
        entryId: `JOIN#${userId}`,
        teamId: team.teamId,
        userId,
        amountCents: attempt.cents,
        description: 'First learning budget',
        chargeId: result.chargeId,
      }),
      now.toISOString(),
    );
  }
  // Cleared only now that the credit is on the ledger.
  await replaceAttempt(keys.user(userId), 'joinAttempt', { ...attempt, status: 'funded' }, attempt.key, {
    fundingPending: false,
  });
  await collectDebt(userId, team.teamId);
  await updateBackstop(userId, cardId);
  return 'funded';
}

export interface PendingFunding {
  funded: number;
  declined: number;
  failed: number;
}

function isPendingMember(member: UserRecord): boolean {
  return member.role === 'employee' && member.status === 'active' && Boolean(member.fundingPending);
}

/**
 * Funds the team's members who are still pending: joined before billing worked,
 * declined, or cut off mid-way. Called after setup, after a card is added or
 * made primary, and by the daily job. One member's error does not stop the
 * others; a decline does, since every member is charged to the same card.
 * `retryDeclinedForDays` (the daily job) leaves out members whose declines
 * started longer ago: they wait for the manager to change the card.
 */
export async function fundPendingMembers(
  teamId: string,
  now: Date,
  log: Logger,
  options: { retryDeclinedForDays?: number } = {},
): Promise<PendingFunding> {
  const outcome: PendingFunding = { funded: 0, declined: 0, failed: 0 };
  for (const member of (await listTeamUsers(teamId)) as MemberRecord[]) {
    if (!isPendingMember(member)) continue;
    const since = member.joinAttempt?.status === 'declined' ? member.joinAttempt.declinedSince : undefined;
    if (
      options.retryDeclinedForDays !== undefined &&
      since &&
      now.getTime() - Date.parse(since) >= options.retryDeclinedForDays * 86_400_000
    )
      continue;
    try {
      const result = await activateEmployee(member.userId, now, log);
      if (result === 'funded') outcome.funded++;
      if (result === 'declined') {
        outcome.declined++;
        break;
      }
    } catch (error) {
      if (error instanceof AttemptRaced) {
        // Another run is funding this member right now.
        log.info('pending member is being funded by another run', { userId: member.userId });
        continue;
      }
      outcome.failed++;
      log.error('funding a pending member failed; retried later', {
        userId: member.userId,
        ...errorFields(error),
      });
    }
  }
  if (outcome.funded > 0) await settleTeamStatus(teamId);
  return outcome;
}

/**
 * A team past due returns to active once nothing it owes is unpaid: no member
 * left pending and no declined renewal still open.
 */
async function settleTeamStatus(teamId: string): Promise<void> {
  const team = (await getTeam(teamId)) as RenewableTeam | undefined;
  if (team?.status !== 'pastDue') return;
  const cycle = team.cycleAttempt;
  const cycleUnpaid = cycle?.status === 'declined' && !((team.lastRenewedMonth ?? '') >= cycle.month);
  if (cycleUnpaid || (await listTeamUsers(teamId)).some(isPendingMember)) return;
  await setTeamFields(teamId, { status: 'active' });
}

// --- Monthly renewal ------------------------------------------------------------

export function monthOfDate(date: Date): string {
  return date.toISOString().slice(0, 7);
}

function isPlan(attempt: RenewableTeam['cycleAttempt']): attempt is CyclePlan {
  return Boolean(attempt && Array.isArray((attempt as CyclePlan).members));
}

/**
 * One team's monthly renewal: one charge for all active employees' budgets
 * (next cycle's budget takes effect now), then one credit per employee. Paused
 * and deleted employees are neither charged nor funded. Runs again safely.
 *
 * The plan (who gets how much, the total, the purpose, the Stripe key) is
 * stored on the team before the charge, and every retry for the month uses it
 * instead of the members as they are by then: the charge is found by its
 * purpose rather than taken again, and the credits add up to exactly what was
 * charged even if people joined, left or changed budgets meanwhile.
 */
export async function renewTeam(
  team: RenewableTeam,
  month: string,
  now: Date,
  log: Logger,
): Promise<'funded' | 'declined' | 'nothing'> {
  if (!team.stripeCustomerId || !team.setupMonth || team.setupMonth >= month) return 'nothing';
  // The caller's copy may come from the cycle index (eventually consistent): the plan must be the latest.
  const current = ((await getTeam(team.teamId)) as RenewableTeam | undefined) ?? team;
  if (current.lastRenewedMonth && current.lastRenewedMonth >= month) return 'nothing';
  const stored = current.cycleAttempt;
  let plan = stored?.month === month && isPlan(stored) ? stored : undefined;
  if (!plan) {
    const members = (await listTeamUsers(team.teamId))
      .filter((m) => m.role === 'employee' && m.status === 'active' && !m.fundingPending)
      .map((m) => ({ userId: m.userId, cents: m.nextBudgetCents ?? m.budgetCents ?? 0 }))
      .filter((m) => m.cents > 0);
    const totalCents = members.reduce((s, m) => s + m.cents, 0);
    if (totalCents === 0) return 'nothing';
    plan = {
      month,
      purpose: `CYCLE#${team.teamId}#${month}`,
      n: 1,
      key: `CYCLE#${team.teamId}#${month}#1`,
      status: 'pending',
      members,
      totalCents,
    };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, stored?.key);
  } else if (plan.status === 'declined') {
    // Nothing was taken: try the same plan again under a new key (Stripe would replay the decline).
    const previousKey = plan.key;
    plan = { ...plan, n: plan.n + 1, key: `CYCLE#${team.teamId}#${month}#${plan.n + 1}`, status: 'pending' };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, previousKey);
  }
  let chargeId = plan.chargeId;
  if (!chargeId) {
    const result = await charge(
      {
        customerId: team.stripeCustomerId,
        amountCents: plan.totalCents,
        description: `Learning budgets for ${month} (${plan.members.length} employees)`,
        purpose: plan.purpose,
        metadata: { teamId: team.teamId, cycle: month },
      },
      plan.key,
    );
    if (result.status === 'declined') {
      log.warn('renewal declined', { teamId: team.teamId, code: result.code, attempt: plan.n });
      await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', { ...plan, status: 'declined' }, plan.key);
      if (current.status !== 'pastDue') {
        await setTeamFields(team.teamId, { status: 'pastDue', pastDueSince: now.toISOString() });
        await notifyDecline(current, plan.totalCents, result.message);
      }
      return 'declined';
    }
    chargeId = result.chargeId;
    plan = { ...plan, status: 'charged', chargeId };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, plan.key);
  }
  // Every credit first: the ledger then holds all of the charge even if a card update below fails.
  for (const { userId, cents } of plan.members) {
    await post(
      funding({
        entryId: `FUNDING#${team.teamId}#${userId}#${month}`,
        teamId: team.teamId,
        userId,
        amountCents: cents,
        description: `Learning budget for ${month}`,
        chargeId,
      }),
      now.toISOString(),
    );
  }
  const people = new Map((await listTeamUsers(team.teamId)).map((u) => [u.userId, u]));
  for (const { userId, cents } of plan.members) {
    const member = people.get(userId);
    if (!member) continue;
    if (member.status === 'deleted') {
      // Removed after the plan was charged: their card is cancelled, so the credit joins
      // their other money in the team pool, where the manager reallocates or redeems it.
      await sweepToPool(member);
      continue;
    }
    await setUserFields(userId, { budgetCents: cents, lastFundedMonth: month });
    await collectDebt(userId, team.teamId);
    if (member.cardId) await updateBackstop(userId, member.cardId);
  }
  await setTeamFields(team.teamId, {
    status: 'active',
    lastRenewedMonth: month,
    cycleAttempt: { ...plan, status: 'funded' },
  });
  await recordAudit({
    teamId: team.teamId,
    actorId: 'system',
    action: 'cycle.funded',
    after: { month, chargeId, totalCents: plan.totalCents, employees: plan.members.length },
    at: now.toISOString(),
  });
  return 'funded';
}
