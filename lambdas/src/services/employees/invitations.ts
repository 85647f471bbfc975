/**
 * A manager invites people by e-mail (spec §5 "Invite"). Each address gets its
 * own result; registered people are not invited again; inviting again refreshes
 * the invitation (new budget) and resends the e-mail; a pending invitation of
 * another team is left alone until it is stale. Invited people cost nothing
 * until they join (decisions.md), but inviting commits the team's card to
 * their budgets: the request counts against the day's deposit limit and
 * step-up threshold before anything is stored (invitationCommitment.ts).
 *
 * A manager may also withdraw their team's pending invitations: the link then
 * refuses, as if it had never been sent (docs/decisions.md "Invitations").
 */

import { AppError } from '@shared/errors';
import {
  type inviteEmployeesInput,
  type inviteResultSchema,
  isInvitableEmail,
  type withdrawResultSchema,
} from '@shared/schemas/invitations';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import {
  getEmailOwner,
  getInvitation,
  getTeam,
  putInvitation,
  type TeamRecord,
  withdrawInvitation,
} from '../../data/accounts';
import { auditTransactItem, recordAudit } from '../../data/audit';
import { deleteScheduledStart, getScheduledStart } from '../../data/roster';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { mayEmail, sendInvitation } from '../accounts';
import { commit, commitProvisioned, settleCommitment } from '../money';
import { committedBy, invitationCommitment } from './invitationCommitment';

type InviteResult = z.output<typeof inviteResultSchema>;

export async function inviteEmployees(actor: Actor, input: z.output<typeof inviteEmployeesInput>, now: Date) {
  const [team, manager] = await Promise.all([getTeam(actor.teamId), getUser(actor.userId)]);
  if (!team || !manager) throw new AppError('NOT_FOUND', 'Your team could not be found.');
  const entries = input.emails.map((email) => ({ email, budgetCents: input.budget }));
  // Counted (or refused: step-up, daily limit) before any invitation is stored. Each request
  // counts on its own: one sent again after a failure midway counts again (stricter, never looser).
  const reservation = await commit(
    actor,
    team,
    `INVITE#${newId(now)}`,
    await invitationCommitment(actor, input.emails, input.budget),
    now,
  );
  const { results, committedCents } = await sendInvitations(team, manager, actor.userId, entries, now);
  // Addresses refused on the way (taken by another team) commit nothing: their share goes back.
  if (reservation) await settleCommitment(team, reservation, committedCents);
  return { results };
}

/** One address to invite and the monthly budget its invitation offers. */
export interface InvitationEntry {
  email: string;
  budgetCents: number;
}

/**
 * Stores and e-mails invitations of `team` from `manager`, each at its own
 * budget, and audits them (`actorId`: the manager, or the system for the
 * daily job's scheduled starts). The commitment is the caller's to count
 * first (commit); this answers what was in the end committed.
 */
