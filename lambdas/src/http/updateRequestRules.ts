/** PUT /team/requestRules - verified manager, fresh factor. Sets the fund request rules; audited. */
import { httpHandler } from '../platform/http';
import { setRequestRules } from '../services/requests';

export const handler = httpHandler('updateRequestRules', ({ actor, input, now }) =>
  setRequestRules(actor, input, now),
);
