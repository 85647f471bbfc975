/** GET /me - any signed-in role. The caller's own profile and team state; never anyone else's. */
import { httpHandler } from '../platform/http';
import { whoAmI } from '../services/accounts';

export const handler = httpHandler('getMe', ({ actor }) => whoAmI(actor));
