/**
 * The numbers the public pages quote, from decisions.md (which overrides
 * spec.md). Written once here so the landing page, pricing, FAQs and terms
 * cannot drift apart. test/unit/publicContent.test.ts checks the ones that
 * shared/ already defines (default budget, password length) against shared/;
 * when shared/src/domain gains the fee and dormancy rules, import them here.
 */

/** Price of an active employee per month = their monthly budget; this is the default. */
export const DEFAULT_BUDGET_DOLLARS = 25;

/** Redemption back to the manager's card: 15% or $5, whichever is greater; none under $5. */
export const REDEMPTION_FEE_PERCENT = 15;
export const REDEMPTION_MIN_FEE_DOLLARS = 5;
export const REDEMPTION_MIN_BALANCE_DOLLARS = 5;

/** Receipts are due within this many business days (Mon-Fri, US federal holidays excluded). */
export const RECEIPT_DUE_BUSINESS_DAYS = 5;
export const RECEIPT_MAX_BYTES = 150_000;
export const RECEIPT_TYPES = 'PNG, JPEG or GIF';

/** Dormancy: manager warned at 11 months; notices at 12, 12.5 and 13; inactive after 13. */
export const DORMANCY_MANAGER_WARNING_MONTHS = 11;
export const DORMANCY_NOTICE_MONTHS = '12, 12½ and 13';
export const DORMANCY_INACTIVE_AFTER_MONTHS = 13;

export const PASSWORD_MIN_LENGTH = 8;

/** Notices we send count as received this long after sending (spec §9). */
export const NOTICE_RECEIVED_AFTER_HOURS = 24;

/** The redemption fee in whole cents for a balance in cents (for the worked examples on the pages). */
export function redemptionFeeCents(balanceCents: number): number | null {
  if (balanceCents < REDEMPTION_MIN_BALANCE_DOLLARS * 100) return null;
  const percent = Math.round((balanceCents * REDEMPTION_FEE_PERCENT) / 100);
  return Math.max(percent, REDEMPTION_MIN_FEE_DOLLARS * 100);
}

/** '$25' or '$12.50': whole dollars without cents. */
export function formatDollars(cents: number): string {
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? `$${dollars}` : `$${dollars}.${String(rest).padStart(2, '0')}`;
}
