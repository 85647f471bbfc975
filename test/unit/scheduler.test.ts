import { type Cron, type JobId, jobIds, jobs } from '@shared/api/schedules';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextFireTime, startScheduler } from '../../infra/local/scheduler';

describe('local scheduler cron', () => {
  it.each([
    [{ minute: '0', hour: '6' }, '2026-11-21T05:59:30Z', '2026-11-21T06:00:00.000Z'],
    [{ minute: '0', hour: '6' }, '2026-11-21T06:00:00Z', '2026-11-22T06:00:00.000Z'],
    [{ minute: '30', hour: '14' }, '2026-12-31T23:00:00Z', '2027-01-01T14:30:00.000Z'],
    [{ minute: '0', hour: '6', day: '1' }, '2026-11-21T06:00:00Z', '2026-12-01T06:00:00.000Z'],
    [{ minute: '0,30', hour: '*' }, '2026-11-21T06:10:00Z', '2026-11-21T06:30:00.000Z'],
  ])('%j after %s fires at %s', (cron, from, expected) => {
    expect(nextFireTime(cron, new Date(from)).toISOString()).toBe(expected);
  });
});

describe('local scheduler timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Every job's handler, counting its runs; the clock starts a minute before the first cron time of the day. */
  async function scheduler(armed: boolean | undefined) {
    vi.useFakeTimers({ now: new Date('2026-11-21T04:59:00Z') });
    const runs: JobId[] = [];
    const handlers = new Map(
      jobIds.map((id) => [id, async () => void runs.push(id)] as [JobId, () => Promise<void>]),
    );
    const started = await startScheduler({
      log: () => undefined,
      handlers,
      ...(armed === undefined ? {} : { armed }),
    });
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    await started.stop();
    return runs;
  }

  it('fires every daily job once a day by the clock, as npm start needs', async () => {
    const daily = jobIds.filter((id) => (jobs[id].cron as Cron).day === undefined);
    expect(daily.length).toBeGreaterThan(0);
    expect([...(await scheduler(undefined))].sort()).toEqual([...daily].sort());
  });

  it('fires nothing by the clock when tests turn the timers off; a job still runs on request', async () => {
    expect(await scheduler(false)).toEqual([]);
    const runs: JobId[] = [];
    const started = await startScheduler({
      log: () => undefined,
      handlers: new Map(
        jobIds.map((id) => [id, async () => void runs.push(id)] as [JobId, () => Promise<void>]),
      ),
      armed: false,
    });
    await started.run(jobIds[0] as JobId);
    expect(runs).toEqual([jobIds[0]]);
  });
});
