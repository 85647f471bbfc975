/** GET /billing/customer - manager. Cards on file (last4 only) and the primary one. */
import { httpHandler } from '../platform/http';
import { getCustomer } from '../services/billing';

export const handler = httpHandler('getCustomer', ({ actor }) => getCustomer(actor));
