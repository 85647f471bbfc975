/**
 * What an employee is told about a card frozen for missing receipts
 * (docs/decisions.md "Receipt deadline"): the dashboard's banner names the
 * overdue purchases and what lifts the freeze; after an upload the message
 * says whether the card works again, as the server decided it.
 */

import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import type { CardAfterReceipt } from '@shared/schemas/purchases';
import { formatDate } from './purchaseText';

type Balance = RouteOutput<'getBalance'>;
export type OverduePurchase = NonNullable<Balance['receiptFreeze']>['overdue'][number];

/** "Powell's Books, $6.49 on 11/25/2026": the purchase as the employee knows it. */
export function overduePurchaseLabel(p: OverduePurchase): string {
  return `${p.title ?? p.merchant}, ${formatCents(p.amountCents)} on ${formatDate(p.date)}`;
}

export interface ReceiptFreezeNote {
  title: string;
  text: string;
  /** The purchase the banner's button uploads for (the oldest overdue one). */
  uploadFor: OverduePurchase | null;
}

/**
 * The banner while a receipt freeze is on. `freezeReason` is the card's
 * leading reason: a manager's or dormancy freeze also on means the receipts
 * alone will not make the card work again, and the banner says so.
 */
export function receiptFreezeNote(
  overdue: readonly OverduePurchase[],
  freezeReason: Balance['freezeReason'],
): ReceiptFreezeNote {
  const first = overdue[0] ?? null;
  const also =
    freezeReason === 'manager'
      ? ' Your manager has also frozen it, so it stays frozen until they activate it.'
      : freezeReason === 'dormant'
        ? ' It is also frozen after 13 months without a purchase: ask your manager to activate it.'
        : '';
  if (!first)
    return {
      title: 'Your card is frozen: a receipt was overdue',
      text: `Your receipts are all in; the card is unfrozen within a day.${also}`,
      uploadFor: null,
    };
  const what =
    overdue.length === 1
      ? `Upload the receipt for ${overduePurchaseLabel(first)} (due ${formatDate(first.dueDate)})`
      : `Upload the receipts for ${overdue.map(overduePurchaseLabel).join('; ')}`;
  const then = also ? '.' : ' and your card works again at once.';
  return {
    title:
      overdue.length === 1
        ? 'Your card is frozen: a receipt is overdue'
        : 'Your card is frozen: receipts are overdue',
    text: `${what}${then}${also}`,
    uploadFor: first,
  };
}

/** The notice after an upload, by what the server did to the card. */
export function receiptUploadedMessage(card: CardAfterReceipt): { title?: string; message: string } {
  switch (card) {
    case 'active':
      return { title: 'Receipt uploaded', message: 'Your card is active again.' };
    case 'stillOverdue':
      return {
        title: 'Receipt uploaded',
        message: 'Your card stays frozen until your other overdue receipts are in.',
      };
    case 'stillFrozen':
      return {
        title: 'Receipt uploaded',
        message: 'Your receipts are all in, but your card stays frozen for another reason: see your card.',
      };
    default:
      return { message: 'Receipt uploaded.' };
  }
}
