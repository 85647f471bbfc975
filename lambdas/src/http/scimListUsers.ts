/** GET /scim/v2/Users - provisioning token: the team's SCIM users, by `userName eq`/`externalId eq` filter, paged. */
import { httpHandler } from '../platform/http';
import { listUsers } from '../services/provisioning';

export const handler = httpHandler('scimListUsers', ({ provisioner, input }) =>
  listUsers(provisioner, input),
);
