/** PUT /billing/customer - verified manager. Sets the primary card. */
import { httpHandler } from '../platform/http';
import { updateDefaultCard } from '../services/billing';

export const handler = httpHandler('updateCustomer', ({ actor, input, now, log }) =>
  updateDefaultCard(actor, input.defaultCardId, now, log),
);
