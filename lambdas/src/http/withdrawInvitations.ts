/** POST /invitations/withdraw - manager with a verified e-mail. The team's pending invitations only; per-address results; audited. */
import { httpHandler } from '../platform/http';
import { withdrawInvitations } from '../services/employees';

export const handler = httpHandler('withdrawInvitations', ({ actor, input, now }) =>
  withdrawInvitations(actor, input.emails, now),
);
