/**
 * Whether an opened shop item could be paid with the card as it is now, told
 * at once (not only after pressing Check): the card's own rules
 * (spendPolicy.decidePurchase) on the item's price, its partner's kind of
 * merchant and the balance shown above, so the words are the decline reasons
 * the card network gives ("$12.99 is above your $12.02 balance.").
 */

import type { RouteOutput } from '@shared/api/routes';
import { decidePurchase, declineWithNextStep } from '@shared/domain/spendPolicy';

type Balance = RouteOutput<'getBalance'>;

/** The reason the purchase would be declined, or null when it would go through or cannot be told yet. */
export function itemDeclineReason(
  balance: Pick<Balance, 'availableCents' | 'cardStatus' | 'freezeReason'>,
  priceCents: number | undefined,
  merchantCategory: string,
): string | null {
  // No price (free or unknown) or no card yet (being issued: the slot says so): nothing to judge.
  if (priceCents === undefined || balance.cardStatus === 'pending') return null;
  const decision = decidePurchase(
    { amountCents: priceCents, currency: 'usd', merchantCategory },
    {
      status: balance.cardStatus,
      freeze: balance.freezeReason ? { [balance.freezeReason]: true } : undefined,
    },
    // The person looking is signed in, so not deleted: their card's state decides.
    { status: 'active' },
    balance.availableCents,
  );
  return decision.approved ? null : declineWithNextStep(decision.reason);
}
