/**
 * Daily at 13:00 UTC. Fund requests unanswered for 14 days expire: each is
 * marked expired once (conditioned on still pending), audited, and the
 * employee and manager are e-mailed. Reads show a pending request past its
 * day as expired before this runs (services/requests/requests.ts).
 */
import { jobHandler } from '../platform/job';
import { expireRequests } from '../services/requests';

export const handler = jobHandler('requestExpiry', async ({ now, log }) => ({
  ...(await expireRequests(now, log)),
}));
