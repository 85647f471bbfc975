/**
 * GET /exports/accounting?month=yyyy-mm&format=quickbooks|xero - manager, own
 * team only. One month of the team's money movements as manual journals in
 * the chosen tool's import CSV, as a file download. Read-only.
 */
import { httpHandler } from '../platform/http';
import { exportAccounting } from '../services/team';

export const handler = httpHandler('exportAccounting', ({ actor, input, now }) =>
  exportAccounting(actor, input, now),
);
