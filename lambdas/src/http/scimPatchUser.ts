/** PATCH /scim/v2/Users/{id} - provisioning token: Okta's and Entra's PATCH forms; active false removes the person. */
import { httpHandler } from '../platform/http';
import { patchUser } from '../services/provisioning';

export const handler = httpHandler('scimPatchUser', ({ provisioner, input, now }) => {
  const { id, ...body } = input;
  return patchUser(provisioner, id, body, now);
});
