/** GET /provisioning - manager: the SCIM base address, the provisioning budgets and the tokens (never the tokens themselves). */
import { httpHandler } from '../platform/http';
import { getProvisioning } from '../services/provisioning';

export const handler = httpHandler('getProvisioning', ({ actor }) => getProvisioning(actor));
