/**
 * GET /team/purchases.csv?from=yyyy-mm&to=yyyy-mm - manager, own team only.
 * The team's purchases in the month range with receipt state, as a CSV file
 * download. Read-only.
 */
import { httpHandler } from '../platform/http';
import { exportTeamPurchases } from '../services/purchases';

export const handler = httpHandler('exportTeamPurchases', ({ actor, input, now }) =>
  exportTeamPurchases(actor, input, now),
);
