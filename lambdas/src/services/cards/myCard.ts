/**
 * The signed-in employee's own card: balance (with what is on hold, what they
 * owe and the last decline), statement, and the ephemeral key that lets the
 * browser show the card number in the issuer's frame. Each reads only the
 * caller's own records, so no team check is needed.
 */

import { isDeclineRecent } from '@shared/domain/lastDecline';
import { cardAccount, debtAccount, holdAccount } from '@shared/domain/ledger';
import { freezeReason } from '@shared/domain/spendPolicy';
import { statementRows } from '@shared/domain/statement';
import { AppError } from '@shared/errors';
import { createCardKey } from '../../adapters/stripe';
import { getTeam } from '../../data/accounts';
import { declinesPage, getCard, recentAuthorizations } from '../../data/cards';
import { balanceOf, creditedSince, statement } from '../../data/ledger';
import { getUser } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { stripeConfig } from '../../platform/config';
import { overdueReceipts } from '../receipts';

/**
 * The newest decision when it is a decline still worth showing
 * (shared/src/domain/lastDecline.ts): under 7 days old, and no money has come
 * onto the card since, which would make the balance its reason quotes stale.
 */
async function currentDecline(userId: string, now: Date) {
  const [last] = await recentAuthorizations(userId, 1);
  if (!last || last.approved || !isDeclineRecent(last.decidedAt, now)) return null;
  if (await creditedSince(cardAccount(userId), last.decidedAt)) return null;
  return {
    amountCents: last.amountCents,
    merchant: last.merchant,
    reason: last.reason ?? 'Declined',
    at: last.decidedAt,
  };
}

/** The signed-in employee's own balance and card. Polled by the web app every few seconds while visible. */
export async function myBalance(actor: Actor, now: Date) {
  const user = await getUser(actor.userId);
  const [card, team] = await Promise.all([
    user?.cardId ? getCard(user.cardId) : undefined,
    user?.teamId ? getTeam(user.teamId) : undefined,
  ]);
  const [available, onHold, debt, lastDecline] = await Promise.all([
    balanceOf(cardAccount(actor.userId)),
    balanceOf(holdAccount(actor.userId)),
    balanceOf(debtAccount(actor.userId)),
    currentDecline(actor.userId, now),
  ]);
  // Only a card frozen for receipts costs the extra read (this is polled every few seconds).
  const receiptFreeze =
    user && card?.status === 'inactive' && card.freeze?.missingReceipt
      ? { overdue: await overdueReceipts(user.teamId, actor.userId, now) }
      : null;
  const address = team?.billingAddress;
  return {
    availableCents: available,
    onHoldCents: onHold,
    owedCents: -debt,
    cardStatus: (card?.status ?? 'pending') as 'active' | 'inactive' | 'canceled' | 'pending',
    last4: card?.last4 ?? null,
    freezeReason: card?.status === 'inactive' ? freezeReason(card.freeze) : null,
    receiptFreeze,
    card:
      card && user
        ? {
            // As the card was issued (services/billing/joining.ts ensureCard): the issuer's cardholder.
            cardholderName: `${user.firstName} ${user.lastName}`.slice(0, 24),
            expMonth: card.expMonth,
            expYear: card.expYear,
            billingAddress: address
              ? { address1: address.address1, city: address.city, state: address.state, zip: address.zip }
              : null,
          }
        : null,
    lastDecline,
  };
}

/**
 * How many declined purchases the statement shows, newest first: a card tried
 * a thousand times does not bury its movements (Purchase History pages
 * through every decline).
 */
export const STATEMENT_DECLINES_MAX = 50;

/**
 * The employee's statement: one finished row per movement, newest first, with
 * the available balance, the money on hold and any debt after it (built by
 * shared/src/domain/statement.ts from the three accounts' entries), and the
 * newest declined purchases among them, which move nothing.
 */
export async function myStatement(actor: Actor) {
  const [card, hold, debt, declines] = await Promise.all([
    statement(cardAccount(actor.userId)),
    statement(holdAccount(actor.userId)),
    statement(debtAccount(actor.userId)),
    declinesPage({ userId: actor.userId }, STATEMENT_DECLINES_MAX),
  ]);
  return { lines: statementRows({ card, hold, debt }, declines) };
}

/**
 * An ephemeral key for the employee's own card, so the browser shows number and
 * CVC in the issuer's frame: they never pass through our servers, database or logs.
 */
export async function cardKey(actor: Actor, nonce: string | undefined) {
  const user = await getUser(actor.userId);
  const card = user?.cardId ? await getCard(user.cardId) : undefined;
  if (!card || card.userId !== actor.userId) throw new AppError('NOT_FOUND', 'You have no card yet.');
  // A frozen or cancelled card's number stays masked: its frame is not offered at all.
  if (card.status !== 'active')
    throw new AppError('RULE_VIOLATED', 'Your card is frozen: its number is hidden.');
  const local = stripeConfig().STRIPE_API_URL;
  // In AWS the browser shows the card with Stripe Issuing Elements, which take only a key
  // made with Stripe.js's nonce for this card: without one, say which card to make it for,
  // and hand out no key (a key without a nonce would be a card-reading secret for nothing).
  if (!local && !nonce) return { cardId: card.cardId };
  const key = await createCardKey(card.cardId, nonce);
  return {
    cardId: card.cardId,
    ephemeralKeySecret: key.secret,
    expires: key.expires,
    // Locally the emulator serves the card frame; in AWS the page uses Stripe Issuing Elements.
    ...(local
      ? {
          frameUrl: `${local.replace(/\/$/, '')}/issuing-elements/card?card=${card.cardId}&ephemeral_key=${key.secret}`,
        }
      : {}),
  };
}