export async function sendInvitations(
  team: TeamRecord,
  manager: UserRecord,
  actorId: string,
  entries: readonly InvitationEntry[],
  now: Date,
): Promise<{ results: InviteResult[]; committedCents: number }> {
  let committedCents = 0;
  const results: InviteResult[] = [];
  for (const { email, budgetCents } of entries) {
    if (!isInvitableEmail(email)) {
      results.push({ email, result: 'invalidEmail' });
      continue;
    }
    if (await getEmailOwner(email)) {
      results.push({ email, result: 'alreadyRegistered' });
      continue;
    }
    const invitation = {
      email,
      teamId: team.teamId,
      managerId: manager.userId,
      budgetCents,
      invitedAt: now.toISOString(),
    };
    const outcome = await putInvitation(invitation, now);
    if (outcome.outcome === 'heldByAnotherTeam') {
      results.push({ email, result: 'invitedByAnotherTeam' });
      continue;
    }
    const previousBudgetCents = outcome.outcome === 'updated' ? outcome.replaced.budgetCents : undefined;
    committedCents += committedBy(budgetCents, previousBudgetCents);
    // The invitation is stored either way; the e-mail only within its daily cap per address.
    const emailed = await mayEmail('invitation', email, now);
    // The e-mail carries a single-use link to this invitation, which sign-up needs. Its new
    // invitedAt has ended any earlier link, e-mailed or not ('Enter your email' sends another).
    if (emailed)
      await sendInvitation(
        invitation,
        `${manager.firstName} ${manager.lastName}`,
        team.name,
        previousBudgetCents === undefined ? {} : { replacesBudgetCents: previousBudgetCents },
        now,
      );
    results.push(
      previousBudgetCents === undefined
        ? { email, result: 'invited', budgetCents, emailed }
        : // Invited again: the new budget replaced the old one, and the manager is told from what.
          { email, result: 'reinvited', budgetCents, previousBudgetCents, emailed },
    );
  }
  // One Activity Log entry per budget invited at (one, when inviting by hand).
  const byBudget = new Map<number, InviteResult[]>();
  for (const r of results) {
    if ((r.result !== 'invited' && r.result !== 'reinvited') || r.budgetCents === undefined) continue;
    byBudget.set(r.budgetCents, [...(byBudget.get(r.budgetCents) ?? []), r]);
  }
  for (const [budgetCents, invited] of byBudget) {
    // The budgets a re-invitation replaced, so the Activity Log can say "$40.00 → $60.00" too.
    const replacedBudgets = Object.fromEntries(
      invited.flatMap((r) =>
        r.previousBudgetCents !== undefined && r.previousBudgetCents !== budgetCents
          ? [[r.email, r.previousBudgetCents]]
          : [],
      ),
    );
    await recordAudit({
      teamId: team.teamId,
      actorId,
      action: 'employees.invited',
      after: {
        emails: invited.map((r) => r.email),
        budgetCents,
        ...(Object.keys(replacedBudgets).length > 0 ? { replacedBudgets } : {}),
      },
      at: now.toISOString(),
    });
  }
  return { results, committedCents };
}

type WithdrawResult = z.output<typeof withdrawResultSchema>['result'];

/** Reads before a withdrawal, at most: the invitation can change under it (sent again, used) only so often. */
const WITHDRAW_ATTEMPTS = 3;

/**
 * Withdraws one address's pending invitation of the caller's team. The delete
 * is conditional on the invitation read, and an employee's sign-up consumes it
 * in its own transaction, so of a withdrawal and a sign-up at the same moment
 * exactly one wins: the member joined (said here as `alreadyJoined`) or the
 * sign-up is refused ('Sorry! No one invited you').
 */
async function withdrawOne(actor: Actor, email: string, now: Date): Promise<WithdrawResult> {
  for (let attempt = 0; attempt < WITHDRAW_ATTEMPTS; attempt++) {
    const invitation = await getInvitation(email, true);
    if (!invitation || invitation.teamId !== actor.teamId) {
      // Consistent reads: a sign-up that just won the race wrote its claim with the invitation's delete.
      const ownerId = await getEmailOwner(email, true);
      const owner = ownerId ? await getUser(ownerId) : undefined;
      // Another team's person, or another team's invitation, is not this manager's to know about.
      return owner?.teamId === actor.teamId ? 'alreadyJoined' : 'notInvited';
    }
    const audit = auditTransactItem(
      {
        teamId: actor.teamId,
        actorId: actor.userId,
        action: 'invitation.withdrawn',
        after: { emails: [email], budgetCents: invitation.budgetCents },
        at: now.toISOString(),
      },
      // One entry per invitation withdrawn: the same invitation cannot be withdrawn twice.
      `invitation.withdrawn#${email}#${invitation.invitedAt}`,
    );
    if (await withdrawInvitation(invitation, audit)) return 'withdrawn';
  }
  throw new AppError('CONFLICT', 'The invitation changed while it was being withdrawn. Please try again.');
}

/**
 * A roster row waiting for its start day (issue 28) is withdrawn as an
 * invitation is: it is cancelled (audited) and never sent. False when the team
 * has none for the address.
 */
