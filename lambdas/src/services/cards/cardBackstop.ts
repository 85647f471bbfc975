/**
 * The card backstop: the issuer's all-time spending limit on each card mirrors
 * what the ledger ever credited to it. Called after every credit (joining,
 * renewal, deposit, reallocation), so even a missed authorization webhook can
 * never let a card spend money it was not given.
 */
import { cardAccount } from '@shared/domain/ledger';
import { setSpendingLimit } from '../../adapters/stripe';
import { getCard, updateCard } from '../../data/cards';
import { statement } from '../../data/ledger';

/** Kinds of credit that raise what a card may ever spend (the backstop limit). */
const CREDIT_KINDS = new Set(['funding', 'deposit', 'reallocation', 'poolReturn', 'refund']);

/**
 * Mirrors the ledger into the issuer's spending controls: the card's all-time
 * limit is everything ever credited to it, so a missed or failed webhook can
 * never let it spend money it was not given.
 */
export async function updateBackstop(userId: string, cardId: string): Promise<void> {
  const card = await getCard(cardId);
  // A replacement card (a reactivated person's) counts from what could still be spent when it was issued.
  const lifetime = Math.max(0, (await creditedToCard(userId)) + (card?.lifetimeOffsetCents ?? 0));
  // A cancelled card spends nothing and Stripe refuses to change it (a renewal credited as the team closed).
  if (!card || card.status === 'canceled' || card.lifetimeLimitCents === lifetime) return;
  await setSpendingLimit(cardId, lifetime);
  await updateCard(cardId, { lifetimeLimitCents: lifetime });
}

/** Everything ever credited to the person's card account, in cents (what a first card may ever spend). */
export async function creditedToCard(userId: string): Promise<number> {
  const lines = await statement(cardAccount(userId));
  return lines
    .filter((l) => l.amountCents > 0 && CREDIT_KINDS.has(l.kind))
    .reduce((s, l) => s + l.amountCents, 0);
}
