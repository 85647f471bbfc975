/**
 * Roster import (issue 28, part 2): a CSV of first name, last name, e-mail,
 * budget and start date. The browser parses the file and checks every row with
 * `checkRoster` before anything happens; the server checks the same rows again
 * with the same function and its own knowledge of the team, and refuses the
 * whole file while any row has an error (nothing is applied until every row is
 * right). The messages are the invitation form's (invitations.ts, profile.ts
 * `budgetDollars`), so one mistake reads the same on both screens.
 *
 * Pure: no clock (the caller names today in the team's calendar), no I/O.
 */
import { z } from 'zod';
import { type Day, formatUsDay, isDay } from '../domain/calendar';
import { normalizeEmail } from './fields';
import { INVALID_EMAIL_MESSAGE, isInvitableEmail } from './invitations';
import { budgetDollars } from './profile';

/** Rows one file may hold: each is an invitation (or a scheduled one) and an e-mail. */
export const MAX_ROSTER_ROWS = 500;
/** How far ahead a start may be scheduled: a typo ("2062") should not wait 36 years unseen. */
export const MAX_START_AHEAD_DAYS = 366;

export const ROSTER_HEADERS = ['First name', 'Last name', 'Email', 'Budget', 'Start date'] as const;

/** One row as read from the file, before any check. `line` is its line in the file (the header is line 1). */
export interface RosterRow {
  line: number;
  firstName: string;
  lastName: string;
  email: string;
  budget: string;
  startDate: string;
}

/** Where a row's person already is on the team: nothing to do for them (a second upload of the same file). */
export type AlreadyThere = 'member' | 'invited' | 'scheduled';

export interface CheckedRow {
  line: number;
  firstName: string;
  lastName: string;
  /** Lower-cased and trimmed, as invitations key it. */
  email: string;
  /** Whole dollars as cents; absent when the budget has an error. */
  budgetCents?: number;
  /** The start day (`yyyy-mm-dd`, team's calendar); today when the file left it blank. Absent on an error. */
  startDay?: Day;
  /** In words, each a sentence fragment the screen lists; empty when the row is good. */
  errors: string[];
  /** Set when the person is already on the team: the row changes nothing. */
  already?: AlreadyThere;
}

// --- Reading the file --------------------------------------------------------

/** RFC 4180 fields: commas, double quotes ("" inside quotes is a quote), CRLF or LF. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

const HEADER_NAMES: Record<keyof Omit<RosterRow, 'line'>, RegExp> = {
  firstName: /^first\s*name$|^given\s*name$|^first$/,
  lastName: /^last\s*name$|^family\s*name$|^surname$|^last$/,
  email: /^e-?mail(\s*address)?$|^work\s*e-?mail$/,
  budget: /^(monthly\s*)?budget(\s*\(\$\))?$/,
  startDate: /^start(\s*date)?$/,
};

export type RosterFile = { rows: RosterRow[] } | { error: string };

/**
 * Reads a roster file. A first line naming the columns (any order; "First
 * name", "Email", "Budget", "Start date"...) is a header; without one the
 * columns are taken in the documented order. Blank lines are skipped.
 */
export function parseRosterCsv(text: string): RosterFile {
  const records = csvRecords(text.replace(/^\uFEFF/, ''));
  const nonBlank = (r: string[]) => r.some((f) => f.trim() !== '');
  const first = records.findIndex(nonBlank);
  if (first < 0) return { error: 'The file has no rows.' };
  const columns: Record<keyof Omit<RosterRow, 'line'>, number> = {
    firstName: 0,
    lastName: 1,
    email: 2,
    budget: 3,
    startDate: 4,
  };
  const head = (records[first] ?? []).map((f) => f.trim().toLowerCase());
  const hasHeader = head.some((f) => HEADER_NAMES.email.test(f));
  if (hasHeader) {
    for (const [name, pattern] of Object.entries(HEADER_NAMES) as [keyof typeof columns, RegExp][]) {
      const index = head.findIndex((f) => pattern.test(f));
      if (index < 0) return { error: `The file has no "${headerOf(name)}" column.` };
      columns[name] = index;
    }
  }
  const rows: RosterRow[] = [];
  records.forEach((record, index) => {
    if (index < first || (hasHeader && index === first) || !nonBlank(record)) return;
    const at = (name: keyof typeof columns) => (record[columns[name]] ?? '').trim();
    rows.push({
      line: index + 1,
      firstName: at('firstName'),
      lastName: at('lastName'),
      email: at('email'),
      budget: at('budget'),
      startDate: at('startDate'),
    });
  });
  if (rows.length === 0) return { error: 'The file has no rows.' };
  if (rows.length > MAX_ROSTER_ROWS)
    return {
      error: `The file has ${rows.length} rows; at most ${MAX_ROSTER_ROWS} can be imported at a time.`,
    };
  return { rows };
}

function headerOf(name: keyof Omit<RosterRow, 'line'>): string {
  return ROSTER_HEADERS[['firstName', 'lastName', 'email', 'budget', 'startDate'].indexOf(name)] ?? name;
}

// --- Checking rows -------------------------------------------------------------

