/**
 * When a purchase's receipt is due: 5 business days after the purchase.
 *
 * PLACEHOLDER: counts Monday to Friday in UTC and knows no holidays. The
 * holiday-aware business-day rules (shared/src/domain/businessDays.ts) replace
 * the body of `receiptDueDate`; callers only use this module.
 */
export const RECEIPT_DUE_BUSINESS_DAYS = 5;

/** The last day (`yyyy-mm-dd`, UTC) on which the receipt of a purchase made at `purchasedAt` is on time. */
export function receiptDueDate(purchasedAt: string): string {
  const day = new Date(`${purchasedAt.slice(0, 10)}T00:00:00Z`);
  let left = RECEIPT_DUE_BUSINESS_DAYS;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return day.toISOString().slice(0, 10);
}

/** A receipt not in by the end of its due date (UTC) is overdue. */
export function isReceiptOverdue(purchasedAt: string, now: Date): boolean {
  return now.toISOString().slice(0, 10) > receiptDueDate(purchasedAt);
}
