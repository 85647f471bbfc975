/** POST /invitations - manager with a verified e-mail. Per-address results; invitation e-mails; audited. */
import { httpHandler } from '../platform/http';
import { inviteEmployees } from '../services/employees';

export const handler = httpHandler('inviteEmployees', ({ actor, input, now }) =>
  inviteEmployees(actor, input, now),
);
