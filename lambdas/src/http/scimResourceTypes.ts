/** GET /scim/v2/ResourceTypes - provisioning token: the one resource type served (User). */
import { listResponse, userResourceType } from '@shared/domain/scim';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('scimResourceTypes', async () => listResponse([userResourceType()], 1, 1));
