/**
 * The team's calendar (issue 25 "One calendar"): every date the product
 * prints - screens, e-mails, CSVs, invoices, receipt deadlines, dormancy days -
 * is the day in the team's time zone, so one purchase has one date everywhere.
 *
 * Pure, no clock, no I/O, and no holiday table, so the web app imports it too.
 * Built on Intl (the IANA zone database every Node and browser ships), not a
 * date library: the product needs three operations - the day of an instant, the
 * first instant of a day, and MM/DD/YYYY - and Intl answers each exactly,
 * daylight saving included.
 */

/** A calendar date, `yyyy-mm-dd`. */
export type Day = string;

/**
 * A team that never chose a zone (every team before issue 25) keeps the one
 * its receipt deadlines always used: US Eastern, the federal calendar's.
 */
export const DEFAULT_TIME_ZONE = 'America/New_York';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(zone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(zone);
  if (!format) {
    // en-CA formats as yyyy-mm-dd.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(zone, format);
  }
  return format;
}

/** An IANA zone name Intl knows (`America/Los_Angeles`, `UTC`); not an offset nor an abbreviation. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return false;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone names a person can choose from, as Intl lists them (UTC added where it is missing). */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return names.includes('UTC') ? names : [...names, 'UTC'];
}

export function isDay(value: string): boolean {
  return DAY_PATTERN.test(value);
}

function toDate(instant: Date | string): Date {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new Error(`not a time: ${String(instant)}`);
  return date;
}

/** The date (`yyyy-mm-dd`) an instant falls on in `zone`. */
export function dayIn(instant: Date | string, zone: string): Day {
  return dayFormat(zone).format(toDate(instant));
}

const MINUTE_MS = 60_000;

/**
 * The first instant of `day` in `zone` (its midnight, or the first minute after
 * a daylight-saving jump skips midnight). Local days never run backwards, so a
 * binary search over the 30 hours around UTC midnight finds it to the minute.
 */
export function startOfDayIn(day: Day, zone: string): Date {
  if (!isDay(day)) throw new Error(`not a day: ${day}`);
  const utcMidnight = Date.parse(`${day}T00:00:00.000Z`);
  // No zone is more than 14 hours from UTC: 15 hours either side is strictly before the day
  // begins anywhere (`low`, never the answer) and after it has begun everywhere (`high`).
  let low = utcMidnight / MINUTE_MS - 15 * 60;
  let high = utcMidnight / MINUTE_MS + 15 * 60;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (dayIn(new Date(middle * MINUTE_MS), zone) >= day) high = middle;
    else low = middle;
  }
  return new Date(high * MINUTE_MS);
}

/** `yyyy-mm-dd` as the product prints dates: MM/DD/YYYY (spec §9). */
export function formatUsDay(day: Day): string {
  if (!isDay(day)) throw new Error(`not a day: ${day}`);
  const [year, month, date] = day.split('-');
  return `${month}/${date}/${year}`;
}

/**
 * MM/DD/YYYY of a day (printed as it is: a due day is already the team's) or
 * of an instant (its day in `zone`).
 */
export function formatDateIn(value: string | Date, zone: string): string {
  return typeof value === 'string' && isDay(value) ? formatUsDay(value) : formatUsDay(dayIn(value, zone));
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** MM/DD/YYYY, h:mm AM/PM of an instant in `zone`, for logs that need the time too. */
export function formatDateTimeIn(instant: Date | string, zone: string): string {
  let format = dateTimeFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      month: '2-digit',
      day: '2-digit',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    dateTimeFormats.set(zone, format);
  }
  return format.format(toDate(instant));
}

/** A zone's name as a person reads it: `America/Los_Angeles` -> `America/Los Angeles`. */
export function timeZoneLabel(zone: string): string {
  return zone.replaceAll('_', ' ');
}
