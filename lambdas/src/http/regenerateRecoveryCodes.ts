/** POST /me/secondFactor/recoveryCodes - signed in. With a current code: ten new recovery codes; the old ones stop working. */
import { httpHandler } from '../platform/http';
import { regenerateRecoveryCodes } from '../services/accounts';

export const handler = httpHandler('regenerateRecoveryCodes', ({ actor, input }) =>
  regenerateRecoveryCodes(actor, input.code),
);
