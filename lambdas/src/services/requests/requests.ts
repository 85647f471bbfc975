/**
 * Fund requests (issue 27): an employee asks for money for one thing; their
 * manager approves (the amount asked or less), declines with a reason, or the
 * request expires after 14 days unanswered. An approval is an extra deposit
 * for that person (services/money/deposits.ts): charged to the team's card
 * under the daily deposit limit, credited on success, labelled with the
 * request's title on the card charge, the employee's statement and the
 * manager's payments history.
 *
 * One approval only: the request moves pending -> approving (conditioned on
 * its state and attempt) before any money moves, so a second click, a second
 * tab or a racing automatic approval finds it taken. The deposit's key is the
 * request and its attempt number, so a retry of the same approval (same
 * Idempotency-Key) finishes the same charge and credit; a card decline puts
 * the request back to pending with the reason, nothing charged, and the next
 * approval is a new attempt (a new charge key, so Stripe does not answer with
 * the cached decline). An approval that died is taken over after
 * APPROVAL_LEASE_MS by anyone approving it again; the deposit key is the same,
 * so the money still moves once.
 *
 * Expiry: a daily job marks pending requests 14 days old as expired (and
 * e-mails); in between, reads show a pending request past its day as expired
 * and an approval of one expires it instead (lazy expiry).
 */
import { SYSTEM_ACTOR } from '@shared/domain/auditLog';
import { dayIn } from '@shared/domain/calendar';
import { formatCents } from '@shared/domain/money';
import { platformNames } from '@shared/domain/shopFilter';
import { AppError } from '@shared/errors';
import type { platforms } from '@shared/schemas/catalogue';
import {
  type approveRequestsInput,
  type createRequestInput,
  REQUEST_EXPIRY_DAYS,
  type RequestRules,
  type RequestView,
  type requestRulesInput,
} from '@shared/schemas/requests';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import { getTeam, listTeamUsers, setTeamFields, zoneOf } from '../../data/accounts';
import { getCatalogueItem } from '../../data/catalogue';
import {
  getRequest,
  listTeamRequests,
  listUserRequests,
  moveRequest,
  putRequest,
  type RequestRecord,
  releaseAutoApproval,
  requestsExpiringOn,
  reserveAutoApproval,
} from '../../data/requests';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import type { Logger } from '../../platform/log';
import { decidedEachRun, type RequestSteps } from '../../platform/requestSteps';
import { deposit } from '../money';
import { audit } from '../team';
import { requestChangedEmail, requestDecidedEmail, requestEmailToManager } from './requestEmails';

const DAY_MS = 24 * 3600 * 1000;
/** An approval in flight longer than this is taken to have died: the next approval finishes it. */
export const APPROVAL_LEASE_MS = 5 * 60 * 1000;

const NOT_FOUND = 'No such request.';

function fullName(user: Pick<UserRecord, 'firstName' | 'lastName'> | undefined): string {
  return user ? `${user.firstName} ${user.lastName}` : 'Former employee';
}

/** A pending request past its day reads as expired even before the job marks it. */
function effectiveState(request: RequestRecord, now: Date): RequestRecord['state'] {
  return request.state === 'pending' && request.expiresAt <= now.toISOString() ? 'expired' : request.state;
}

export function requestView(request: RequestRecord, name: string, now: Date): RequestView {
  return {
    requestId: request.requestId,
    userId: request.userId,
    name,
    ...(request.itemId ? { itemId: request.itemId } : {}),
    title: request.title,
    ...(request.link ? { link: request.link } : {}),
    merchant: request.merchant,
    amountCents: request.amountCents,
    why: request.why,
    skillArea: request.skillArea,
    state: effectiveState(request, now),
    createdAt: request.createdAt,
    expiresAt: request.expiresAt,
    ...(request.decidedAt ? { decidedAt: request.decidedAt } : {}),
    ...(request.state === 'approved' && request.approvedCents !== undefined
      ? { approvedCents: request.approvedCents }
      : {}),
    ...(request.automatic ? { automatic: true } : {}),
    ...(request.declineReason ? { declineReason: request.declineReason } : {}),
    ...(request.cardDecline && request.state === 'pending' ? { cardDecline: request.cardDecline } : {}),
  };
}

async function manager(teamId: string) {
  const team = await getTeam(teamId);
  return team ? getUser(team.managerId) : undefined;
}

/** The system's actor for what the team's rule approves by itself (audited as the product, not a person). */
function ruleActor(teamId: string): Actor {
  return { userId: SYSTEM_ACTOR, email: '', role: 'manager', teamId, status: 'active', emailVerified: true };
}

