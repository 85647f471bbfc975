/**
 * Business days and the receipt deadline (docs/decisions.md "Receipt deadline").
 * Pure: no clock, no I/O. Days are calendar dates `yyyy-mm-dd` in the business
 * time zone; instants are converted to that date first.
 *
 * Business days are Monday to Friday less US federal holidays as observed (a
 * holiday on a Saturday is observed on the Friday before, on a Sunday on the
 * Monday after). The holidays come from `@18f/us-federal-holidays` (kept by
 * 18F, the US government's digital services team), not a hand-written list.
 *
 * Time zone: US Eastern (`America/New_York`). The federal calendar is the
 * East-coast government's; one zone for every team keeps a deadline the same
 * for an employee and their manager wherever they sit, and a purchase at
 * 11 pm Pacific on a Friday counts as made on Saturday in New York, which only
 * gives the employee more time, never less.
 */
import federalHolidays from '@18f/us-federal-holidays';
import { receiptOverdueSince } from './receiptOverdue';

export const BUSINESS_TIME_ZONE = 'America/New_York';

/** Receipts are due this many business days after the purchase day (decisions.md "Policies"). */
export const RECEIPT_DUE_BUSINESS_DAYS = 5;

/** The early reminder goes out this many business days before the due day; a second on the due day itself. */
export const RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE = 2;

/** A calendar date, `yyyy-mm-dd`. */
export type Day = string;

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

const zoneFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The business-calendar date (US Eastern) of an instant. */
export function businessDateOf(instant: Date | string): Day {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new Error(`not a time: ${String(instant)}`);
  // en-CA formats as yyyy-mm-dd.
  return zoneFormat.format(date);
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

/** The last day a purchase's receipt is on time: 5 business days after the purchase day (US Eastern). */
export function receiptDueDay(purchasedAt: Date | string): Day {
  return addBusinessDays(businessDateOf(purchasedAt), RECEIPT_DUE_BUSINESS_DAYS);
}

/** The day of the early reminder for a due day. */
export function receiptReminderDay(dueDay: Day): Day {
  return addBusinessDays(dueDay, -RECEIPT_REMINDER_BUSINESS_DAYS_BEFORE);
}

/**
 * Where a receipt still missing stands `now`: not yet worth a word; `reminder`
 * from the early reminder day until the day before it is due; `dueToday`; and
 * `overdue` from the day after the due day (the whole due day is the
 * employee's, in the business time zone).
 */
export type ReceiptStage = 'early' | 'reminder' | 'dueToday' | 'overdue';

export function receiptStage(purchasedAt: Date | string, now: Date): ReceiptStage {
  const due = receiptDueDay(purchasedAt);
  const today = businessDateOf(now);
  if (today >= receiptOverdueSince(due)) return 'overdue';
  if (today === due) return 'dueToday';
  if (today >= receiptReminderDay(due)) return 'reminder';
  return 'early';
}

/** The instant a business day begins (midnight in New York, EST or EDT). */
export function startOfBusinessDay(day: Day): Date {
  parseDay(day);
  for (const offsetHours of [5, 4]) {
    const candidate = new Date(`${day}T0${offsetHours}:00:00.000Z`);
    if (businessDateOf(candidate) === day && businessDateOf(new Date(candidate.getTime() - 1)) !== day)
      return candidate;
  }
  throw new Error(`no midnight found for ${day}`);
}

/** A day as the product shows dates: MM/DD/YYYY (spec §9). */
export function formatUsDay(day: Day): string {
  const [year, month, date] = day.split('-');
  return `${month}/${date}/${year}`;
}
