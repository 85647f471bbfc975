/**
 * Daily at 14:00 UTC (9 or 10 am in New York, the business calendar's zone).
 * Reminds employees of receipts due in 2 business days and on the due day,
 * freezes cards with an overdue receipt (reason `missingReceipt`, kept beside a
 * manager's own freeze) and tells the employee and the manager, and lifts that
 * freeze where every overdue receipt is in. The wrapper runs it once per day;
 * inside, reminders are marked on the purchase and a freeze on the card, so a
 * retried run sends nothing twice. Rules: services/receipts/receiptPolicy.ts.
 */
import { jobHandler } from '../platform/job';
import { runReceiptDeadlines } from '../services/receipts';

export const handler = jobHandler('receiptDeadlines', async ({ now, log }) => ({
  ...(await runReceiptDeadlines(now, log)),
}));
