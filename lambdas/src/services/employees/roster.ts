/**
 * People who join and leave by themselves (issue 28, parts 2 and 3).
 *
 * Roster import: the browser checks every row before anything happens; here
 * the same rows are checked again (shared/src/schemas/roster.ts `checkRoster`,
 * with the team's own members, invitations and scheduled starts) and a file
 * with any bad row is refused whole, its messages per line: nothing happens
 * until every row is right. Then, after the whole file's new commitments are
 * counted once (step-up, daily limit: services/money/commitments.ts), rows
 * starting today are invited as by hand (invitations.ts `sendInvitations`) and
 * rows starting later are stored as scheduled starts, which the daily job
 * invites on their day in the team's calendar. A scheduled start's budget is
 * counted the day it is imported, while the manager is there to prove a
 * factor; the job's invitation does not count it again. Idempotent per team
 * and address: a member, a pending invitation or a scheduled start of the
 * team is "already there" and changes nothing, so the same file twice does
 * nothing twice.
 *
 * Offboarding date: a manager sets (or clears) an employee's last day; on that
 * day in the team's calendar the daily job removes them as the manager's
 * delete does (card cancelled, money to the pool, billing stops), logs it as
 * the system's and e-mails the manager.
 */
import { SYSTEM_ACTOR } from '@shared/domain/auditLog';
import { type Day, dayIn, formatUsDay } from '@shared/domain/calendar';
import { AppError } from '@shared/errors';
import {
  type AlreadyThere,
  checkRoster,
  type importRosterInput,
  type rosterResultSchema,
  type setLastDayInput,
} from '@shared/schemas/roster';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import { sendEmail } from '../../adapters/email';
import {
  getEmailOwner,
  getInvitation,
  getTeam,
  listTeamInvitations,
  listTeamUsers,
  type TeamRecord,
  zoneOf,
} from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import {
  deleteScheduledStart,
  lastDaysOn,
  leaveLastDayList,
  listScheduledStarts,
  putScheduledStart,
  type ScheduledStartRecord,
  scheduledStartsOn,
  setLastDay as storeLastDay,
} from '../../data/roster';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { webConfig } from '../../platform/config';
import type { Logger } from '../../platform/log';
import { removeUser } from '../accounts';
import { commit, commitmentNeedsFreshFactor, settleCommitment } from '../money';
import { sendInvitations } from './invitations';

type RosterResult = z.output<typeof rosterResultSchema>;

async function teamAndManager(actor: Actor) {
  const [team, manager] = await Promise.all([getTeam(actor.teamId), getUser(actor.userId)]);
  if (!team || !manager) throw new AppError('NOT_FOUND', 'Your team could not be found.');
  return { team, manager };
}

/** Where each address already is on the team: members (any status), pending invitations, scheduled starts. */
async function teamAddresses(teamId: string): Promise<Map<string, AlreadyThere>> {
  const [users, invitations, scheduled] = await Promise.all([
    listTeamUsers(teamId),
    listTeamInvitations(teamId),
    listScheduledStarts(teamId),
  ]);
  const map = new Map<string, AlreadyThere>();
  for (const s of scheduled) map.set(s.email, 'scheduled');
  for (const i of invitations) map.set(i.email, 'invited');
  for (const u of users) map.set(u.email, 'member');
  return map;
}

/**
 * The file checked against the team: every row's errors (refused whole when
 * any), the rows already there, and the fresh rows whose budgets the import
 * would commit today.
 */
async function planRoster(team: TeamRecord, input: z.output<typeof importRosterInput>, now: Date) {
  const today = dayIn(now, zoneOf(team));
  const known = await teamAddresses(team.teamId);
  const checked = checkRoster(input.rows, today, (email) => known.get(email));
  const bad = checked.filter((r) => r.errors.length > 0);
  const results = new Map<number, RosterResult>();
  const fresh: typeof checked = [];
  if (bad.length === 0) {
    for (const row of checked) {
      if (row.already) results.set(row.line, { line: row.line, email: row.email, result: 'alreadyThere' });
      else if (await getEmailOwner(row.email)) {
        results.set(row.line, { line: row.line, email: row.email, result: 'alreadyRegistered' });
      } else fresh.push(row);
    }
  }
  const cents = fresh.reduce((sum, r) => sum + (r.budgetCents ?? 0), 0);
  return { today, checked, bad, results, fresh, cents };
}

/**
 * Before importing (read-only): whether the file's new budgets would take the
 * team's day past the step-up threshold, so the browser asks 'Confirm it is
 * you' before sending (docs/decisions.md "Step-up asked before sending").
 */
export async function previewRoster(actor: Actor, input: z.output<typeof importRosterInput>, now: Date) {
  const { team } = await teamAndManager(actor);
  const { cents } = await planRoster(team, input, now);
  return { needsFreshFactor: await commitmentNeedsFreshFactor(actor, cents, now) };
}

