/**
 * New monthly commitments (issue 24, attack 2). Inviting someone commits the
 * team's card to their budget every month from the day they join; raising a
 * budget commits the raise from the next cycle. Neither moves money today,
 * yet once made it is out of the manager's hands: the invited address signs
 * up, the renewal runs. So a day's new commitments count against the team's
 * daily deposit limit (the same counter as deposits, refused in the same
 * words), and the step-up threshold counts them with what was moved today.
 *
 * What counts, in cents, on the day it is made:
 * - an invitation: the monthly budget it offers; inviting an address again,
 *   only what the new budget adds to its pending invitation's;
 * - a budget change: what the new next-cycle budget adds to the one it
 *   replaces, only when positive.
 * Nothing is given back: a decrease, a withdrawal or an invitation never used
 * leaves the day's count as it is (otherwise lowering and raising again, or
 * withdrawing and inviting again, would commit without limit).
 *
 * Each commitment is a reservation of the deposit limit under a request key
 * starting `COMMIT#<day>#`, so what was committed today is one query.
 */
import { limitDay } from '@shared/domain/moneyLimits';
import type { TeamRecord } from '../../data/accounts';
import { reservedUnder } from '../../data/moneyLimits';
import type { Actor } from '../../platform/auth';
import { needsFreshFactorAbove, requireFreshFactor } from '../../platform/freshFactor';
import { movedToday } from './movedToday';
import { checkWithinLimit, reserveWithinLimit, settleWithinLimit } from './velocityLimits';

function commitmentPrefix(now: Date): string {
  return `COMMIT#${limitDay(now)}#`;
}

/** What the team committed today (UTC) by invitations and budget raises, in cents. */
export async function committedToday(teamId: string, now: Date): Promise<number> {
  return reservedUnder(teamId, 'deposit', commitmentPrefix(now));
}

/**
 * What the step-up threshold counts for the team today: money moved by
 * deposits and reallocations, and new monthly commitments. The request's own
 * amount is added by the caller.
 */
export async function movedOrCommittedToday(teamId: string, now: Date): Promise<number> {
  const [moved, committed] = await Promise.all([movedToday(teamId, now), committedToday(teamId, now)]);
  return moved + committed;
}

/**
 * Whether committing `cents` more would take the team's day past the step-up
 * threshold: what `commit` and `checkCommitment` then ask a fresh factor for,
 * and what the invitation and budget previews answer (`needsFreshFactor`), so
 * the web app asks before sending rather than after a refusal.
 */
export async function commitmentNeedsFreshFactor(actor: Actor, cents: number, now: Date): Promise<boolean> {
  if (cents <= 0) return false;
  return needsFreshFactorAbove(actor, (await movedOrCommittedToday(actor.teamId, now)) + cents);
}

/** Asks for a fresh factor when `cents` more would take the team's day past the step-up threshold. */
async function stepUpFor(actor: Actor, cents: number, now: Date): Promise<void> {
  if (await commitmentNeedsFreshFactor(actor, cents, now)) await requireFreshFactor(actor, now);
}

/**
 * For a request that must know before it does anything else (the setup
 * wizard creates the team's customer before it invites): refuses as
 * `commit` would (step-up, then the daily limit), writes nothing.
 */
export async function checkCommitment(actor: Actor, team: TeamRecord, cents: number, now: Date) {
  if (cents <= 0) return;
  await stepUpFor(actor, cents, now);
  await checkWithinLimit(team, 'deposit', cents, now);
}

/**
 * Counts a new commitment of `cents` before it is stored: a fresh factor when
 * the day passes the step-up threshold, then today's deposit limit (refused
 * with it named, as a deposit is). `key` names the request; callers make it
 * unique, so a request sent again after failing midway counts again (stricter,
 * never looser). Returns the reservation, for `settleCommitment`; undefined
 * when nothing was committed.
 */
export async function commit(
  actor: Actor,
  team: TeamRecord,
  key: string,
  cents: number,
  now: Date,
): Promise<string | undefined> {
  if (cents <= 0) return undefined;
  await stepUpFor(actor, cents, now);
  return reserveWithinLimit(team, 'deposit', `${commitmentPrefix(now)}${key}`, cents, now);
}

/** Lowers a commitment to what was in the end committed (addresses refused on the way). */
export async function settleCommitment(team: TeamRecord, reservationId: string, committedCents: number) {
  await settleWithinLimit(team, 'deposit', reservationId, committedCents);
}

/**
 * A commitment made by the team's identity provider (SCIM, issue 28): counted
 * against today's deposit limit like any other, refused in the same words.
 * No step-up: nobody is there to prove a factor. The manager proved one to
 * make the provisioning token and to set the budgets it invites with, and the
 * daily limit caps what a leaked token could commit (docs/decisions.md).
 */
export async function commitProvisioned(
  team: TeamRecord,
  key: string,
  cents: number,
  now: Date,
): Promise<string | undefined> {
  if (cents <= 0) return undefined;
  return reserveWithinLimit(team, 'deposit', `${commitmentPrefix(now)}${key}`, cents, now);
}
