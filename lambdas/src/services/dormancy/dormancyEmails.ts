/**
 * Dormancy e-mails: the manager's 11-month warning, and the 12, 12.5 and 13
 * month notices to the employee and the manager. Each names the day the card
 * stops and the one thing that keeps it: a purchase (or the manager
 * reactivating the person).
 */
import { formatUsDay } from '@shared/domain/calendar';
import type { DormancyNotice } from '@shared/domain/dormancy';
import { sendEmail } from '../../adapters/email';
import { webConfig } from '../../platform/config';

const PRODUCT = 'Learning Budget';

interface Person {
  email: string;
  firstName: string;
}

function link(path: string): string {
  return new URL(path, webConfig().WEB_ORIGIN).toString();
}

const HOW_LONG: Record<DormancyNotice, string> = {
  warning11: '11 months',
  notice12: '12 months',
  notice12half: 'twelve and a half months',
  notice13: '13 months',
};

export async function sendDormancyWarning(manager: Person, employeeName: string, inactiveFrom: string) {
  await sendEmail({
    to: [manager.email],
    subject: `${employeeName} has not used their learning card in 11 months`,
    text: [
      `Hi ${manager.firstName},`,
      '',
      `${employeeName} has made no purchase with their learning card for 11 months.`,
      `If nothing is bought by ${formatUsDay(inactiveFrom)}, the card becomes inactive and ${employeeName} is paused. Their money stays on the team's ledger for you to reallocate or redeem.`,
      '',
      `Employees: ${link('/dashboard/employees')}`,
    ].join('\n'),
  });
}

export async function sendDormancyNotice(
  notice: DormancyNotice,
  employee: Person,
  manager: Person | undefined,
  employeeName: string,
  inactiveFrom: string,
) {
  const last = notice === 'notice13';
  const when = last ? 'tomorrow' : `on ${formatUsDay(inactiveFrom)}`;
  await sendEmail({
    to: [employee.email],
    subject: last
      ? `Your ${PRODUCT} card becomes inactive tomorrow`
      : `Your ${PRODUCT} card has not been used in ${HOW_LONG[notice]}`,
    text: [
      `Hi ${employee.firstName},`,
      '',
      `Your learning card has not been used for ${HOW_LONG[notice]}. It becomes inactive ${when} unless you make a purchase; your manager can also keep it active.`,
      '',
      `Shop the catalogue: ${link('/shop')}`,
    ].join('\n'),
  });
  if (!manager) return;
  await sendEmail({
    to: [manager.email],
    subject: last
      ? `${employeeName}'s learning card becomes inactive tomorrow`
      : `${employeeName} has not used their learning card in ${HOW_LONG[notice]}`,
    text: [
      `Hi ${manager.firstName},`,
      '',
      `${employeeName} has made no purchase for ${HOW_LONG[notice]}. The card becomes inactive ${when} and ${employeeName} is paused; the money stays on the ledger for you to reallocate or redeem, and reactivating ${employeeName} keeps the card.`,
      '',
      `Employees: ${link('/dashboard/employees')}`,
    ].join('\n'),
  });
}
