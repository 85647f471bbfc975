/**
 * The subscription's e-mails to the manager: each step of an unpaid renewal
 * (the first decline, each retry, the suspension), and the manager's own
 * suspend, resume and close. Plain text, like the product's other e-mails.
 */
import { formatCents } from '@shared/domain/money';
import { PAST_DUE_RETRY_DAYS, suspensionDate } from '@shared/domain/subscription';
import { sendEmail } from '../../adapters/email';
import type { TeamRecord } from '../../data/accounts';
import { getUser } from '../../data/users';
import { webConfig } from '../../platform/config';

function link(path: string): string {
  return new URL(path, webConfig().WEB_ORIGIN).toString();
}

async function toManager(team: TeamRecord, subject: string, lines: string[]) {
  const manager = await getUser(team.managerId);
  if (!manager) return;
  await sendEmail({
    to: [manager.email],
    subject,
    text: [`Hi ${manager.firstName},`, '', ...lines].join('\n'),
  });
}

/** A renewal declined: the first time (retry 0) or on one of the daily retries. */
export async function sendRenewalDeclined(
  team: TeamRecord,
  amountCents: number,
  reason: string,
  pastDueSince: string,
  retry: number,
) {
  const left = PAST_DUE_RETRY_DAYS - retry;
  const subject =
    retry === 0
      ? 'Your card was declined: learning budgets are not funded'
      : `Payment retry ${retry} of ${PAST_DUE_RETRY_DAYS} declined`;
  await toManager(team, subject, [
    `We tried to charge ${formatCents(amountCents)} to your card on file for your team's monthly learning budgets, and it was declined: ${reason}`,
    '',
    'Cards keep what they already hold.',
    left > 0
      ? `We try again every day for ${left} more day${left === 1 ? '' : 's'}. If it is still unpaid on ${suspensionDate(pastDueSince)}, your subscription is suspended: nobody is charged or funded until you resume it.`
      : 'That was the last retry.',
    '',
    `Update your card here and we charge it at once: ${link('/dashboard/creditcard')}`,
  ]);
}

export async function sendSuspendedUnpaid(team: TeamRecord) {
  await toManager(team, 'Your subscription is suspended: the payment stayed unpaid', [
    `Your card was declined every day for ${PAST_DUE_RETRY_DAYS} days, so we suspended your team's subscription.`,
    '',
    'Nobody is charged and no budget is funded while it is suspended. Cards keep what they already hold.',
    '',
    `Update your card and resume the subscription here: ${link('/dashboard/subscription')}`,
  ]);
}

export async function sendSuspended(team: TeamRecord) {
  await toManager(team, 'Your subscription is suspended', [
    "You suspended your team's subscription.",
    '',
    'Nobody is charged and no budget is funded while it is suspended, and extra deposits are off. Cards keep what they already hold; freeze a card on the Employees page to stop it.',
    '',
    `Resume it any time: ${link('/dashboard/subscription')}`,
  ]);
}

export async function sendResumed(team: TeamRecord) {
  await toManager(team, 'Your subscription is active again', [
    "You resumed your team's subscription.",
    '',
    'Budgets are charged and funded again from your next billing day. The months it was suspended are not charged.',
  ]);
}

export async function sendClosed(
  team: TeamRecord,
  closing: { choice: 'redeem' | 'keep'; amountCents: number; feeCents: number; netCents: number },
  cardsCancelled: number,
) {
  const money =
    closing.amountCents === 0
      ? 'No money was left on the cards or in the team pool.'
      : closing.choice === 'redeem'
        ? `The ${formatCents(closing.amountCents)} left was redeemed: ${formatCents(closing.netCents)} is refunded to your card on file after the ${formatCents(closing.feeCents)} fee.`
        : `The ${formatCents(closing.amountCents)} left is kept in your team's pool. Contact us to have it refunded.`;
  await toManager(team, 'Your subscription is closed', [
    `You closed your team's subscription. ${cardsCancelled} card${cardsCancelled === 1 ? ' was' : 's were'} cancelled and nobody will be charged again.`,
    '',
    money,
    '',
    `Your purchase history, receipts, statements and activity stay available to read: ${link('/dashboard')}`,
  ]);
}
