/** POST /me/walkthrough - any signed-in role. Marks the caller's tour finished (or skipped); idempotent. */
import { httpHandler } from '../platform/http';
import { finishWalkthrough } from '../services/accounts';

export const handler = httpHandler('finishWalkthrough', ({ actor }) => finishWalkthrough(actor));
