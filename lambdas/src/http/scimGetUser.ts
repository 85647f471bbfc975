/** GET /scim/v2/Users/{id} - provisioning token: one of the team's SCIM users, or a SCIM 404. */
import { httpHandler } from '../platform/http';
import { getUserResource } from '../services/provisioning';

export const handler = httpHandler('scimGetUser', ({ provisioner, input }) =>
  getUserResource(provisioner, input.id),
);
