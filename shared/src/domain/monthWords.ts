/**
 * A budget month as people read it: "December 2026", not the `yyyy-mm` the
 * cycle keys and ledger entry ids use. The renewal posts its credit and names
 * its charge with these words; entries posted before it did read "Learning
 * budget for 2026-12", and the ledger's entries are never edited, so the
 * statement and the Activity Log read those in words when they show them.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `2026-12` → "December 2026". */
export function monthInWords(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !name) throw new Error(`not a month: ${month}`);
  return `${name} ${match[1]}`;
}

/** The words of a person's monthly credit in the ledger. */
export function monthlyCreditDescription(month: string): string {
  return `Learning budget for ${monthInWords(month)}`;
}

/** The words of the team's monthly charge (what Stripe and the bank statement show). */
export function monthlyChargeDescription(month: string, people: number): string {
  return `Learning budgets for ${monthInWords(month)} (${people} ${people === 1 ? 'employee' : 'employees'})`;
}

/** A month named `yyyy-mm` by an older credit or charge ("Learning budget for 2026-12"). */
const RAW_MONTH = /^(Learning budgets? for )(\d{4}-(?:0[1-9]|1[0-2]))(?=$|\s)/;

/** A stored description as a person reads it: an older entry's raw month in words, anything else as it is. */
export function descriptionInWords(description: string): string {
  return description.replace(
    RAW_MONTH,
    (_all, words: string, month: string) => `${words}${monthInWords(month)}`,
  );
}
