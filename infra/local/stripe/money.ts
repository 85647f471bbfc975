/**
 * Money is integer cents everywhere. Dollar strings typed into the checkout
 * page are parsed digit by digit, never through floating point.
 */

/** "12", "12.5", "12.34", "$1,234.50" -> cents; anything else (or zero/negative) -> undefined. */
export function parseDollars(input: string): number | undefined {
  const text = input.trim().replace(/^\$\s*/, '');
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  const dollars = (match[1] as string).replaceAll(',', '');
  const cents = (match[2] ?? '').padEnd(2, '0');
  const total = Number(dollars) * 100 + Number(cents);
  return Number.isSafeInteger(total) && total > 0 ? total : undefined;
}

/** 1234 -> "$12.34", -500 -> "-$5.00". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
