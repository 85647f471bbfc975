/**
 * GET /me/secondFactor - signed in. Whether an authenticator app is on, how many recovery codes are
 * left, and whether this token would be asked for a fresh factor now (the web app asks before sending).
 */
import { hasFreshFactor } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { secondFactorStatus } from '../services/accounts';

export const handler = httpHandler('getSecondFactor', async ({ actor, now }) => {
  const [status, fresh] = await Promise.all([secondFactorStatus(actor.userId), hasFreshFactor(actor, now)]);
  return { ...status, stepUpNeeded: !fresh };
});
