/**
 * The manager's cards on file. Card numbers never reach us: the browser sends
 * a provider token.
 */

import { AppError } from '@shared/errors';
import type { addCardInput } from '@shared/schemas/billing';
import type { z } from 'zod';
import {
  addCard as addStripeCard,
  CardDeclined,
  type CardOnFile,
  deleteCard as deleteStripeCard,
  listCards,
  setDefaultCard,
} from '../../adapters/stripe';
import { getTeam } from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import type { Actor } from '../../platform/auth';
import { errorFields, type Logger } from '../../platform/log';
import { fundPendingMembers } from './pendingFunding';

/** The actor's team, or 404. */
export async function teamOf(actor: Actor) {
  const team = await getTeam(actor.teamId);
  if (!team) throw new AppError('NOT_FOUND', 'Your team could not be found.');
  return team;
}

/** A card the provider declined is a broken rule, said in the provider's words; anything else is rethrown. */
export function declined(error: unknown): never {
  if (error instanceof CardDeclined) throw new AppError('RULE_VIOLATED', error.message);
  throw error;
}

async function customerOf(actor: Actor): Promise<string> {
  const team = await teamOf(actor);
  if (!team.stripeCustomerId) throw new AppError('CONFLICT', 'Finish setting up your account first.');
  return team.stripeCustomerId;
}

export async function getCustomer(actor: Actor) {
  return listCards(await customerOf(actor));
}

/**
 * After the card to charge changed: fund anyone whose charge was declined (or
 * cut off) before. The card change itself has succeeded by then, so a failure
 * here is logged, not answered: the daily job retries pending members.
 */
async function fundAfterCardChange(teamId: string, now: Date, log: Logger): Promise<void> {
  try {
    const outcome = await fundPendingMembers(teamId, now, log);
    if (outcome.funded || outcome.declined || outcome.failed)
      log.info('pending members retried', { ...outcome });
  } catch (error) {
    log.error('funding pending members after a card change failed', errorFields(error));
  }
}

/**
 * Adds a card. Stripe keeps the existing default when a card is added, and
 * charges always go to the default. A team past due has a default that was
 * declined, and the manager adds a card to replace it: that card becomes the
 * primary, so the retry below (and the next renewal) charges it rather than the
 * declined one. A team in good standing keeps its primary; "set primary"
 * switches it.
 */
export async function addCard(actor: Actor, input: z.output<typeof addCardInput>, now: Date, log: Logger) {
  const team = await teamOf(actor);
  if (!team.stripeCustomerId) throw new AppError('CONFLICT', 'Finish setting up your account first.');
  const customerId = team.stripeCustomerId;
  let card: CardOnFile;
  try {
    card = await addStripeCard(customerId, input.token, `ADDCARD#${actor.teamId}#${input.token}`);
  } catch (error) {
    declined(error);
  }
  const makePrimary = team.status === 'pastDue';
  if (makePrimary) await setDefaultCard(customerId, card.id);
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'billing.cardAdded',
    after: {
      brand: card.brand,
      last4: card.last4,
      ...(makePrimary ? { cardId: card.id, primary: true } : {}),
    },
    at: now.toISOString(),
  });
  await fundAfterCardChange(actor.teamId, now, log);
  return listCards(customerId);
}

/** Sets the primary card, then charges it for anyone still pending. */
export async function updateDefaultCard(actor: Actor, cardId: string, now: Date, log: Logger) {
  const customerId = await customerOf(actor);
  const { cards } = await listCards(customerId);
  const card = cards.find((c) => c.id === cardId);
  if (!card) throw new AppError('NOT_FOUND', 'No such card on file.');
  await setDefaultCard(customerId, cardId);
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'billing.defaultCard',
    // Brand and last 4, so the log says which card (never more of the number).
    after: { cardId, brand: card.brand, last4: card.last4 },
    at: now.toISOString(),
  });
  await fundAfterCardChange(actor.teamId, now, log);
  return listCards(customerId);
}

export async function removeCard(actor: Actor, cardId: string, now: Date) {
  const customerId = await customerOf(actor);
  const { cards } = await listCards(customerId);
  const card = cards.find((c) => c.id === cardId);
  if (!card) throw new AppError('NOT_FOUND', 'No such card on file.');
  // Spec: delete is offered only when more than one card is on file; the server holds the same rule.
  if (cards.length <= 1) throw new AppError('RULE_VIOLATED', 'Add another card before deleting this one.');
  await deleteStripeCard(customerId, cardId);
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'billing.cardDeleted',
    before: { cardId, brand: card.brand, last4: card.last4 },
    at: now.toISOString(),
  });
  return listCards(customerId);
}
