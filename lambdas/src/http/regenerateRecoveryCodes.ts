/** POST /me/secondFactor/recoveryCodes - signed in. With a current code and the password (or an e-mailed code): ten new recovery codes; the old ones stop working. */
import { httpHandler } from '../platform/http';
import { regenerateRecoveryCodes } from '../services/accounts';

export const handler = httpHandler('regenerateRecoveryCodes', ({ actor, input, clientIp, now }) =>
  regenerateRecoveryCodes(actor, input, clientIp, now),
);
