/** GET /me/secondFactor - signed in. Whether an authenticator app is on, and how many recovery codes are left. */
import { httpHandler } from '../platform/http';
import { secondFactorStatus } from '../services/accounts';

export const handler = httpHandler('getSecondFactor', ({ actor }) => secondFactorStatus(actor.userId));
