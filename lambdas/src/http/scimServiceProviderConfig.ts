/** GET /scim/v2/ServiceProviderConfig - provisioning token: what this SCIM service supports. */
import { serviceProviderConfig } from '@shared/domain/scim';
import { httpHandler } from '../platform/http';
import { SCIM_MAX_RESULTS, scimBaseUrl } from '../services/provisioning';

export const handler = httpHandler('scimServiceProviderConfig', async () =>
  serviceProviderConfig(scimBaseUrl().replace(/\/api\/scim\/v2$/, '/docs/scim'), SCIM_MAX_RESULTS),
);
