/**
 * What operations see: the real webhook and job handlers, through the local
 * gateway on DynamoDB Local, write EMF metrics CloudWatch would turn into the
 * metrics the alarms watch (shared/src/observability.ts), and log lines that
 * carry the request and Stripe event ids but never a card number.
 * (The integration stack turns metrics off; these tests turn them on while they look.)
 */

import { metricNames } from '@shared/observability';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fundedCard as fundedCardOn } from '../support/fundedCard';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { authorizationObject, deliver, event, sign } from '../support/stripeEvents';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

let lines: string[];
beforeEach(() => {
  lines = [];
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(line);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.LOG_LEVEL = 'info';
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  process.env.LOG_LEVEL = 'error';
});

type Line = Record<string, unknown> & { _aws?: { CloudWatchMetrics: { Dimensions: string[][] }[] } };
const parsed = (): Line[] => lines.map((l) => JSON.parse(l) as Line);
const emf = (name: string) => parsed().filter((l) => l._aws && name in l);

const fundedCard = (cents: number) => fundedCardOn(stack, cents);

describe('authorization metrics and logs', () => {
  it('counts each decision by outcome and reason, times it, and logs it under the Stripe event id', async () => {
    const card = await fundedCard(5000);
    const approve = event(
      'issuing_authorization.request',
      authorizationObject({ ...card, amountCents: 1999 }),
    );
    const decline = event(
      'issuing_authorization.request',
      authorizationObject({ ...card, amountCents: 9000 }),
    );
    expect((await deliver(stack.apiUrl, approve)).body.approved).toBe(true);
    expect((await deliver(stack.apiUrl, decline)).body.approved).toBe(false);

    const decisions = emf(metricNames.authorizationDecision);
    expect(decisions.map((d) => [d.outcome, d.reason, d[metricNames.authorizationDecision]])).toEqual([
      ['approved', 'none', 1],
      ['declined', 'over_balance', 1],
    ]);
    expect(decisions[0]?._aws?.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'outcome', 'reason']]);
    const latencies = emf(metricNames.authorizationLatency).map((l) => l[metricNames.authorizationLatency]);
    expect(latencies).toHaveLength(2);
    for (const ms of latencies) expect(ms).toBeGreaterThan(0);

    const decided = parsed().filter((l) => l.message === 'authorization decided');
    expect(decided.map((l) => l.eventId)).toEqual([approve.id, decline.id]);
    for (const line of decided) expect(line.correlation_id).toBe(line.requestId);
  });

  it('counts a refused signature, and nothing is decided', async () => {
    const evt = event(
      'issuing_authorization.request',
      authorizationObject({ cardId: 'ic_nobody', amountCents: 100 }),
    );
    const res = await deliver(stack.apiUrl, evt, { signature: sign('something else') });
    expect(res.status).toBe(400);
    expect(emf(metricNames.webhookSignatureFailure)).toHaveLength(1);
    expect(emf(metricNames.authorizationDecision)).toHaveLength(0);
  });
});

describe('job metrics', () => {
  it('counts a run that did the work, then a second firing the same day as skipped', async () => {
    const { handler } = (await import('../../lambdas/src/jobs/dormancyNotices')) as {
      handler: (e: { time: string }) => Promise<{ status: string }>;
    };
    const time = '2031-01-05T15:00:00.000Z';
    expect((await handler({ time })).status).toBe('done');
    expect((await handler({ time })).status).toBe('skipped');
    const [succeeded] = emf(metricNames.jobSucceeded);
    expect(succeeded).toMatchObject({ job: 'dormancyNotices', [metricNames.jobSucceeded]: 1 });
    expect(emf(metricNames.jobSkipped)).toHaveLength(1);
    expect(emf(metricNames.jobDuration)).toHaveLength(1);
  });
});
