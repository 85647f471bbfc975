/** GET /scim/v2/Schemas - provisioning token: the User and enterprise User attributes kept. */
import { listResponse, schemas } from '@shared/domain/scim';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('scimSchemas', async () => {
  const all = schemas();
  return listResponse(all, all.length, 1);
});