function addDays(day: Day, n: number): Day {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

const START_FORMAT = 'Start date must be a date written MM/DD/YYYY';

/** MM/DD/YYYY (the product's date format; M/D also) or yyyy-mm-dd; a day that exists. */
export function parseDateText(text: string): Day | undefined {
  let year: string, month: string, date: string;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (us) [, month, date, year] = us as unknown as [string, string, string, string];
  else if (iso) [, year, month, date] = iso as unknown as [string, string, string, string];
  else return undefined;
  const day = `${year}-${month.padStart(2, '0')}-${date.padStart(2, '0')}`;
  if (!isDay(day)) return undefined;
  // 02/30 rolls over in Date: a day that does not exist comes back different.
  const real = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(real.getTime()) && real.toISOString().slice(0, 10) === day ? day : undefined;
}

/**
 * Every row checked: names, e-mail (the invitation's rule), budget (the
 * invitation's whole dollars and bound), start date (blank is today; not
 * before `today`, not more than a year ahead), and the same e-mail twice in
 * the file. `onTeam` says where an address already is on the team, for the
 * rows that change nothing.
 */
export function checkRoster(
  rows: readonly RosterRow[],
  today: Day,
  onTeam: (email: string) => AlreadyThere | undefined,
): CheckedRow[] {
  const firstLine = new Map<string, number>();
  const latest = addDays(today, MAX_START_AHEAD_DAYS);
  return rows.map((row) => {
    const errors: string[] = [];
    const email = normalizeEmail(row.email);
    if (row.firstName.trim() === '') errors.push('First name is required');
    else if (row.firstName.length > 50) errors.push('First name must be at most 50 characters');
    if (row.lastName.trim() === '') errors.push('Last name is required');
    else if (row.lastName.length > 50) errors.push('Last name must be at most 50 characters');
    if (email === '') errors.push('Email is required');
    else if (!isInvitableEmail(email)) errors.push(INVALID_EMAIL_MESSAGE);
    else {
      const earlier = firstLine.get(email);
      if (earlier !== undefined) errors.push(`Same email as line ${earlier}`);
      else firstLine.set(email, row.line);
    }
    const budget = budgetDollars.safeParse(row.budget);
    if (!budget.success) errors.push(budget.error.issues[0]?.message ?? 'Budget is invalid');
    let startDay: Day | undefined = today;
    if (row.startDate.trim() !== '') {
      startDay = parseDateText(row.startDate.trim());
      if (startDay === undefined) errors.push(START_FORMAT);
      else if (startDay < today) {
        errors.push(`Start date ${formatUsDay(startDay)} is in the past`);
        startDay = undefined;
      } else if (startDay > latest) {
        errors.push(`Start date must be within a year (by ${formatUsDay(latest)})`);
        startDay = undefined;
      }
    }
    const already = errors.length === 0 ? onTeam(email) : undefined;
    return {
      line: row.line,
      firstName: row.firstName.trim(),
      lastName: row.lastName.trim(),
      email,
      ...(budget.success ? { budgetCents: budget.data } : {}),
      ...(startDay !== undefined ? { startDay } : {}),
      errors,
      ...(already ? { already } : {}),
    };
  });
}

/** What the row will do, in words, before it is applied. */
export function plannedText(row: CheckedRow, today: Day): string {
  if (row.errors.length > 0) return row.errors.join('. ');
  if (row.already === 'member') return 'Already on the team: nothing to do';
  if (row.already === 'invited') return 'Already invited: nothing to do';
  if (row.already === 'scheduled') return 'Already scheduled: nothing to do';
  if (row.startDay === undefined || row.startDay <= today) return 'Will be invited now';
  return `Will be invited on ${formatUsDay(row.startDay)}`;
}

// --- The routes ---------------------------------------------------------------

const rosterRowInput = z.object({
  line: z.number().int().min(1).max(1_000_000),
  firstName: z.string().max(200),
  lastName: z.string().max(200),
  email: z.string().max(320),
  budget: z.union([z.string().max(40), z.number()]).transform(String),
  startDate: z.string().max(40).default(''),
});

export const importRosterInput = z.object({
  /** Read-only: answers only `needsFreshFactor` (the step-up asked before sending); nothing is stored. */
  preview: z.boolean().default(false),
  rows: z
    .array(rosterRowInput)
    .min(1, { error: 'The file has no rows.' })
    .max(MAX_ROSTER_ROWS, { error: `At most ${MAX_ROSTER_ROWS} rows can be imported at a time.` }),
});

export const rosterResultSchema = z.object({
  line: z.number().int(),
  email: z.string(),
  /**
   * invited: invited now (the e-mail went unless `emailed` is false);
   * scheduled: stored, invited by the daily job on `startDay`;
   * alreadyThere: a member, or a pending or scheduled invitation of the team: nothing changed;
   * alreadyRegistered, invitedByAnotherTeam: as when inviting by hand; nothing changed.
   */
  result: z.enum(['invited', 'scheduled', 'alreadyThere', 'alreadyRegistered', 'invitedByAnotherTeam']),
  startDay: z.string().optional(),
  budgetCents: z.number().int().optional(),
  emailed: z.boolean().optional(),
});
export const importRosterOutput = z.object({
  results: z.array(rosterResultSchema),
  /** `preview` only: whether the import would need a fresh factor (the step-up threshold). */
  needsFreshFactor: z.boolean().optional(),
});

/** The Employees screen's scheduled starts, soonest first. */
export const scheduledStartSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  budgetCents: z.number().int(),
  startDay: z.string(),
});

// --- Offboarding date (part 3) ------------------------------------------------

/** A person's last day (team's calendar), or null to clear it. */
export const setLastDayInput = z.object({
  userId: z.string().min(1).max(64),
  lastDay: z
    .string()
    .max(40)
    .nullable()
    .transform((value, ctx) => {
      if (value === null || value.trim() === '') return null;
      const day = parseDateText(value.trim());
      if (day === undefined) {
        ctx.addIssue({ code: 'custom', message: 'Last day must be a date written MM/DD/YYYY' });
        return z.NEVER;
      }
      return day;
    }),
});
export const lastDayOutput = z.object({ userId: z.string(), lastDay: z.string().nullable() });
