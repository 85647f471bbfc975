/**
 * Paying with an issued card as a merchant would: the emulator's card network
 * asks the product (the signed real-time authorization webhook) and settles as
 * it is set to; resolves once every webhook it sent has been answered.
 */
import type { IntegrationStack } from './integrationStack';

export const BOOKSHOP = { name: 'Powell’s Books', category: 'book_stores' };

export async function payWithCard(
  stack: IntegrationStack,
  cardId: string,
  cents: number,
  merchant: { name: string; category: string } = BOOKSHOP,
) {
  const admin = stack.stripe?.admin;
  if (!admin) throw new Error('this stack runs without the Stripe emulator');
  const details = admin.cardDetails(cardId);
  if (!details) throw new Error(`no card details for ${cardId}`);
  const outcome = await admin.authorize({
    number: details.number,
    expMonth: details.exp_month,
    expYear: details.exp_year,
    cvc: details.cvc,
    amount: cents,
    merchant,
  });
  await admin.idle();
  return outcome;
}
