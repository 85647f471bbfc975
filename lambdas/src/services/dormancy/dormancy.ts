/**
 * Dormancy (docs/decisions.md "Dormancy"): an employee with no purchase for 11
 * months gets their manager warned; at 12, 12.5 and 13 months both are told;
 * once the 13-month notice is received (24 hours) the card becomes inactive
 * (issuer first, then our record, reason `dormant`) and the person is paused.
 * The money stays on their card account for the manager to reallocate or redeem.
 *
 * Access pattern: each employee is listed under the UTC day the job next has
 * to look at them (gsi2 `DORMANCYDUE#<day>`), so a run reads only the people
 * due, whatever the number of teams. A run also reads the days since the last
 * finished run (at most LOOKBACK_DAYS): anyone a missed or failed day left
 * behind is caught up, and each notice missed is still sent (in order), never
 * skipped. A person whose processing failed stays listed under their day and is
 * read again while that day is within the window.
 *
 * Each notice is claimed on the user (its sending time, condition: not sent,
 * clock unchanged) before the e-mail goes, so a second run sends nothing twice.
 * The deactivation is written with its Activity Log entry (services/team/systemAudit.ts)
 * under the same condition, so it is logged once.
 */
import { deactivationDue, inactiveFrom, nextDormancyDay, noticesDue } from '@shared/domain/dormancy';
import { setCardStatus as setIssuerCardStatus } from '../../adapters/stripe';
import { getTeam, zoneOf } from '../../data/accounts';
import { type CardRecord, getCard, updateCard } from '../../data/cards';
import { claimNotice, dueOn, recordDeactivation, relist } from '../../data/dormancy';
import { lastFinishedRunBefore } from '../../data/jobRuns';
import { getUser, type UserRecord } from '../../data/users';
import type { Logger } from '../../platform/log';
import { dormantEntry } from '../team';
import { sendDormancyNotice, sendDormancyWarning } from './dormancyEmails';

/** People handled side by side within a day's list. */
const CONCURRENCY = 8;

/** How far back a run looks for people a missed day left behind. */
export const LOOKBACK_DAYS = 45;

export interface DormancyRunSummary {
  warnings: number;
  notices: number;
  deactivated: number;
  failed: number;
}

function dayBefore(day: string, n: number): string {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - n);
  return t.toISOString().slice(0, 10);
}

function nameOf(user: UserRecord): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** Makes the card inactive for dormancy, beside any other freeze reason; the card it changed. */
async function deactivateCard(cardId: string): Promise<CardRecord | undefined> {
  const card = await getCard(cardId);
  if (!card || card.status === 'canceled') return undefined;
  // Issuer first: if it fails, our record still says active and the next run tries again.
  if (card.status !== 'inactive') await setIssuerCardStatus(card.cardId, 'inactive');
  await updateCard(card.cardId, { status: 'inactive', freeze: { ...card.freeze, dormant: true } });
  return card;
}

async function runPerson(
  user: UserRecord,
  now: Date,
  managerOf: (teamId: string) => Promise<{ manager?: UserRecord; zone: string }>,
  summary: DormancyRunSummary,
) {
  const quietSince = user.quietSince;
  if (!quietSince) return;
  if (user.status === 'deleted' || user.role !== 'employee') {
    await relist(user, undefined);
    return;
  }
  const record = { ...user.dormancy };
  const { manager, zone } = await managerOf(user.teamId);
  const stopDay = inactiveFrom(quietSince, zone);
  for (const notice of noticesDue(quietSince, record, now)) {
    const sentAt = now.toISOString();
    // A purchase restarted the clock, or another run sent it: stop here.
    if (!(await claimNotice(user, notice, sentAt))) return;
    record[notice] = sentAt;
    if (notice === 'warning11') {
      if (manager) await sendDormancyWarning(manager, nameOf(user), stopDay);
      summary.warnings++;
    } else {
      await sendDormancyNotice(notice, user, manager, nameOf(user), stopDay);
      summary.notices++;
    }
  }
  if (deactivationDue(quietSince, record, now)) {
    const card = user.cardId ? await deactivateCard(user.cardId) : undefined;
    // The pause and its Activity Log entry are one write, made once per dormancy clock.
    const at = now.toISOString();
    if (!(await recordDeactivation(user, at, dormantEntry(user, card, at)))) return;
    record.deactivatedAt = now.toISOString();
    summary.deactivated++;
  }
  await relist(user, nextDormancyDay(quietSince, record));
}

/**
 * From the last finished run's day (so the days missed since, and anyone that
 * run failed on, are read again), at most LOOKBACK_DAYS; LOOKBACK_DAYS when no run finished yet.
 */
async function daysToLookBack(today: string): Promise<number> {
  const last = await lastFinishedRunBefore('dormancyNotices', today);
  if (!last) return LOOKBACK_DAYS;
  // That day itself too: someone it failed on is still listed under it.
  const days = Math.round((Date.parse(today) - Date.parse(last)) / (24 * 60 * 60 * 1000));
  return Math.min(Math.max(days, 0), LOOKBACK_DAYS);
}

/** The daily run. One person's failure is logged and counted; the rest go on. */
export async function runDormancy(now: Date, log: Logger): Promise<DormancyRunSummary> {
  const summary: DormancyRunSummary = { warnings: 0, notices: 0, deactivated: 0, failed: 0 };
  const managers = new Map<string, Promise<{ manager?: UserRecord; zone: string }>>();
  const managerOf = (teamId: string) => {
    let found = managers.get(teamId);
    if (!found) {
      found = getTeam(teamId).then(async (team) => ({
        manager: team ? await getUser(team.managerId) : undefined,
        zone: zoneOf(team),
      }));
      managers.set(teamId, found);
    }
    return found;
  };
  const today = now.toISOString().slice(0, 10);
  for (let back = await daysToLookBack(today); back >= 0; back--) {
    const due = await dueOn(dayBefore(today, back));
    let next = 0;
    // People are independent (each write is conditioned on their own record): a few at a time.
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, due.length) }, async () => {
        while (next < due.length) {
          const user = due[next++] as UserRecord;
          try {
            await runPerson(user, now, managerOf, summary);
          } catch (error) {
            summary.failed++;
            log.error('dormancy failed for a person', {
              userId: user.userId,
              error: error instanceof Error ? error.message : 'unknown',
            });
          }
        }
      }),
    );
  }
  return summary;
}
