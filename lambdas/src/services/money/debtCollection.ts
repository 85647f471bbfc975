/**
 * Debt collection: what an employee owes (a purchase that settled above its
 * hold) is paid back from the next money that arrives on their card. Called
 * after every credit; it never takes more than the card holds.
 */
import { cardAccount, debtAccount, debtRepayment } from '@shared/domain/ledger';
import { newId } from '../../adapters/clock';
import { balanceOf, InsufficientFunds, post } from '../../data/ledger';

/**
 * Pays back what an employee owes (a purchase settled above its hold) from
 * money that just arrived on their card, as far as it reaches.
 */
export async function collectDebt(userId: string, teamId: string): Promise<void> {
  const [owed, available] = await Promise.all([
    balanceOf(debtAccount(userId)),
    balanceOf(cardAccount(userId)),
  ]);
  const amount = Math.min(-owed, available);
  if (amount <= 0) return;
  try {
    await post(debtRepayment({ entryId: `DEBT#${userId}#${newId()}`, teamId, userId, amountCents: amount }));
  } catch (error) {
    // A purchase spent the money meanwhile: the debt waits for the next credit.
    if (!(error instanceof InsufficientFunds)) throw error;
  }
}
