/** POST /employees/cardStatus - manager. Freeze or activate cards at the issuer and here; audited. */
import { httpHandler } from '../platform/http';
import { setCardStatus } from '../services/employees';

export const handler = httpHandler('setCardStatus', ({ actor, input, now }) =>
  setCardStatus(actor, input.userIds, input.status, now),
);
