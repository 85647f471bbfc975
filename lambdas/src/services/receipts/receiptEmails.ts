/**
 * The receipt policy's e-mails: reminders before a receipt is due, the freeze
 * when one is overdue (to the employee and their manager), and the card
 * working again once every overdue receipt is in.
 */
import { formatUsDay } from '@shared/domain/calendar';
import { formatCents } from '@shared/domain/money';
import { sendEmail } from '../../adapters/email';
import { webConfig } from '../../platform/config';

const PRODUCT = 'Learning Budget';

export interface ReceiptLine {
  merchant: string;
  amountCents: number;
  /** The purchase's business day, yyyy-mm-dd. */
  purchasedOn: string;
  dueDay: string;
}

function lines(purchases: ReceiptLine[]): string[] {
  return purchases.map(
    (p) =>
      `- ${formatCents(p.amountCents)} at ${p.merchant} on ${formatUsDay(p.purchasedOn)}, receipt due ${formatUsDay(p.dueDay)}`,
  );
}

function historyLink(): string {
  return new URL('/dashboard/purchasehistory', webConfig().WEB_ORIGIN).toString();
}

/** One e-mail per employee and run, listing every receipt at a reminder stage today. */
export async function sendReceiptReminder(
  to: string,
  firstName: string,
  purchases: ReceiptLine[],
  today: string,
) {
  const dueToday = purchases.some((p) => p.dueDay === today);
  await sendEmail({
    to: [to],
    subject: dueToday ? 'Receipt due today: upload it to keep your card active' : 'Receipt due soon',
    text: [
      `Hi ${firstName},`,
      '',
      'Please upload a receipt for these purchases on your learning card:',
      ...lines(purchases),
      '',
      `Upload them here: ${historyLink()}`,
      '',
      'Receipts are due within 5 business days of the purchase. If one is late, your card is frozen until it is in.',
    ].join('\n'),
  });
}

export async function sendFrozenForReceipts(
  employee: { email: string; firstName: string },
  manager: { email: string; firstName: string } | undefined,
  employeeName: string,
  overdue: ReceiptLine[],
) {
  await sendEmail({
    to: [employee.email],
    subject: `Your ${PRODUCT} card is frozen: receipts missing`,
    text: [
      `Hi ${employee.firstName},`,
      '',
      'Your card is frozen because these receipts are overdue:',
      ...lines(overdue),
      '',
      `Upload them here and the card works again at once: ${historyLink()}`,
    ].join('\n'),
  });
  if (!manager) return;
  await sendEmail({
    to: [manager.email],
    subject: `${employeeName}'s card is frozen: receipts missing`,
    text: [
      `Hi ${manager.firstName},`,
      '',
      `${employeeName}'s learning card is frozen because these receipts are overdue:`,
      ...lines(overdue),
      '',
      'It unfreezes by itself when every overdue receipt is in. A freeze of your own stays until you lift it.',
    ].join('\n'),
  });
}

export async function sendUnfrozen(to: string, firstName: string) {
  await sendEmail({
    to: [to],
    subject: `Your ${PRODUCT} card works again`,
    text: [
      `Hi ${firstName},`,
      '',
      'Thank you: every overdue receipt is in, so your card is active again.',
    ].join('\n'),
  });
}
