/**
 * Daily at 05:00 UTC, before the monthly funding run: compares what Stripe
 * holds (charges, refunds, issuing transactions and authorizations created
 * since the last run) with the ledger, posts what the product's own flows
 * left unposted, and reports what it cannot explain. Every posting uses the
 * original flow's entry id, so a second run (or the flow's own retry) posts
 * nothing. Rules: services/reconciliation/run.ts.
 */
import { jobHandler } from '../platform/job';
import { runReconciliation } from '../services/reconciliation';

export const handler = jobHandler('reconciliation', async ({ now, log }) => ({
  ...(await runReconciliation(now, log)),
}));
