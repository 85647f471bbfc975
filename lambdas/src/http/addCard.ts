/** POST /billing/cards - verified manager, Idempotency-Key. Adds a card from a provider token. */
import { httpHandler } from '../platform/http';
import { addCard } from '../services/billing';

export const handler = httpHandler('addCard', ({ actor, input, now, log }) =>
  addCard(actor, input, now, log),
);
