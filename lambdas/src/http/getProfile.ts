/** GET /users/{userId} - signed in: yourself, or (manager) an employee of your team; else 404. */
import { httpHandler } from '../platform/http';
import { getProfile } from '../services/accounts';

export const handler = httpHandler('getProfile', ({ actor, input }) => getProfile(actor, input.userId));
