/**
 * Reconciliation: the daily comparison of our ledger with Stripe's charges
 * and issuing transactions, posting what a lost webhook or a crash left out.
 */
export { runReconciliation } from './run';
