/**
 * Profiles (/editProfile): a person edits themselves; a manager also edits the
 * employees of their own team, including next cycle's budget (a raise counts
 * against the day's deposit limit and step-up threshold). Anyone else's
 * record answers 404, as if it did not exist.
 */

import { dormancyViewOf } from '@shared/domain/dormancy';
import { AppError } from '@shared/errors';
import type { budgetPreviewInput, updateProfileInput } from '@shared/schemas/profile';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import { disableUser, signOutEverywhere } from '../../adapters/cognito';
import {
  endAllSessions,
  getTeam,
  listTeamUsers,
  setUserFields,
  type TeamRecord,
  zoneOf,
} from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import { isConditionFailure, updateFields } from '../../data/client';
import { keys } from '../../data/keys';
import { monthlyEmailOn, setMonthlyEmail } from '../../data/monthlyEmails';
import { markScimUserInactive } from '../../data/provisioning';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { commit, commitmentNeedsFreshFactor, retireEmployeeMoney } from '../money';

const NOT_FOUND = 'No such person on your team.';

/** The target if the actor may act on it: themselves, or (for a manager) an employee of their team. */
async function reachableUser(actor: Actor, userId: string): Promise<UserRecord> {
  const target = await getUser(userId);
  if (!target || target.teamId !== actor.teamId) throw new AppError('NOT_FOUND', NOT_FOUND);
  const isSelf = target.userId === actor.userId;
  const managesTarget = actor.role === 'manager' && target.role === 'employee';
  if (!isSelf && !managesTarget) throw new AppError('NOT_FOUND', NOT_FOUND);
  return target;
}

/** The signed-in person for the web app: their record and their team's billing state. */
export async function whoAmI(actor: Actor) {
  const [user, team] = await Promise.all([getUser(actor.userId), getTeam(actor.teamId)]);
  if (!user) throw new AppError('NOT_FOUND', 'No such user.');
  return meView(user, team);
}

/**
 * GET /me's answer for `user`, also sent with a renewed session (POST
 * /auth/refresh), so a reload restores the session in one round trip.
 */
export function meView(user: UserRecord, team: TeamRecord | undefined) {
  return {
    ...user,
    teamName: team?.name,
    // A suspended or closed subscription says more than the billing status (the console's banners).
    teamStatus: team?.subscription ?? team?.status ?? 'setup',
    timeZone: zoneOf(team),
    dormancy:
      user.role === 'employee' ? dormancyViewOf(user.quietSince, user.dormancy, zoneOf(team)) : undefined,
  };
}

/** The walkthrough tour was finished or skipped (spec §4 "Walkthrough"); it is not shown again. */
export async function finishWalkthrough(actor: Actor) {
  await setUserFields(actor.userId, { finishedWalkthrough: true });
  return { ok: true as const };
}

/** What the caller may see of a profile: budgets only for a manager's employee or the employee themselves. */
export function profileView(actor: Actor, user: UserRecord) {
  const showBudget = user.role === 'employee';
  return {
    userId: user.userId,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    status: user.status,
    jobRole: (user.jobRole as 'Animation' | 'Engineering' | 'Construction' | undefined) ?? null,
    ...(showBudget && (actor.role === 'manager' || actor.userId === user.userId)
      ? { budgetCents: user.budgetCents ?? 0, nextBudgetCents: user.nextBudgetCents ?? user.budgetCents ?? 0 }
      : {}),
    ...(showBudget && actor.role === 'manager' ? { lastDay: user.lastDay ?? null } : {}),
    // Each person's own choice: a manager neither sees nor sets an employee's.
    ...(actor.userId === user.userId ? { monthlyEmails: monthlyEmailOn(user, monthlyKindOf(user)) } : {}),
  };
}

/** The monthly e-mail a person gets (issue 26): employees the nudge, managers the digest. */
function monthlyKindOf(user: Pick<UserRecord, 'role'>) {
  return user.role === 'manager' ? ('digest' as const) : ('nudge' as const);
}

export async function getProfile(actor: Actor, userId: string) {
  return profileView(actor, await reachableUser(actor, userId));
}

/**
 * What setting `target`'s next-cycle budget to `budgetCents` commits: what it
 * adds to the budget it replaces (the current one until a change is waiting),
 * 0 for a decrease. Refused unless the actor is a manager and the target their
 * employee.
 */
function budgetRaise(actor: Actor, target: UserRecord, budgetCents: number): number {
  const managesTarget =
    actor.role === 'manager' && target.userId !== actor.userId && target.role === 'employee';
  if (!managesTarget) throw new AppError('FORBIDDEN', "Only a manager can change an employee's budget.");
  const fromCents = target.nextBudgetCents ?? target.budgetCents ?? 0;
  return Math.max(0, budgetCents - fromCents);
}

/** The person whose profile is saved, refused as the save would refuse it. */
async function editableUser(actor: Actor, userId: string): Promise<UserRecord> {
  const target = await reachableUser(actor, userId);
  if (target.status === 'deleted') throw new AppError('CONFLICT', 'This account was deleted.');
  return target;
}

/**
 * POST /users/{userId}/budget/preview: whether saving this budget would ask for
 * a fresh factor, counted as updateProfile counts it. Stores nothing.
 */
