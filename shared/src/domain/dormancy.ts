/**
 * Dormancy (decisions.md "Policies"; our choices in docs/decisions.md
 * "Dormancy"): pure rules, no I/O. The clock starts at `quietSince`: the last
 * purchase, else when the card was issued, else when a manager reactivated the
 * person, whichever is latest. Months are calendar months (UTC, clamped to the
 * month's last day); "12.5 months" is 12 months and 15 days.
 */

import { jobs } from '../api/schedules';
import { dayIn } from './calendar';

/** The notices, in the order they fall due. `warning11` goes to the manager only. */
export const DORMANCY_NOTICES = ['warning11', 'notice12', 'notice12half', 'notice13'] as const;
export type DormancyNotice = (typeof DORMANCY_NOTICES)[number];

/**
 * What was done, and when (ISO): each notice's sending time, the deactivation,
 * and `keptManagerPause` (the deactivation's time) when a manager had paused
 * the person already: activating the card then ends the dormancy but not that
 * pause, so billing does not restart behind the manager's back.
 */
export type DormancyRecord = Partial<Record<DormancyNotice | 'deactivatedAt' | 'keptManagerPause', string>>;

/** A notice counts as received 24 hours after it was sent (decisions.md). */
export const NOTICE_RECEIVED_AFTER_MS = 24 * 60 * 60 * 1000;

/** `iso` plus whole calendar months, the day clamped to the target month's last day. */
export function addMonths(iso: string, months: number): Date {
  const from = new Date(iso);
  const target = new Date(
    Date.UTC(
      from.getUTCFullYear(),
      from.getUTCMonth() + months,
      1,
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When each notice falls due for a clock started at `quietSince`. */
export function noticeDueAt(quietSince: string, notice: DormancyNotice): Date {
  switch (notice) {
    case 'warning11':
      return addMonths(quietSince, 11);
    case 'notice12':
      return addMonths(quietSince, 12);
    case 'notice12half':
      return new Date(addMonths(quietSince, 12).getTime() + 15 * DAY_MS);
    case 'notice13':
      return addMonths(quietSince, 13);
  }
}

/**
 * When the card is deactivated: 13 months after the clock started, and never
 * before the 13-month notice has been received (24 hours after it was sent), so
 * nobody's card stops on the day they are told.
 */
export function deactivationDueAt(quietSince: string, record: DormancyRecord): Date | undefined {
  if (!record.notice13) return undefined;
  return new Date(
    Math.max(
      noticeDueAt(quietSince, 'notice13').getTime(),
      new Date(record.notice13).getTime() + NOTICE_RECEIVED_AFTER_MS,
    ),
  );
}

/** Notices due by `now` and not sent yet, in order: a missed day catches up, never skips one. */
export function noticesDue(quietSince: string, record: DormancyRecord, now: Date): DormancyNotice[] {
  return DORMANCY_NOTICES.filter((n) => !record[n] && noticeDueAt(quietSince, n) <= now);
}

export function deactivationDue(quietSince: string, record: DormancyRecord, now: Date): boolean {
  if (record.deactivatedAt) return false;
  const at = deactivationDueAt(quietSince, record);
  return at !== undefined && at <= now;
}

/**
 * The UTC day (`yyyy-mm-dd`) the daily job should next look at this person: the
 * next notice not yet sent, else the deactivation; undefined once deactivated.
 */
export function nextDormancyDay(quietSince: string, record: DormancyRecord): string | undefined {
  if (record.deactivatedAt) return undefined;
  const next = DORMANCY_NOTICES.find((n) => !record[n]);
  const at = next ? noticeDueAt(quietSince, next) : deactivationDueAt(quietSince, record);
  return at?.toISOString().slice(0, 10);
}

/** What the person and their manager see: nothing, a warning, a notice with its date, or dormant. */
export type DormancyStage = 'active' | 'warned' | 'noticed' | 'dormant';

export function dormancyStage(record: DormancyRecord | undefined): DormancyStage {
  if (!record) return 'active';
  if (record.deactivatedAt) return 'dormant';
  if (record.notice12 || record.notice12half || record.notice13) return 'noticed';
  if (record.warning11) return 'warned';
  return 'active';
}

/** The dormancy job's hour (UTC, its EventBridge cron): notices go and cards stop at its daily runs. */
const JOB_HOUR_UTC = Number(jobs.dormancyNotices.cron.hour);

/**
 * The day the card stops if nothing is bought (`yyyy-mm-dd` in the team's
 * zone, like every date the product prints: the day of the run
 * after the one that sends the 13-month notice, since the card stops only once
 * that notice has been received (deactivationDueAt). Said in every notice and
 * banner, so it must be the day the job really does it, not the 13-month mark
 * (a day earlier, and two when the clock started after the job's hour). A
 * missed run can only make it later, never earlier.
 */
export function inactiveFrom(quietSince: string, zone: string): string {
  const mark = noticeDueAt(quietSince, 'notice13');
  const noticeRun = new Date(
    Date.UTC(mark.getUTCFullYear(), mark.getUTCMonth(), mark.getUTCDate(), JOB_HOUR_UTC),
  );
  if (noticeRun < mark) noticeRun.setUTCDate(noticeRun.getUTCDate() + 1);
  noticeRun.setUTCDate(noticeRun.getUTCDate() + 1);
  return dayIn(noticeRun, zone);
}

/** What the app shows: the stage and, until dormant, the day the card stops. */
export function dormancyViewOf(
  quietSince: string | undefined,
  record: DormancyRecord | undefined,
  zone: string,
): { stage: DormancyStage; inactiveFrom: string | null } {
  const stage = dormancyStage(record);
  return {
    stage,
    inactiveFrom: quietSince && stage !== 'dormant' ? inactiveFrom(quietSince, zone) : null,
  };
}
