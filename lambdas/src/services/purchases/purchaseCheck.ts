/**
 * "Will this be approved?" (decisions.md): the employee asks whether a purchase
 * of an amount at a kind of merchant would go through on their card now. The
 * answer is the spend policy the real-time authorization applies
 * (shared/src/domain/spendPolicy.ts), on the same records it reads: the card,
 * its owner and the card account's spendable balance. Read-only: nothing is
 * held, so the answer can change by the time the purchase is made.
 */
import { cardAccount } from '@shared/domain/ledger';
import { decidePurchase } from '@shared/domain/spendPolicy';
import { AppError } from '@shared/errors';
import { getCard } from '../../data/cards';
import { balanceOf } from '../../data/ledger';
import { getUser } from '../../data/users';
import type { Actor } from '../../platform/auth';

export interface PurchaseQuestion {
  amountCents: number;
  merchantCategory: string;
  merchantName?: string;
}

export async function checkPurchase(actor: Actor, question: PurchaseQuestion) {
  const user = await getUser(actor.userId);
  const [card, availableCents] = await Promise.all([
    user?.cardId ? getCard(user.cardId) : undefined,
    balanceOf(cardAccount(actor.userId)),
  ]);
  if (!user || !card || card.userId !== actor.userId)
    throw new AppError('NOT_FOUND', 'You have no card yet.');
  // Our cards are USD only; the card network's currency is the one thing the question cannot name.
  const decision = decidePurchase({ ...question, currency: 'usd' }, card, user, availableCents);
  return decision.approved
    ? { approved: true, availableCents }
    : { approved: false, reason: decision.reason, code: decision.code, availableCents };
}