export async function previewBudgetChange(
  actor: Actor,
  input: z.output<typeof budgetPreviewInput>,
  now: Date,
): Promise<{ needsFreshFactor: boolean }> {
  const raise = budgetRaise(actor, await editableUser(actor, input.userId), input.budget);
  return { needsFreshFactor: await commitmentNeedsFreshFactor(actor, raise, now) };
}

export async function updateProfile(actor: Actor, input: z.output<typeof updateProfileInput>, now: Date) {
  const target = await editableUser(actor, input.userId);
  if (input.budget !== undefined) {
    // A raise commits the team's card to more every month: counted before it is stored (step-up,
    // daily limit; services/money/commitments.ts). A decrease frees nothing, so lowering and
    // raising again counts the raise again.
    const raise = budgetRaise(actor, target, input.budget);
    if (raise > 0) {
      const team = await getTeam(actor.teamId);
      if (!team) throw new AppError('NOT_FOUND', NOT_FOUND);
      await commit(actor, team, `BUDGET#${target.userId}#${newId(now)}`, raise, now);
    }
  }
  if (input.monthlyEmails !== undefined && target.userId !== actor.userId)
    throw new AppError('FORBIDDEN', 'Only they can choose which e-mails they get.');
  const fields: Record<string, unknown> = { firstName: input.firstName, lastName: input.lastName };
  const remove: string[] = [];
  if (input.jobRole) fields.jobRole = input.jobRole;
  else if (input.jobRole === null) remove.push('jobRole');
  // Spec: a budget change takes effect at the next cycle; this cycle's budget stays.
  if (input.budget !== undefined) fields.nextBudgetCents = input.budget;
  await setUserFields(target.userId, fields, remove);
  if (input.monthlyEmails !== undefined)
    await setMonthlyEmail(target.userId, monthlyKindOf(target), input.monthlyEmails);
  if (actor.role === 'manager' && target.userId !== actor.userId) {
    await recordAudit({
      teamId: actor.teamId,
      actorId: actor.userId,
      action: 'employee.updated',
      targetId: target.userId,
      before: {
        firstName: target.firstName,
        lastName: target.lastName,
        jobRole: target.jobRole,
        // The budget the next cycle would have charged: the current one until a change is waiting.
        nextBudgetCents: target.nextBudgetCents ?? target.budgetCents,
      },
      after: {
        firstName: input.firstName,
        lastName: input.lastName,
        jobRole: input.jobRole,
        nextBudgetCents: input.budget ?? target.nextBudgetCents ?? target.budgetCents,
      },
      at: now.toISOString(),
    });
  }
  const updated = await getUser(target.userId);
  return profileView(actor, updated ?? target);
}

export const MANAGER_HAS_TEAM = 'Remove your employees before deleting your account.';

/**
 * The removal itself, the same whoever asks (a manager's delete, the daily
 * job on a person's last day): status deleted, the card cancelled with its
 * money kept in the team pool, sign-in disabled, sessions ended. `onlyIf`
 * conditions the first write (the job's: the last day is still the one it
 * read); false when it failed and nothing was done. The caller audits.
 */
export async function removeUser(
  target: UserRecord,
  now: Date,
  onlyIf?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
): Promise<boolean> {
  try {
    // Leaves the team's quiet list (gsi4) in the same write: a removed person is not "not spending".
    await updateFields(
      keys.user(target.userId),
      { status: 'deleted', deletedAt: now.toISOString() },
      { remove: ['gsi4pk', 'gsi4sk'], ...(onlyIf ? { condition: onlyIf } : {}) },
    );
  } catch (error) {
    if (onlyIf && isConditionFailure(error)) return false;
    throw error;
  }
  // The card is cancelled; its money stays on the ledger, in the team pool, for the manager.
  if (target.role === 'employee') await retireEmployeeMoney(target);
  await disableUser(target.email);
  await signOutEverywhere(target.email);
  await endAllSessions(target.userId);
  // The identity provider reads them inactive too (issue 28), however they were removed.
  if (target.role === 'employee') await markScimUserInactive(target.teamId, target.email, now.toISOString());
  return true;
}

/**
 * Soft delete (status deleted): the person can no longer sign in or call the
 * API. A manager cannot leave a team that still has active or paused employees.
 */
export async function deleteAccount(actor: Actor, userId: string, now: Date) {
  const target = await reachableUser(actor, userId);
  if (target.status === 'deleted') return profileView(actor, target);
  if (target.role === 'manager') {
    const members = await listTeamUsers(target.teamId);
    if (members.some((m) => m.role === 'employee' && (m.status === 'active' || m.status === 'paused'))) {
      throw new AppError('RULE_VIOLATED', MANAGER_HAS_TEAM);
    }
  }
  await removeUser(target, now);
  await recordAudit({
    teamId: target.teamId,
    actorId: actor.userId,
    action: target.userId === actor.userId ? 'account.deleted' : 'employee.deleted',
    targetId: target.userId,
    before: { status: target.status },
    after: { status: 'deleted' },
    at: now.toISOString(),
  });
  return profileView(actor, { ...target, status: 'deleted' });
}
