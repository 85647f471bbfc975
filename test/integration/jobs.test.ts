import { jobFile, jobIds } from '@shared/api/schedules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;
beforeAll(async () => {
  // The reconciliation job reads Stripe's lists (empty here).
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

type JobHandler = (event?: {
  time?: string;
}) => Promise<{ status: string; summary?: Record<string, number> }>;

describe.each(jobIds)('scheduled job %s', (jobId) => {
  it('runs once per day however often it is fired, and records the run', async () => {
    const { handler } = (await import(`../../${jobFile(jobId)}`)) as { handler: JobHandler };
    const time = '2026-03-02T06:00:00.000Z';
    const first = await handler({ time });
    const second = await handler({ time });
    expect(first.status).toBe('done');
    expect(second.status).toBe('skipped');
    const run = await stack.getItem(keys.jobRun(jobId, '2026-03-02'));
    expect(run).toMatchObject({ status: 'done', jobId, day: '2026-03-02' });
    expect(run?.summary).toEqual(first.summary);

    const nextDay = await handler({ time: '2026-03-03T06:00:00.000Z' });
    expect(nextDay.status).toBe('done');
  });
});
