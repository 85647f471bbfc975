/** DELETE /billing/cards/{cardId} - verified manager. Refused while it is the only card. */
import { httpHandler } from '../platform/http';
import { removeCard } from '../services/billing';

export const handler = httpHandler('deleteCard', ({ actor, input, now }) =>
  removeCard(actor, input.cardId, now),
);