export async function importRoster(actor: Actor, input: z.output<typeof importRosterInput>, now: Date) {
  if (input.preview) return { results: [], ...(await previewRoster(actor, input, now)) };
  const { team, manager } = await teamAndManager(actor);
  if (team.subscription === 'closed')
    throw new AppError('RULE_VIOLATED', 'This subscription is closed: nobody new can be invited.');
  const { today, checked, bad, results, fresh, cents } = await planRoster(team, input, now);
  if (bad.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${bad.length === 1 ? '1 row needs' : `${bad.length} rows need`} a fix; nothing was imported.`,
      { fields: Object.fromEntries(bad.map((r) => [`line ${r.line}`, r.errors.join('. ')])) },
    );
  }
  // The whole file's new commitments, counted (or refused) once, before anything is stored.
  const reservation = await commit(actor, team, `ROSTER#${newId(now)}`, cents, now);
  let committedCents = 0;

  const startingNow = fresh.filter((r) => (r.startDay ?? today) <= today);
  const invited = await sendInvitations(
    team,
    manager,
    actor.userId,
    startingNow.map((r) => ({ email: r.email, budgetCents: r.budgetCents ?? 0 })),
    now,
  );
  committedCents += invited.committedCents;
  startingNow.forEach((row, i) => {
    const answer = invited.results[i];
    const result =
      answer?.result === 'invitedByAnotherTeam' || answer?.result === 'alreadyRegistered'
        ? answer.result
        : answer?.result === 'reinvited'
          ? // A pending invitation the lists had not caught up with yet: it was there.
            'alreadyThere'
          : 'invited';
    results.set(row.line, {
      line: row.line,
      email: row.email,
      result,
      startDay: today,
      budgetCents: row.budgetCents,
      ...(answer?.emailed !== undefined ? { emailed: answer.emailed } : {}),
    });
  });

  for (const row of fresh.filter((r) => (r.startDay ?? today) > today)) {
    const start: ScheduledStartRecord = {
      teamId: team.teamId,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      budgetCents: row.budgetCents ?? 0,
      startDay: row.startDay as Day,
      managerId: actor.userId,
      createdAt: now.toISOString(),
    };
    const stored = await putScheduledStart(start, {
      teamId: team.teamId,
      actorId: actor.userId,
      action: 'invitation.scheduled',
      after: { email: row.email, startDay: start.startDay, budgetCents: start.budgetCents },
      at: now.toISOString(),
    });
    if (stored) committedCents += start.budgetCents;
    results.set(row.line, {
      line: row.line,
      email: row.email,
      result: stored ? 'scheduled' : 'alreadyThere',
      startDay: start.startDay,
      budgetCents: start.budgetCents,
    });
  }
  // Rows refused on the way (another team's invitation, a race) commit nothing: their share goes back.
  if (reservation) await settleCommitment(team, reservation, committedCents);
  return { results: checked.flatMap((r) => results.get(r.line) ?? []) };
}

/** The team's scheduled starts, soonest first (the Employees screen). */
export async function scheduledStartsOf(teamId: string) {
  const starts = await listScheduledStarts(teamId);
  return starts
    .map(({ email, firstName, lastName, budgetCents, startDay }) => ({
      email,
      firstName,
      lastName,
      budgetCents: Number(budgetCents),
      startDay,
    }))
    .sort((a, b) => a.startDay.localeCompare(b.startDay) || a.email.localeCompare(b.email));
}

// --- Offboarding date ------------------------------------------------------------

export async function setLastDay(actor: Actor, input: z.output<typeof setLastDayInput>, now: Date) {
  const target = await getUser(input.userId);
  if (!target || target.teamId !== actor.teamId || target.role !== 'employee')
    throw new AppError('NOT_FOUND', 'No such person on your team.');
  if (target.status === 'deleted') throw new AppError('CONFLICT', 'This person was already removed.');
  const previous = target.lastDay ?? null;
  if (input.lastDay === previous) return { userId: target.userId, lastDay: previous };
  if (input.lastDay !== null) {
    const team = await getTeam(actor.teamId);
    const today = dayIn(now, zoneOf(team));
    if (input.lastDay < today)
      throw new AppError('VALIDATION_FAILED', 'The last day cannot be in the past.', {
        fields: { lastDay: 'The last day cannot be in the past.' },
      });
  }
  const stored = await storeLastDay(target.userId, input.lastDay, {
    teamId: actor.teamId,
    actorId: actor.userId,
    action: input.lastDay === null ? 'employee.lastDayCleared' : 'employee.lastDaySet',
    targetId: target.userId,
    before: { lastDay: previous },
    after: { lastDay: input.lastDay },
    at: now.toISOString(),
  });
  if (!stored) throw new AppError('CONFLICT', 'This person was already removed.');
  return { userId: target.userId, lastDay: input.lastDay };
}

// --- The daily job -------------------------------------------------------------------

/** How far back a run reads the day lists: anything a missed or failed run left there is done late, not never. */
export const LOOKBACK_DAYS = 45;
/** The zone furthest ahead (UTC+14): no team's today is later than its today. */
const EARLIEST_ZONE = 'Pacific/Kiritimati';

function addDays(day: Day, n: number): Day {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

/** The days whose lists a run reads: LOOKBACK_DAYS back from UTC today, up to the furthest zone's today. */
function daysToRead(now: Date): Day[] {
  const days: Day[] = [];
  const last = dayIn(now, EARLIEST_ZONE);
  for (let day = addDays(now.toISOString().slice(0, 10), -LOOKBACK_DAYS); day <= last; day = addDays(day, 1))
    days.push(day);
  return days;
}

function link(path: string): string {
  return new URL(path, webConfig().WEB_ORIGIN).toString();
}

async function sendRemovedEmail(manager: UserRecord, employee: UserRecord, lastDay: Day) {
  const name = `${employee.firstName} ${employee.lastName}`.trim();
  await sendEmail({
    to: [manager.email],
    subject: `${name} was removed on their last day`,
    text: [
      `Hi ${manager.firstName},`,
      '',
      `${name} (${employee.email}) was removed from your team today, ${formatUsDay(lastDay)}, the last day you set.`,
      'Their card is cancelled, they are no longer billed, and the money left on their card is in the team pool for you to reallocate or redeem.',
      '',
      `Employees: ${link('/dashboard/employees')}`,
    ].join('\n'),
  });
}

export interface PeopleScheduleSummary {
  invited: number;
  removed: number;
  failed: number;
}

/**
 * Invites the scheduled starts whose day has come and removes the people
 * whose last day has come, each on the day in their team's calendar. Both
 * are read from their day lists (gsi3), never by scanning teams; an item
 * leaves its list only once done, so a failure is tried again next run.
 */
export async function runPeopleSchedule(now: Date, log: Logger): Promise<PeopleScheduleSummary> {
  const summary: PeopleScheduleSummary = { invited: 0, removed: 0, failed: 0 };
  const teams = new Map<string, Promise<TeamRecord | undefined>>();
  const teamOf = (teamId: string) => {
    let team = teams.get(teamId);
    if (!team) {
      team = getTeam(teamId);
      teams.set(teamId, team);
    }
    return team;
  };
  for (const day of daysToRead(now)) {
    for (const start of await scheduledStartsOn(day)) {
      try {
        if (await startOne(start, await teamOf(start.teamId), now)) summary.invited++;
      } catch (error) {
        summary.failed++;
        log.error('scheduled start failed', { teamId: start.teamId, error: String(error) });
      }
    }
    for (const user of await lastDaysOn(day)) {
      try {
        if (await removeOnLastDay(user, await teamOf(user.teamId), now)) summary.removed++;
      } catch (error) {
        summary.failed++;
        log.error('last day removal failed', { userId: user.userId, error: String(error) });
      }
    }
  }
  return summary;
}

/** One scheduled start on or after its day: invited (unless already there), then off the list. */
async function startOne(
  start: ScheduledStartRecord,
  team: TeamRecord | undefined,
  now: Date,
): Promise<boolean> {
  if (team && dayIn(now, zoneOf(team)) < start.startDay) return false;
  let sent = false;
  // A closed team takes nobody new; its scheduled starts just end.
  if (team && team.subscription !== 'closed') {
    const pending = await getInvitation(start.email, true);
    // Invited already (a run that failed after sending, or by hand since): not again.
    if (pending?.teamId !== team.teamId) {
      const manager = (await getUser(start.managerId)) ?? (await getUser(team.managerId));
      if (manager) {
        const { results } = await sendInvitations(
          team,
          manager,
          SYSTEM_ACTOR,
          [{ email: start.email, budgetCents: Number(start.budgetCents) }],
          now,
        );
        sent = results[0]?.result === 'invited' || results[0]?.result === 'reinvited';
      }
    }
  }
  await deleteScheduledStart(start);
  return sent;
}

/** One person on or after their last day: removed as by the manager's delete, unless the day was cleared. */
async function removeOnLastDay(user: UserRecord, team: TeamRecord | undefined, now: Date): Promise<boolean> {
  const lastDay = user.lastDay;
  if (!team || !lastDay || user.status === 'deleted') {
    await leaveLastDayList(user.userId);
    return false;
  }
  if (dayIn(now, zoneOf(team)) < lastDay) return false;
  // Conditioned on the day read: a manager clearing or moving it a moment ago wins.
  const removed = await removeUser(user, now, {
    expression: 'lastDay = :day AND #status <> :deleted',
    names: { '#status': 'status' },
    values: { ':day': lastDay, ':deleted': 'deleted' },
  });
  if (!removed) return false;
  await recordAudit({
    teamId: user.teamId,
    actorId: SYSTEM_ACTOR,
    action: 'employee.offboarded',
    targetId: user.userId,
    before: { status: user.status },
    after: { status: 'deleted', lastDay },
    at: now.toISOString(),
  });
  const manager = await getUser(team.managerId);
  if (manager && manager.status !== 'deleted') await sendRemovedEmail(manager, user, lastDay);
  await leaveLastDayList(user.userId);
  return true;
}
