/** PUT /scim/v2/Users/{id} - provisioning token: replaces the person; active false removes them as a manager's delete does. */
import { httpHandler } from '../platform/http';
import { replaceUser } from '../services/provisioning';

export const handler = httpHandler('scimReplaceUser', ({ provisioner, input, now }) => {
  const { id, ...body } = input;
  return replaceUser(provisioner, id, body, now);
});
