/**
 * Charging the manager's card safely, shared by joining and monthly renewals.
 * Every charge is made for a purpose derived from what it pays for, every
 * credit is a ledger posting keyed the same way, so a retried flow or a job
 * fired twice charges and funds once. Stripe is called before the ledger
 * transaction, never inside.
 *
 * What an attempt will charge (and so credit) is stored before the charge: on
 * the member (`joinAttempt`) or on the team (`cycleAttempt`, the cycle's plan).
 * A retry of an interrupted attempt reuses its key and amounts, and the adapter
 * finds a charge already made for the purpose (also after Stripe's 24 h), so
 * the credits always equal what was charged. Only a declined attempt gets a new
 * Stripe key, because Stripe replays a stored decline under the same key for 24 h.
 * A decline is e-mailed to the manager.
 */
import { formatCents } from '@shared/domain/money';
import { sendEmail } from '../../adapters/email';
import { replaceAttempt as replaceStoredAttempt, type TeamRecord } from '../../data/accounts';
import { getUser } from '../../data/users';

export async function notifyDecline(team: TeamRecord, amountCents: number, message: string) {
  const manager = await getUser(team.managerId);
  if (!manager) return;
  await sendEmail({
    to: [manager.email],
    subject: 'Your card was declined: learning budgets are not funded',
    text: [
      `We tried to charge ${formatCents(amountCents)} to your card on file for your team's learning budgets, and it was declined: ${message}`,
      '',
      'Cards keep what they already hold. Please update your card on the Credit Card page; we try again every day.',
    ].join('\n'),
  });
}

/** A try at one charge, stored before Stripe is called. */
export interface Attempt {
  /** 1, 2, ...: a declined attempt is followed by a new one under a new Stripe key. */
  n: number;
  /** Stripe's idempotency key for this attempt. */
  key: string;
  /** pending: charging (or interrupted while charging); charged: taken, credits may be missing. */
  status: 'pending' | 'declined' | 'charged' | 'funded';
}

/** Another run started or finished an attempt since this one read it; this one stops without charging. */
export class AttemptRaced extends Error {}

/**
 * Writes an attempt only if the stored one is still the one this run read, so
 * two runs that race (a sign-up and a card update, say) never start two
 * attempts under different Stripe keys, which would bypass Stripe's dedup.
 */
export async function replaceAttempt<T extends Attempt>(
  key: { pk: string; sk: string },
  field: 'joinAttempt' | 'cycleAttempt',
  next: T,
  previousKey: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!(await replaceStoredAttempt(key, field, next, previousKey, extra)))
    throw new AttemptRaced(`${key.pk} ${field} changed meanwhile`);
}
