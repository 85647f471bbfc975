/**
 * When the product's policies act, for tests that let time pass: computed from
 * the policy constants (receipt deadlines, dormancy months, the billing cycle)
 * and the job schedule of shared/src/api/schedules.ts, not from dates written
 * into the test. A policy acts on the first run of its job at or after the
 * moment it names.
 */

import { type JobId, jobs } from '@shared/api/schedules';
import {
  addBusinessDays,
  RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE,
  receiptDueDay,
} from '@shared/domain/businessDays';
import { DEFAULT_TIME_ZONE, dayIn } from '@shared/domain/calendar';
import {
  addMonths,
  DORMANCY_NOTICES,
  type DormancyNotice,
  NOTICE_RECEIVED_AFTER_MS,
} from '@shared/domain/dormancy';
import { nextFireTime } from '../../infra/local/scheduler';

/** The first run of `job` at or after `at`. */
export function firstRun(job: JobId, at: Date): Date {
  const run = nextFireTime(jobs[job].cron, new Date(at.getTime() - 60_000));
  return run < at ? nextFireTime(jobs[job].cron, run) : run;
}

/** Every run of `job` after `from`, up to and including `to`. */
export function runsBetween(job: JobId, from: Date, to: Date): Date[] {
  const runs: Date[] = [];
  for (let at = nextFireTime(jobs[job].cron, from); at <= to; at = nextFireTime(jobs[job].cron, at))
    runs.push(at);
  return runs;
}

/**
 * The funding job's runs that renew a team set up at `setupAt`, for the
 * `months` months after: the cycle is anchored on the setup day (UTC), on the
 * month's last day when the month is shorter; the setup month itself is paid
 * by the joining charges.
 */
export function renewalRuns(setupAt: Date, months: number, cycleDay = setupAt.getUTCDate()): Date[] {
  return Array.from({ length: months }, (_, i) => {
    const day = new Date(Date.UTC(setupAt.getUTCFullYear(), setupAt.getUTCMonth() + i + 1, 1));
    const lastDay = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0)).getUTCDate();
    day.setUTCDate(Math.min(cycleDay, lastDay));
    return firstRun('monthlyFunding', day);
  });
}

export interface DormancyTimeline {
  notices: { notice: DormancyNotice; at: Date }[];
  /** When the card became inactive and the person paused, if it came to that. */
  deactivatedAt?: Date;
}

/**
 * When each dormancy notice falls due, as the policy words it (decisions.md
 * "Dormancy"): calendar months after the clock started, "12.5 months" being 12
 * months and 15 days. Written out here rather than taken from the product's
 * `noticeDueAt`, so the scenario checks the product against the policy.
 */
const NOTICE_AFTER: Record<DormancyNotice, { months: number; days: number }> = {
  warning11: { months: 11, days: 0 },
  notice12: { months: 12, days: 0 },
  notice12half: { months: 12, days: 15 },
  notice13: { months: 13, days: 0 },
};

function noticeMoment(since: Date, notice: DormancyNotice): Date {
  const { months, days } = NOTICE_AFTER[notice];
  return new Date(addMonths(since.toISOString(), months).getTime() + days * 24 * 60 * 60 * 1000);
}

/**
 * What the dormancy job does for a clock started at `since` that runs until
 * `stop` (a purchase, a reactivation, the person removed, or the end of the
 * test): each notice on the first run at or after its moment, and the
 * deactivation on the first run once 13 months have passed and the 13-month
 * notice has been received (a day after it was sent).
 */
export function dormancyTimeline(since: Date, stop: Date): DormancyTimeline {
  const notices: DormancyTimeline['notices'] = [];
  for (const notice of DORMANCY_NOTICES) {
    const at = firstRun('dormancyNotices', noticeMoment(since, notice));
    if (at >= stop) return { notices };
    notices.push({ notice, at });
  }
  const told = notices.at(-1)?.at as Date;
  const due = Math.max(noticeMoment(since, 'notice13').getTime(), told.getTime() + NOTICE_RECEIVED_AFTER_MS);
  const deactivatedAt = firstRun('dormancyNotices', new Date(due));
  return deactivatedAt < stop ? { notices, deactivatedAt } : { notices };
}

export type ReceiptStep = 'reminder' | 'dueToday' | 'frozen';

/**
 * What the receipt-deadline job does about one purchase whose receipt went in
 * at `receiptAt` (or never, before `end`): the reminder on the first run from
 * 2 business days before the due day, the due-day reminder, and the freeze on
 * the first run after the due day (business days in the team's zone; New York by default).
 */
export function receiptTimeline(
  purchasedAt: Date,
  receiptAt: Date | undefined,
  end: Date,
  zone = DEFAULT_TIME_ZONE,
): { step: ReceiptStep; at: Date }[] {
  const due = receiptDueDay(purchasedAt, zone);
  const early = addBusinessDays(due, -RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE);
  const steps: { step: ReceiptStep; at: Date }[] = [];
  const done = (step: ReceiptStep) => steps.some((s) => s.step === step);
  for (const run of runsBetween('receiptDeadlines', purchasedAt, end)) {
    if (receiptAt && receiptAt <= run) break;
    const today = dayIn(run, zone);
    if (today >= early && today < due && !done('reminder')) steps.push({ step: 'reminder', at: run });
    if (today === due) steps.push({ step: 'dueToday', at: run });
    if (today > due) {
      steps.push({ step: 'frozen', at: run });
      break;
    }
  }
  return steps;
}

/** The business days a purchase's receipt is reminded on and due (for planning when to send it). */
export function receiptDays(
  purchasedAt: Date,
  zone = DEFAULT_TIME_ZONE,
): { reminderDay: string; dueDay: string } {
  const dueDay = receiptDueDay(purchasedAt, zone);
  return { reminderDay: addBusinessDays(dueDay, -RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE), dueDay };
}