async function cancelScheduledStart(actor: Actor, email: string, now: Date): Promise<boolean> {
  const start = await getScheduledStart(actor.teamId, email, true);
  if (!start) return false;
  return deleteScheduledStart(start, {
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'invitation.scheduleCancelled',
    after: { email, startDay: start.startDay, budgetCents: start.budgetCents },
    at: now.toISOString(),
  });
}

export async function withdrawInvitations(actor: Actor, emails: readonly string[], now: Date) {
  const results: { email: string; result: WithdrawResult }[] = [];
  for (const email of emails) {
    if (!isInvitableEmail(email)) results.push({ email, result: 'invalidEmail' });
    else if (await cancelScheduledStart(actor, email, now)) results.push({ email, result: 'withdrawn' });
    else results.push({ email, result: await withdrawOne(actor, email, now) });
  }
  return { results };
}

// --- Invitations by the team's identity provider (SCIM, issue 28) ---------------------

/** Who invites when the identity provider adds someone: the token's manager, named in the log by the token. */
export interface ProvisionedInviter {
  teamId: string;
  /** The manager who made the token: the invitation e-mail comes in their name. */
  managerId: string;
  /** The Activity Log's actor (the token). */
  auditActorId: string;
}

export type ProvisionedInvitation =
  /** Invited now (e-mailed unless the address had its daily invitation e-mails). */
  | { result: 'invited'; emailed: boolean }
  /** The team had already invited the address: that invitation stands, nothing is sent again. */
  | { result: 'alreadyInvited'; budgetCents: number }
  /** Already a member of this team (invited by hand and joined): adopted as it is. */
  | { result: 'member'; userId: string }
  /** The address belongs to another team's account or pending invitation. */
  | { result: 'elsewhere' };

/**
 * Invites one address for the identity provider, through the same records
 * and e-mail as a manager's invitation, counted against the daily deposit
 * limit before anything is stored (refused: LIMIT_EXCEEDED, nothing stored,
 * nobody e-mailed). Unlike the manager's, it never invites again an address
 * the team has already invited: an identity provider retrying must not
 * e-mail the person twice.
 */
export async function inviteProvisioned(
  inviter: ProvisionedInviter,
  email: string,
  budgetCents: number,
  requestKey: string,
  now: Date,
): Promise<ProvisionedInvitation> {
  const ownerId = await getEmailOwner(email, true);
  if (ownerId) {
    const owner = await getUser(ownerId);
    return owner?.teamId === inviter.teamId && owner.role === 'employee'
      ? { result: 'member', userId: owner.userId }
      : { result: 'elsewhere' };
  }
  const pending = await getInvitation(email, true);
  if (pending?.teamId === inviter.teamId)
    return { result: 'alreadyInvited', budgetCents: pending.budgetCents };
  const [team, manager] = await Promise.all([getTeam(inviter.teamId), getUser(inviter.managerId)]);
  if (!team || !manager) throw new AppError('NOT_FOUND', 'The team could not be found.');
  const reservation = await commitProvisioned(team, `SCIM#${requestKey}`, budgetCents, now);
  const invitation = {
    email,
    teamId: inviter.teamId,
    managerId: inviter.managerId,
    budgetCents,
    invitedAt: now.toISOString(),
  };
  const outcome = await putInvitation(invitation, now);
  if (outcome.outcome === 'heldByAnotherTeam') {
    if (reservation) await settleCommitment(team, reservation, 0);
    return { result: 'elsewhere' };
  }
  const emailed = await mayEmail('invitation', email, now);
  if (emailed)
    await sendInvitation(invitation, `${manager.firstName} ${manager.lastName}`, team.name, {}, now);
  await recordAudit({
    teamId: inviter.teamId,
    actorId: inviter.auditActorId,
    action: 'employees.invited',
    after: { emails: [email], budgetCents },
    at: now.toISOString(),
  });
  return { result: 'invited', emailed };
}
