/** DELETE /scim/v2/Users/{id} - provisioning token: removes the person (or withdraws their invitation); 204, then 404. */
import { httpHandler } from '../platform/http';
import { deleteUser } from '../services/provisioning';

export const handler = httpHandler('scimDeleteUser', ({ provisioner, input, now }) =>
  deleteUser(provisioner, input.id, now),
);
