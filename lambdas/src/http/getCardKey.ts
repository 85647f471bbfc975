/** POST /me/cardKey - employee with a verified e-mail, rate limited. An ephemeral key for their own card's frame. */
import { httpHandler } from '../platform/http';
import { cardKey } from '../services/cards';

export const handler = httpHandler('getCardKey', ({ actor, input }) => cardKey(actor, input.nonce));
