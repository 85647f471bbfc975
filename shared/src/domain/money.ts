/**
 * Money is integer cents (USD) everywhere; formatting happens only at the edge.
 * Fees are in basis points (1 bp = 0.01 %).
 */

export function assertCents(value: number, what = 'amount'): void {
  if (!Number.isSafeInteger(value)) throw new Error(`${what} must be whole cents, got ${value}`);
}

/** `$12.40`, `-$3.05`: for people. */
export function formatCents(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** `1234.50`, `-0.05`: for files other programs read (CSV exports), by integer arithmetic only. */
export function centsAsDecimal(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A percentage fee in basis points, rounded half up to the cent: the customer
 * never pays a fraction of a cent more than the rate says.
 */
export function feeCents(amountCents: number, basisPoints: number): number {
  assertCents(amountCents);
  return Math.floor((amountCents * basisPoints + 5000) / 10000);
}

/**
 * Splits `total` into `parts` shares that differ by at most one cent and sum to
 * `total` exactly. The first `total % parts` shares get the extra cent, so the
 * caller decides who gets remainder cents by the order it passes.
 */
export function splitEvenly(totalCents: number, parts: number): number[] {
  assertCents(totalCents);
  if (!Number.isInteger(parts) || parts < 1) throw new Error('parts must be a positive integer');
  if (totalCents < 0) throw new Error('cannot split a negative amount');
  const base = Math.floor(totalCents / parts);
  const extra = totalCents % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Dollars typed by a person (`12`, `12.5`, `$1,234.50`) as cents, read as text
 * so no float ever touches the amount; undefined when it is not an amount.
 */
export function parseDollars(text: string): number | undefined {
  const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const dollars = Number((match[1] as string).replaceAll(',', ''));
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  const total = dollars * 100 + cents;
  return Number.isSafeInteger(total) ? total : undefined;
}
