import { describe, expect, it } from 'vitest';
import { remainingTime } from '../../lambdas/src/platform/job';

// Read once, on first use (platform/config.ts): set before any run in this file.
process.env.JOB_TIME_BUDGET_MS = '120000';

describe('a job run’s remaining time', () => {
  it('is Lambda’s own count when the runtime hands over its context', () => {
    let left = 90_000;
    const remaining = remainingTime({ getRemainingTimeInMillis: () => left }, performance.now());
    expect(remaining()).toBe(90_000);
    left = 10_000;
    expect(remaining()).toBe(10_000);
  });

  it('outside Lambda, is JOB_TIME_BUDGET_MS less what the run has used', () => {
    // A run that started 200 s ago has used more than its 120 s budget.
    const remaining = remainingTime(undefined, performance.now() - 200_000);
    expect(remaining()).toBeLessThanOrEqual(120_000 - 200_000);
    // Never more than the budget, however recent the start.
    expect(remainingTime(undefined, performance.now())()).toBeLessThanOrEqual(120_000);
  });
});
