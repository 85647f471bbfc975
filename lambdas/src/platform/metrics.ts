/**
 * Custom metrics, written as CloudWatch Embedded Metric Format (EMF) log lines
 * by Powertools for AWS Lambda's Metrics: CloudWatch turns each line into
 * metric data points, so there is no PutMetricData call, no extra IAM right and
 * no latency on the request path. Names: shared/src/observability.ts (the
 * alarms in infra/lib/constructs/operations.ts read the same ones).
 *
 * Each invocation collects its metrics in its own buffer, found through
 * AsyncLocalStorage, so code deep inside (the ledger's retry loop) can count
 * without a context being passed down, and requests running at once in the
 * local gateway's single process never mix. The handler wrappers (http.ts,
 * webhook.ts, job.ts) open the buffer and flush it when the invocation ends,
 * whether it succeeded or threw.
 *
 * Output: one JSON line per dimension set on stdout (Lambda's log, where
 * CloudWatch reads EMF). Locally (`LOG_FORMAT=pretty`) the same JSON prints as
 * a `[lambda] metrics <who>: {...}` line of the local log, at info level.
 * `POWERTOOLS_METRICS_DISABLED=true` (tests, bench) prints nothing; it is read
 * at each flush, so a test can turn metrics on to look at them.
 *
 * For other modules: `countMetric(metricNames.x)` adds 1 (or n) to a counter;
 * `metrics.*` are the named helpers below. Outside any invocation (a script, a
 * test calling a service directly) a metric is written at once on its own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  type AuthorizationOutcome,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  type MetricName,
  metricNames,
} from '@shared/observability';
import { isPrettyFormat, writePretty } from './log';

export type Dimensions = Record<string, string>;
export type Unit = 'Count' | 'Milliseconds';

interface Invocation {
  /** Who is measuring: the operation or job id, for the local log line. */
  label: string;
  /** One Powertools buffer per dimension set (EMF puts one dimension set on every metric of a line). */
  sets: Map<string, Metrics>;
}

const current = new AsyncLocalStorage<Invocation>();

function bufferFor(invocation: Invocation, dimensions: Dimensions): Metrics {
  const key = JSON.stringify(Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b)));
  let buffer = invocation.sets.get(key);
  if (!buffer) {
    buffer = new Metrics({
      namespace: METRICS_NAMESPACE,
      serviceName: process.env.POWERTOOLS_SERVICE_NAME || METRICS_SERVICE,
    });
    if (Object.keys(dimensions).length > 0) buffer.addDimensions(dimensions);
    invocation.sets.set(key, buffer);
  }
  return buffer;
}

function disabled(): boolean {
  return /^(1|true|yes|on)$/i.test(process.env.POWERTOOLS_METRICS_DISABLED ?? '');
}

function localLevelAllowsInfo(): boolean {
  const level = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  return level === 'debug' || level === 'info';
}

/** Writes what the invocation measured: one EMF line per dimension set, then forgets it. */
function flush(invocation: Invocation): void {
  const sets = [...invocation.sets.values()];
  invocation.sets.clear();
  for (const buffer of sets) {
    if (!buffer.hasStoredMetrics()) continue;
    const emf = buffer.serializeMetrics();
    buffer.clearMetrics();
    if (disabled()) continue;
    const line = JSON.stringify(emf);
    if (isPrettyFormat()) {
      if (localLevelAllowsInfo()) writePretty(`[lambda] metrics ${invocation.label}: ${line}`);
    } else process.stdout.write(`${line}\n`);
  }
}

/**
 * Runs one invocation with its own metrics buffer and flushes it at the end
 * (also when `work` throws). The wrappers call this; handlers need not.
 */
export async function withMetrics<T>(label: string, work: () => Promise<T>): Promise<T> {
  const invocation: Invocation = { label, sets: new Map() };
  try {
    return await current.run(invocation, work);
  } finally {
    flush(invocation);
  }
}

/** Adds a value to the current invocation's metrics (or writes it at once outside one). */
export function recordMetric(name: MetricName, unit: Unit, value: number, dimensions: Dimensions = {}): void {
  const invocation = current.getStore();
  const target = invocation ?? { label: 'script', sets: new Map<string, Metrics>() };
  bufferFor(target, dimensions).addMetric(name, MetricUnit[unit], value);
  if (!invocation) flush(target);
}

/** Counts `value` (default 1) of a metric; the hook other modules call. */
export function countMetric(name: MetricName, value = 1, dimensions: Dimensions = {}): void {
  recordMetric(name, 'Count', value, dimensions);
}

/** The product's metrics by what happened; each maps to one name in shared/src/observability.ts. */
export const metrics = {
  authorizationDecided(outcome: AuthorizationOutcome, reason: string, latencyMs: number): void {
    countMetric(metricNames.authorizationDecision, 1, { outcome, reason });
    recordMetric(metricNames.authorizationLatency, 'Milliseconds', latencyMs);
  },
  webhookSignatureFailed(): void {
    countMetric(metricNames.webhookSignatureFailure);
  },
  webhookFailed(): void {
    countMetric(metricNames.webhookFailure);
  },
  /** For data/ledger.ts: one per retry after a TransactionConflict. */
  transactionConflictRetried(): void {
    countMetric(metricNames.transactionConflictRetry);
  },
  jobFinished(job: string, outcome: 'succeeded' | 'failed' | 'skipped', durationMs?: number): void {
    const name = {
      succeeded: metricNames.jobSucceeded,
      failed: metricNames.jobFailed,
      skipped: metricNames.jobSkipped,
    }[outcome];
    countMetric(name, 1, { job });
    if (durationMs !== undefined) recordMetric(metricNames.jobDuration, 'Milliseconds', durationMs, { job });
  },
  /** A job stopped starting work near its timeout: `count` units (teams) wait for its next run. */
  jobWorkLeft(job: string, count: number): void {
    countMetric(metricNames.jobWorkLeft, count, { job });
  },
  /** For the reconciliation job (not written yet): how many differences and their absolute sum in cents. */
  reconciliationDifferences(count: number, absoluteCents: number): void {
    countMetric(metricNames.reconciliationDifferences, count);
    recordMetric(metricNames.reconciliationDifferenceCents, 'Count', absoluteCents);
  },
};