export function rulesOf(team: { requestRules?: Partial<RequestRules> } | undefined): RequestRules {
  return {
    autoApproveMonthlyCents: team?.requestRules?.autoApproveMonthlyCents ?? null,
    maxRequestCents: team?.requestRules?.maxRequestCents ?? null,
  };
}

// --- Asking ---------------------------------------------------------------------

export async function createRequest(
  actor: Actor,
  input: z.output<typeof createRequestInput>,
  now: Date,
  log: Logger,
): Promise<{ request: RequestView }> {
  const team = await getTeam(actor.teamId);
  const rules = rulesOf(team);
  let fields: Pick<RequestRecord, 'title' | 'merchant' | 'skillArea' | 'itemKey'> & {
    link?: string;
    itemId?: string;
  };
  if (input.itemId) {
    const item = await getCatalogueItem(input.itemId);
    if (!item) throw new AppError('NOT_FOUND', 'That item is no longer in the shop.');
    const platform = (Object.keys(item.affiliateLinks) as (typeof platforms)[number][]).find(
      (p) => item.affiliateLinks[p],
    );
    fields = {
      itemId: item.id,
      itemKey: `ITEM#${item.id}`,
      title: item.name,
      merchant: platform ? platformNames[platform] : 'Shop',
      skillArea: item.category,
      ...(platform ? { link: item.affiliateLinks[platform] } : {}),
    };
  } else {
    const title = input.title as string;
    fields = {
      itemKey: `FREE#${(input.link ?? title).toLowerCase()}`,
      title,
      merchant: input.merchant as string,
      skillArea: input.skillArea as string,
      ...(input.link ? { link: input.link } : {}),
    };
  }
  if (rules.maxRequestCents !== null && input.amount > rules.maxRequestCents) {
    const message = `Your team's requests can be at most ${formatCents(rules.maxRequestCents)} each.`;
    throw new AppError('VALIDATION_FAILED', message, { fields: { amount: message } });
  }
  const request: RequestRecord = {
    requestId: newId(now),
    teamId: actor.teamId,
    userId: actor.userId,
    ...fields,
    amountCents: input.amount,
    why: input.why,
    state: 'pending',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + REQUEST_EXPIRY_DAYS * DAY_MS).toISOString(),
    attempt: 0,
  };
  if ((await putRequest(request)) === 'duplicate')
    throw new AppError(
      'CONFLICT',
      'You already have an open request for this item: see it on your Requests page.',
    );
  await audit(actor, 'request.created', now, {
    targetId: actor.userId,
    after: { requestId: request.requestId, title: request.title, amountCents: request.amountCents },
  });
  const employee = await getUser(actor.userId);
  const boss = team ? await getUser(team.managerId) : undefined;
  if (boss) await requestEmailToManager(boss, fullName(employee), request, team?.timeZone);

  // The team's rule: approved at once while this person's automatic approvals this month stay within it.
  if (team && rules.autoApproveMonthlyCents !== null) {
    const month = dayIn(now, zoneOf(team)).slice(0, 7);
    if (await reserveAutoApproval(actor.userId, month, request.amountCents, rules.autoApproveMonthlyCents)) {
      const result = await approveOne(
        ruleActor(actor.teamId),
        request,
        request.amountCents,
        `auto-${request.requestId}`,
        now,
        log,
        decidedEachRun,
      );
      if (result.status !== 'approved') {
        await releaseAutoApproval(actor.userId, month, request.amountCents);
        log.info('request not approved automatically', { requestId: request.requestId, result });
      }
    }
  }
  const stored = (await getRequest(request.requestId)) as RequestRecord;
  return { request: requestView(stored, fullName(employee), now) };
}

export async function myRequests(actor: Actor, now: Date): Promise<{ requests: RequestView[] }> {
  const user = await getUser(actor.userId);
  const requests = await listUserRequests(actor.userId);
  return { requests: requests.map((r) => requestView(r, fullName(user), now)) };
}

export async function cancelRequest(actor: Actor, requestId: string, now: Date) {
  const request = await getRequest(requestId);
  if (!request || request.userId !== actor.userId) throw new AppError('NOT_FOUND', NOT_FOUND);
  const user = await getUser(actor.userId);
  if (effectiveState(request, now) === 'pending') {
    if (await moveRequest(request, 'pending', 'cancelled', { decidedAt: now.toISOString() })) {
      await audit(actor, 'request.cancelled', now, {
        targetId: actor.userId,
        after: { requestId, title: request.title, amountCents: request.amountCents },
      });
      const boss = await manager(request.teamId);
      if (boss) await requestChangedEmail(boss, fullName(user), request, 'cancelled');
    }
  }
  const now2 = (await getRequest(requestId)) as RequestRecord;
  if (now2.state !== 'cancelled')
    throw new AppError(
      'CONFLICT',
      `This request is ${stateWords(effectiveState(now2, now))}: it cannot be cancelled.`,
    );
  return { request: requestView(now2, fullName(user), now) };
}

