import { describe, expect, it } from 'vitest';
import { nextFireTime } from '../../infra/local/scheduler';

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
