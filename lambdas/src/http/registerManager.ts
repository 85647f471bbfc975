/** POST /auth/registerManager - public, rate limited. Cognito user + team + manager; sends the verification e-mail. */
import { httpHandler } from '../platform/http';
import { registerManager } from '../services/accounts';

export const handler = httpHandler('registerManager', ({ input, now }) => registerManager(input, now));
