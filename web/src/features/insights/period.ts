export type PeriodKind = 'this' | '3' | '12' | 'custom';
export interface Period {
  kind: PeriodKind;
  from: string;
  to: string;
}

/** In the picker's order (an object's number-like keys would come first). */
export const PERIOD_KINDS: readonly PeriodKind[] = ['this', '3', '12', 'custom'];

export const PERIOD_LABELS: Record<PeriodKind, string> = {
  this: 'This month',
  '3': 'Last 3 months',
  '12': 'Last 12 months',
  custom: 'Custom range',
};

/** The longest period the server answers. */
export const MAX_MONTHS = 24;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function isMonth(value: string | null | undefined): value is string {
  return typeof value === 'string' && MONTH.test(value);
}

/** The month (`yyyy-mm`) `count` months after `month` (before, when negative). */
export function addMonths(month: string, count: number): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (mm - 1) + count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** How many months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return ty * 12 + tm - (fy * 12 + fm) + 1;
}

/** "Nov 2026": a month is a name, not an instant, so no zone moves it. */
export function monthLabel(month: string, style: 'short' | 'long' = 'short'): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-US', { month: style, year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, mm - 1, 1)),
  );
}

/** The period the address asks for (`?period=3`, or `?period=custom&from=&to=`), else this month. */
export function periodFrom(params: URLSearchParams, thisMonth: string): Period {
  const kind = params.get('period');
  if (kind === '3' || kind === '12')
    return { kind, from: addMonths(thisMonth, 1 - Number(kind)), to: thisMonth };
  if (kind === 'custom') {
    const from = params.get('from');
    const to = params.get('to');
    if (isMonth(from) && isMonth(to)) return { kind, from, to };
    return { kind, from: thisMonth, to: thisMonth };
  }
  return { kind: 'this', from: thisMonth, to: thisMonth };
}

/** What is wrong with a custom range, in words, or undefined. */
export function rangeProblem(from: string, to: string): string | undefined {
  if (!isMonth(from) || !isMonth(to)) return 'Choose a first and a last month.';
  if (from > to) return 'The first month must not be after the last.';
  if (monthsBetween(from, to) > MAX_MONTHS) return `Choose at most ${MAX_MONTHS} months.`;
  return undefined;
}

/** "Nov 2026" or "Sep 2026 to Nov 2026". */
export function periodLabel(from: string, to: string): string {
  return from === to ? monthLabel(from, 'long') : `${monthLabel(from, 'long')} to ${monthLabel(to, 'long')}`;
}
