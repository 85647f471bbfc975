/**
 * The product's custom CloudWatch metrics, named once: the Lambda code emits
 * them (lambdas/src/platform/metrics.ts, as EMF log lines) and CDK alarms and
 * graphs them (infra/lib/constructs/operations.ts). A name changed here
 * changes both, so an alarm can never watch a metric nobody emits.
 *
 * Every metric carries the `service` dimension; some add the ones listed.
 */
export const METRICS_NAMESPACE = 'LearningBudget';
/** The `service` dimension when nothing else is set (locally, tests). */
export const METRICS_SERVICE = 'learning-budget';

/**
 * The `service` dimension of one deployed stage: CDK sets it on every function
 * as POWERTOOLS_SERVICE_NAME, so two stages in one account never add up.
 */
export function serviceNameOf(stage: string): string {
  return `${METRICS_SERVICE}-${stage}`;
}

export const metricNames = {
  /** One per authorization request answered; dimensions outcome (approved|declined) and reason (a decline code). */
  authorizationDecision: 'AuthorizationDecision',
  /** Milliseconds from the verified webhook to the decision, per authorization request; no extra dimension. */
  authorizationLatency: 'AuthorizationLatency',
  /** A webhook refused for a missing, invalid or stale signature (400). */
  webhookSignatureFailure: 'WebhookSignatureFailure',
  /** A webhook that failed on our side (500; Stripe retries it). */
  webhookFailure: 'WebhookFailure',
  /** A ledger transaction retried after DynamoDB's TransactionConflict. */
  transactionConflictRetry: 'TransactionConflictRetry',
  /** A scheduled job finished its day's work; dimension job. */
  jobSucceeded: 'JobSucceeded',
  /** A scheduled job threw; dimension job. */
  jobFailed: 'JobFailed',
  /** A scheduled job fired again on a day already claimed; dimension job. */
  jobSkipped: 'JobSkipped',
  /** Milliseconds a job's run took; dimension job. */
  jobDuration: 'JobDuration',
  /** Work a job left to its next run because its time was running out (teams, for funding); dimension job. */
  jobWorkLeft: 'JobWorkLeft',
  /** Differences found by reconciliation (ledger against Stripe), as a count. */
  reconciliationDifferences: 'ReconciliationDifferences',
  /** The same differences' absolute sum in cents. */
  reconciliationDifferenceCents: 'ReconciliationDifferenceCents',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

/** Dimension values for authorization outcomes: a closed set, so graphs stay cheap. */
export type AuthorizationOutcome = 'approved' | 'declined';
