/**
 * POST /me/cardKey - employee with a verified e-mail, rate limited. An ephemeral
 * key for their own card, so the browser shows number and CVC in the issuer's
 * frame: they never pass through our servers, database or logs.
 */
import { AppError } from '../../../shared/src/errors';
import { createCardKey } from '../adapters/stripe';
import { getCard } from '../data/cards';
import { getUser } from '../data/users';
import { stripeConfig } from '../platform/config';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('getCardKey', async ({ actor, input }) => {
  const user = await getUser(actor.userId);
  const card = user?.cardId ? await getCard(user.cardId) : undefined;
  if (!card || card.userId !== actor.userId) throw new AppError('NOT_FOUND', 'You have no card yet.');
  const key = await createCardKey(card.cardId, input.nonce);
  const local = stripeConfig().STRIPE_API_URL;
  return {
    cardId: card.cardId,
    ephemeralKeySecret: key.secret,
    expires: key.expires,
    ...(local
      ? {
          frameUrl: `${local.replace(/\/$/, '')}/issuing-elements/card?card=${card.cardId}&ephemeral_key=${key.secret}`,
        }
      : {}),
  };
});
