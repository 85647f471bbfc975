/**
 * POST /scim/v2/Users - provisioning token: invites the person at the team's
 * provisioning budget, within the daily limit (429 over it, nobody invited);
 * 409 uniqueness for a duplicate. E-mails the invitation. Audited as the token.
 */
import { httpHandler } from '../platform/http';
import { createUser } from '../services/provisioning';

export const handler = httpHandler('scimCreateUser', ({ provisioner, input, now }) =>
  createUser(provisioner, input, now),
);
