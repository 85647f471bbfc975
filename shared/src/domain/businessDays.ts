/**
 * Business days and the receipt deadline (docs/decisions.md "Receipt deadline").
 * Pure: no clock, no I/O. Days are calendar dates `yyyy-mm-dd` in the team's
 * time zone (shared/src/domain/calendar.ts); instants are converted to that
 * date first, so a deadline is the same day on every screen, e-mail and CSV.
 *
 * Business days are Monday to Friday less US federal holidays as observed (a
 * holiday on a Saturday is observed on the Friday before, on a Sunday on the
 * Monday after). The holidays come from `@18f/us-federal-holidays` (kept by
 * 18F, the US government's digital services team), not a hand-written list.
 */
import federalHolidays from '@18f/us-federal-holidays';
import { type Day, dayIn } from './calendar';
import { receiptOverdueSince } from './receiptOverdue';

/** Receipts are due this many business days after the purchase day (decisions.md "Policies"). */
export const RECEIPT_DUE_BUSINESS_DAYS = 5;

/** The early reminder goes out this many business days before the due day; a second on the due day itself. */
export const RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE = 2;

export type { Day };

const holidaysByYear = new Map<number, Set<Day>>();

/** Observed federal holidays falling in `year` (New Year's Day of the next year may be observed on 31 December). */
function holidaysIn(year: number): Set<Day> {
  let set = holidaysByYear.get(year);
  if (!set) {
    set = new Set(
      [...federalHolidays.allForYear(year), ...federalHolidays.allForYear(year + 1)]
        .map((h) => h.dateString)
        .filter((d) => d.startsWith(`${year}-`)),
    );
    holidaysByYear.set(year, set);
  }
  return set;
}

function parseDay(day: Day): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return new Date(`${day}T00:00:00.000Z`);
}

function formatDay(date: Date): Day {
  return date.toISOString().slice(0, 10);
}

function shiftDays(day: Day, by: number): Day {
  const date = parseDay(day);
  date.setUTCDate(date.getUTCDate() + by);
  return formatDay(date);
}

export function isFederalHoliday(day: Day): boolean {
  return holidaysIn(parseDay(day).getUTCFullYear()).has(day);
}

export function isBusinessDay(day: Day): boolean {
  const weekday = parseDay(day).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isFederalHoliday(day);
}

/**
 * The `n`th business day after `day` (before it when `n` is negative). `day`
 * itself never counts, so a Saturday plus 1 is the Monday (or Tuesday after a
 * Monday holiday).
 */
export function addBusinessDays(day: Day, n: number): Day {
  if (!Number.isInteger(n)) throw new Error(`whole days only: ${n}`);
  const step = n < 0 ? -1 : 1;
  let left = Math.abs(n);
  let current = day;
  while (left > 0) {
    current = shiftDays(current, step);
    if (isBusinessDay(current)) left--;
  }
  return current;
}

/** The last day a purchase's receipt is on time: 5 business days after the purchase day (team's zone). */
export function receiptDueDay(purchasedAt: Date | string, zone: string): Day {
  return addBusinessDays(dayIn(purchasedAt, zone), RECEIPT_DUE_BUSINESS_DAYS);
}

/** The day of the early reminder for a due day. */
export function receiptReminderDay(dueDay: Day): Day {
  return addBusinessDays(dueDay, -RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE);
}

/**
 * Where a receipt still missing stands `now`: not yet worth a word; `reminder`
 * from the early reminder day until the day before it is due; `dueToday`; and
 * `overdue` from the day after the due day (the whole due day is the
 * employee's, in the team's time zone).
 */
export type ReceiptStage = 'early' | 'reminder' | 'dueToday' | 'overdue';

export function receiptStage(purchasedAt: Date | string, now: Date, zone: string): ReceiptStage {
  const due = receiptDueDay(purchasedAt, zone);
  const today = dayIn(now, zone);
  if (today >= receiptOverdueSince(due)) return 'overdue';
  if (today === due) return 'dueToday';
  if (today >= receiptReminderDay(due)) return 'reminder';
  return 'early';
}