function stateWords(state: RequestRecord['state']): string {
  return state === 'approving' ? 'being approved' : state;
}

// --- Deciding -------------------------------------------------------------------

/** The request, if it is of the manager's team (anyone else's is not found). */
async function teamRequest(actor: Actor, requestId: string): Promise<RequestRecord | undefined> {
  const request = await getRequest(requestId);
  return request && request.teamId === actor.teamId ? request : undefined;
}

export async function getOneRequest(actor: Actor, requestId: string, now: Date) {
  const request = await getRequest(requestId);
  const mine =
    request && (actor.role === 'manager' ? request.teamId === actor.teamId : request.userId === actor.userId);
  if (!request || !mine) throw new AppError('NOT_FOUND', NOT_FOUND);
  return { request: requestView(request, fullName(await getUser(request.userId)), now) };
}

/**
 * GET /requests: an employee's own requests, or the manager's team's with the
 * team's rules; `requestId` narrows to that one (404 unless it is theirs).
 */
export async function listRequests(
  actor: Actor,
  query: { state?: RequestRecord['state']; requestId?: string },
  now: Date,
): Promise<{ requests: RequestView[]; rules?: RequestRules }> {
  const rules = actor.role === 'manager' ? rulesOf(await getTeam(actor.teamId)) : undefined;
  if (query.requestId) {
    const { request } = await getOneRequest(actor, query.requestId, now);
    return { requests: [request], ...(rules ? { rules } : {}) };
  }
  const { requests } =
    actor.role === 'manager' ? await teamRequests(actor, undefined, now) : await myRequests(actor, now);
  return {
    requests: query.state ? requests.filter((r) => r.state === query.state) : requests,
    ...(rules ? { rules } : {}),
  };
}

export async function teamRequests(actor: Actor, state: RequestRecord['state'] | undefined, now: Date) {
  const [requests, users] = await Promise.all([listTeamRequests(actor.teamId), listTeamUsers(actor.teamId)]);
  const names = new Map(users.map((u) => [u.userId, fullName(u)]));
  const views = requests.map((r) => requestView(r, names.get(r.userId) ?? 'Former employee', now));
  return { requests: state ? views.filter((v) => v.state === state) : views };
}

export type ApprovalResult = {
  requestId: string;
  status: 'approved' | 'refused' | 'cardDeclined';
  message?: string;
  request?: RequestView;
};

/** Why a person cannot be given money now, or undefined. */
function personRefusal(user: UserRecord | undefined, teamId: string): string | undefined {
  if (!user || user.teamId !== teamId || user.status === 'deleted')
    return 'They are no longer on your team, so nothing was charged.';
  if (user.status === 'paused' && user.dormancy?.deactivatedAt)
    return 'Their card is inactive after a year without purchases: reactivate them on the Employees page first. Nothing was charged.';
  if (user.status === 'paused')
    return 'They are paused: unpause them on the Employees page first. Nothing was charged.';
  if (user.status !== 'active' || !user.cardId) return 'They have no card yet, so nothing was charged.';
  return undefined;
}

/**
 * One approval: claims the request (pending -> approving), moves the money
 * as an extra deposit keyed by the request and attempt, and records the
 * outcome. See the file's comment for the races it answers.
 */
