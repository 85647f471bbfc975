/**
 * Daily at 14:00 UTC. Reminds employees of receipts due within the 5-business-day
 * window, freezes cards with an overdue receipt ("missing receipt"), and lifts
 * that freeze once every overdue receipt is in. Purchases arrive with the money
 * core; until then there is nothing to check.
 */
import { jobHandler } from '../platform/job';

export const handler = jobHandler('receiptDeadlines', async () => ({
  remindersSent: 0,
  cardsFrozen: 0,
  cardsUnfrozen: 0,
}));
