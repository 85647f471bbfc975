/**
 * Logs and metrics as Lambda writes them: the lines on stdout/stderr are read
 * back and parsed, as CloudWatch Logs (and its EMF extraction) would.
 */

import { METRICS_NAMESPACE, metricNames } from '@shared/observability';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, errorFields } from '../../lambdas/src/platform/log';
import { countMetric, metrics, withMetrics } from '../../lambdas/src/platform/metrics';
import { REDACTED, redactText } from '../../lambdas/src/platform/redact';

const VISA = '4242424242424242';

let lines: string[];
const saved = { ...process.env };

beforeEach(() => {
  lines = [];
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(line);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  vi.spyOn(console, 'log').mockImplementation((...a) => capture(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a) => capture(a.join(' ')));
  delete process.env.LOG_FORMAT;
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.LOG_LEVEL = 'info';
});

afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...saved };
});

const json = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('redaction', () => {
  it('masks a card number (Luhn-valid, grouped or not) to its last four', () => {
    expect(redactText(`card ${VISA} declined`)).toBe('card [card ****4242] declined');
    expect(redactText('pan 4000-0566-5566-5556.')).toBe('pan [card ****5556].');
    expect(redactText('5555 5555 5555 4444')).toBe('[card ****4444]');
  });

  it('leaves numbers that are not card numbers alone', () => {
    // Not Luhn-valid, too short, or part of an id: amounts, timestamps, ids stay readable.
    expect(redactText('amount 1999 cents at 1732500000000')).toBe('amount 1999 cents at 1732500000000');
    expect(redactText('4242424242424241')).toBe('4242424242424241');
    // Luhn-valid, but epoch milliseconds: card numbers do not start with 1.
    expect(redactText('at 1732500000002')).toBe('at 1732500000002');
  });

  it('removes Stripe secret keys, webhook secrets and JWTs inside text', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJl';
    const text = redactText(`key sk_test_abc123 secret whsec_xyz token ${jwt}`);
    expect(text).toBe(`key ${REDACTED} secret ${REDACTED} token ${REDACTED}`);
  });
});

describe('the logger (Powertools behind createLogger)', () => {
  it('writes one JSON line with level, service, message and the correlation fields', () => {
    createLogger({ operationId: 'joinWaitlist', requestId: 'req-1', correlation_id: 'req-1' }).info(
      'request handled',
      { status: 201 },
    );
    const [line] = json();
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'request handled',
      service: 'learning-budget',
      operationId: 'joinWaitlist',
      requestId: 'req-1',
      correlation_id: 'req-1',
      status: 201,
    });
    expect(typeof line?.timestamp).toBe('string');
  });

  it('never prints a secret-named field, a card number or a token, even nested or in an error', () => {
    const log = createLogger({ requestId: 'req-2' }).child({ eventId: 'evt_1' });
    log.warn('suspicious', {
      password: 'hunter2-passphrase',
      body: { card: { number: VISA, cvc: '123' }, newPassword: 'n3w-passphrase' },
      authorization: 'Bearer abc.def.ghi',
      refreshToken: 'r-token-value',
    });
    log.error('stripe call failed', errorFields(new Error(`card ${VISA} with sk_live_secretvalue`)));
    const everything = lines.join('\n');
    for (const secret of [
      'hunter2-passphrase',
      VISA,
      '"123"',
      'n3w-passphrase',
      'abc.def.ghi',
      'r-token-value',
      'sk_live_secretvalue',
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(json()[0]).toMatchObject({ eventId: 'evt_1', requestId: 'req-2', password: REDACTED });
    expect(everything).toContain('****4242');
  });

  it('honours LOG_LEVEL at each call', () => {
    const log = createLogger();
    process.env.LOG_LEVEL = 'error';
    log.info('hidden');
    process.env.LOG_LEVEL = 'debug';
    log.debug('shown');
    expect(json().map((l) => l.message)).toEqual(['shown']);
  });

  it('prints the readable local line with LOG_FORMAT=pretty, redacted too', () => {
    process.env.LOG_FORMAT = 'pretty';
    createLogger({ operationId: 'addCard', requestId: 'r' }).info('card added', {
      number: VISA,
      last4: '4242',
    });
    expect(lines).toEqual([`[lambda] info addCard: card added number=${REDACTED} last4=4242`]);
  });
});

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  [key: string]: unknown;
}

describe('metrics (Powertools EMF)', () => {
  it('flushes one EMF line per dimension set when the invocation ends', async () => {
    await withMetrics('stripeWebhook', async () => {
      metrics.authorizationDecided('declined', 'over_balance', 12.5);
      metrics.authorizationDecided('declined', 'over_balance', 30);
      expect(lines).toEqual([]); // nothing before the end
    });
    const emf = json() as Emf[];
    expect(emf).toHaveLength(2);
    const decision = emf.find((e) => metricNames.authorizationDecision in e);
    expect(decision?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [['service', 'outcome', 'reason']],
      Metrics: [{ Name: metricNames.authorizationDecision, Unit: 'Count' }],
    });
    expect(decision).toMatchObject({
      service: 'learning-budget',
      outcome: 'declined',
      reason: 'over_balance',
      [metricNames.authorizationDecision]: [1, 1],
    });
    const latency = emf.find((e) => metricNames.authorizationLatency in e);
    expect(latency?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service']]);
    expect(latency?.[metricNames.authorizationLatency]).toEqual([12.5, 30]);
  });

  it('flushes when the work throws, and keeps invocations running at once apart', async () => {
    const failing = withMetrics('a', async () => {
      countMetric(metricNames.transactionConflictRetry);
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('boom');
    });
    const other = withMetrics('b', async () => {
      metrics.jobFinished('monthlyFunding', 'succeeded', 5);
    });
    await expect(failing).rejects.toThrow('boom');
    await other;
    const emf = json() as Emf[];
    const retries = emf.filter((e) => metricNames.transactionConflictRetry in e);
    expect(retries).toHaveLength(1);
    expect(retries[0]).not.toHaveProperty(metricNames.jobSucceeded);
    expect(emf.find((e) => metricNames.jobSucceeded in e)).toMatchObject({ job: 'monthlyFunding' });
  });

  it('prints nothing with POWERTOOLS_METRICS_DISABLED, and the local line with LOG_FORMAT=pretty', async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    await withMetrics('x', async () => metrics.webhookFailed());
    expect(lines).toEqual([]);
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    process.env.LOG_FORMAT = 'pretty';
    await withMetrics('stripeWebhook', async () => metrics.webhookSignatureFailed());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[lambda\] metrics stripeWebhook: \{"_aws"/);
    expect(lines[0]).toContain(`"${metricNames.webhookSignatureFailure}":1`);
  });

  it('writes a metric at once outside any invocation (scripts, the reconciliation helper)', () => {
    metrics.reconciliationDifferences(2, 350);
    const emf = json() as Emf[];
    expect(emf.map((e) => e._aws.CloudWatchMetrics[0]?.Metrics[0]?.Name)).toEqual([
      metricNames.reconciliationDifferences,
      metricNames.reconciliationDifferenceCents,
    ]);
  });
});