async function approveOne(
  actor: Actor,
  first: RequestRecord,
  askedCents: number | undefined,
  key: string,
  now: Date,
  log: Logger,
  steps: RequestSteps,
): Promise<ApprovalResult> {
  const requestId = first.requestId;
  const user = await getUser(first.userId);
  const name = fullName(user);
  const refused = (message: string, request?: RequestRecord): ApprovalResult => ({
    requestId,
    status: 'refused',
    message,
    ...(request ? { request: requestView(request, name, now) } : {}),
  });

  let request = first;
  let attempt: number | undefined;
  let cents = askedCents ?? request.amountCents;
  for (let round = 0; attempt === undefined && round < 3; round++) {
    if (round > 0) request = (await getRequest(requestId)) as RequestRecord;
    if (request.state === 'approved')
      return { requestId, status: 'approved', request: requestView(request, name, now) };
    if (request.state === 'approving') {
      const mine = request.approvalKey === key;
      const stale = Date.parse(request.approvingAt ?? '') + APPROVAL_LEASE_MS <= now.getTime();
      if (!mine && !stale) return refused('Someone is approving this request right now.', request);
      // Our own retry, or an approval that died: finish it as it was decided (its amount, its attempt).
      if (
        !mine &&
        !(await moveRequest(
          request,
          'approving',
          'approving',
          { approvalKey: key, approvingAt: now.toISOString() },
          { whenAttempt: request.attempt },
        ))
      )
        continue;
      attempt = request.attempt;
      cents = request.approvedCents ?? cents;
      break;
    }
    if (request.state !== 'pending') return refused(`This request is ${request.state}.`, request);
    if (effectiveState(request, now) === 'expired') {
      await expireOne(request, now);
      return refused(
        'This request expired: it was not answered within 14 days.',
        (await getRequest(requestId)) as RequestRecord,
      );
    }
    const why = personRefusal(user, request.teamId);
    if (why) return refused(why, request);
    if (cents > request.amountCents)
      return refused(`Approve at most the ${formatCents(request.amountCents)} asked.`, request);
    const next = request.attempt + 1;
    const claimed = await moveRequest(
      request,
      'pending',
      'approving',
      { attempt: next, approvalKey: key, approvingAt: now.toISOString(), approvedCents: cents },
      { whenAttempt: request.attempt, remove: ['cardDecline'] },
    );
    if (claimed) {
      attempt = next;
      request = { ...request, state: 'approving', attempt: next, approvalKey: key, approvedCents: cents };
    }
  }
  if (attempt === undefined) return refused('Someone is approving this request right now.', request);

  const inFlight = attempt;
  const backToPending = async (fields: Partial<RequestRecord>) =>
    moveRequest(request, 'approving', 'pending', fields, {
      whenAttempt: inFlight,
      remove: ['approvalKey', 'approvingAt', 'approvedCents'],
    });
  // The deposit's own decisions, kept per request and attempt under the approval's key.
  const scoped: RequestSteps = {
    once: (step, decide) => steps.once(`${requestId}#${inFlight}#${step}`, decide),
  };
  let outcome: Awaited<ReturnType<typeof deposit>>;
  try {
    outcome = await deposit(
      actor,
      { userIds: [request.userId], amount: cents },
      `REQ-${requestId}-${inFlight}`,
      now,
      log,
      scoped,
      request.title,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Refused before any charge (the daily limit, a suspended subscription): still pending.
    await backToPending({});
    return refused(error.message, (await getRequest(requestId)) as RequestRecord);
  }
  const result = outcome.results[0];
  const automatic = actor.userId === SYSTEM_ACTOR;
  if (result?.status === 'credited') {
    await moveRequest(
      request,
      'approving',
      'approved',
      {
        decidedAt: now.toISOString(),
        decidedBy: actor.userId,
        approvedCents: cents,
        ...(automatic ? { automatic: true } : {}),
      },
      { whenAttempt: inFlight, remove: ['approvalKey'] },
    );
    const done = (await getRequest(requestId)) as RequestRecord;
    await scoped.once('decided', async () => {
      await audit(actor, 'request.approved', now, {
        targetId: request.userId,
        after: {
          requestId,
          title: request.title,
          amountCents: cents,
          askedCents: request.amountCents,
          automatic,
        },
      });
      if (user) await requestDecidedEmail(user, done);
      if (automatic) {
        const boss = await manager(request.teamId);
        if (boss) await requestChangedEmail(boss, name, done, 'approved automatically');
      }
      return true;
    });
    return { requestId, status: 'approved', request: requestView(done, name, now) };
  }
  const message = result?.message ?? 'The card on file was declined.';
  if (result?.status === 'declined') {
    await backToPending({ cardDecline: message });
    await scoped.once('decided', async () => {
      await audit(actor, 'request.cardDeclined', now, {
        targetId: request.userId,
        after: { requestId, title: request.title, amountCents: cents, message },
      });
      return true;
    });
    return {
      requestId,
      status: 'cardDeclined',
      message: `The team's card was declined, so nothing was charged: ${message}`,
      request: requestView((await getRequest(requestId)) as RequestRecord, name, now),
    };
  }
  await backToPending({});
  return refused(result?.message ?? 'Nothing was charged.', (await getRequest(requestId)) as RequestRecord);
}

/**
 * Approves each named request (all of the manager's team, or nothing at all),
 * one after another; each result says what happened to it.
 */
export async function approveRequests(
  actor: Actor,
  input: Pick<z.output<typeof approveRequestsInput>, 'approvals'>,
  key: string,
  now: Date,
  log: Logger,
  steps: RequestSteps,
): Promise<{ results: ApprovalResult[] }> {
  const requests: RequestRecord[] = [];
  for (const approval of input.approvals) {
    const request = await teamRequest(actor, approval.requestId);
    if (!request) throw new AppError('NOT_FOUND', NOT_FOUND);
    requests.push(request);
  }
  const results: ApprovalResult[] = [];
  const seen = new Set<string>();
  for (const [i, request] of requests.entries()) {
    if (seen.has(request.requestId)) continue;
    seen.add(request.requestId);
    results.push(await approveOne(actor, request, input.approvals[i]?.amount, key, now, log, steps));
  }
  return { results };
}

/** The cents the named requests would move (for the step-up check): each the amount given or asked. */
export async function approvalTotal(
  actor: Actor,
  input: Pick<z.output<typeof approveRequestsInput>, 'approvals'>,
) {
  let total = 0;
  for (const approval of input.approvals) {
    const request = await teamRequest(actor, approval.requestId);
    if (request?.state === 'pending') total += approval.amount ?? request.amountCents;
  }
  return total;
}

export async function declineRequest(actor: Actor, requestId: string, reason: string, now: Date) {
  const request = await teamRequest(actor, requestId);
  if (!request) throw new AppError('NOT_FOUND', NOT_FOUND);
  const user = await getUser(request.userId);
  if (effectiveState(request, now) === 'expired' && request.state === 'pending')
    await expireOne(request, now);
  else if (
    await moveRequest(request, 'pending', 'declined', {
      declineReason: reason,
      decidedAt: now.toISOString(),
      decidedBy: actor.userId,
    })
  ) {
    const done = (await getRequest(requestId)) as RequestRecord;
    await audit(actor, 'request.declined', now, {
      targetId: request.userId,
      after: { requestId, title: request.title, amountCents: request.amountCents, reason },
    });
    if (user) await requestDecidedEmail(user, done);
  }
  const after = (await getRequest(requestId)) as RequestRecord;
  if (after.state !== 'declined')
    throw new AppError('CONFLICT', `This request is ${stateWords(after.state)}: it cannot be declined.`);
  return { request: requestView(after, fullName(user), now) };
}

// --- Expiry ---------------------------------------------------------------------

async function expireOne(request: RequestRecord, now: Date): Promise<boolean> {
  if (!(await moveRequest(request, 'pending', 'expired', { decidedAt: now.toISOString() }))) return false;
  await audit(ruleActor(request.teamId), 'request.expired', now, {
    targetId: request.userId,
    after: { requestId: request.requestId, title: request.title, amountCents: request.amountCents },
  });
  const user = await getUser(request.userId);
  const expired = { ...request, state: 'expired' as const };
  if (user && user.status !== 'deleted') await requestDecidedEmail(user, expired);
  const boss = await manager(request.teamId);
  if (boss) await requestChangedEmail(boss, fullName(user), expired, 'expired');
  return true;
}

/** How many days back the job looks, so a missed run or two still expires their requests. */
const CATCH_UP_DAYS = 7;

/** The daily job: every pending request whose 14 days are over becomes expired (each once). */
export async function expireRequests(now: Date, log: Logger) {
  let expired = 0;
  for (let back = CATCH_UP_DAYS; back >= 0; back--) {
    const day = new Date(now.getTime() - back * DAY_MS).toISOString().slice(0, 10);
    for (const due of await requestsExpiringOn(day)) {
      if (due.expiresAt > now.toISOString()) continue;
      const request = await getRequest(due.requestId);
      if (request?.state === 'pending' && (await expireOne(request, now))) expired++;
    }
  }
  log.info('requests expired', { expired });
  return { expired };
}

// --- Rules ----------------------------------------------------------------------

export async function requestRules(actor: Actor) {
  return { rules: rulesOf(await getTeam(actor.teamId)) };
}

export async function setRequestRules(
  actor: Actor,
  input: Pick<z.output<typeof requestRulesInput>, 'autoApproveMonthly' | 'maxRequest'>,
  now: Date,
) {
  const team = await getTeam(actor.teamId);
  const before = rulesOf(team);
  const rules: RequestRules = {
    autoApproveMonthlyCents: input.autoApproveMonthly,
    maxRequestCents: input.maxRequest,
  };
  await setTeamFields(actor.teamId, { requestRules: rules });
  await audit(actor, 'team.requestRules', now, { before: { ...before }, after: { ...rules } });
  return { rules };
}
