/**
 * When a purchase's receipt is due, as the purchase list shows it: the rules
 * are those of the receipt deadline policy (shared/src/domain/businessDays.ts:
 * 5 US federal business days in the team's time zone), so the list and the
 * daily freeze job can never disagree.
 */
import { RECEIPT_DUE_BUSINESS_DAYS, receiptDueDay, receiptStage } from './businessDays';

export { RECEIPT_DUE_BUSINESS_DAYS };

/** The last day (`yyyy-mm-dd`, team's zone) on which the receipt of a purchase made at `purchasedAt` is on time. */
export function receiptDueDate(purchasedAt: string, zone: string): string {
  return receiptDueDay(purchasedAt, zone);
}

/** A receipt not in by the end of its due day (team's zone) is overdue. */
export function isReceiptOverdue(purchasedAt: string, now: Date, zone: string): boolean {
  return receiptStage(purchasedAt, now, zone) === 'overdue';
}
