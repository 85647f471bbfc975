/** The dormancy rules (shared/src/domain/dormancy.ts): when each notice falls due, catch-up, deactivation. */

import {
  addMonths,
  deactivationDue,
  dormancyViewOf,
  nextDormancyDay,
  noticeDueAt,
  noticesDue,
} from '@shared/domain/dormancy';
import { describe, expect, it } from 'vitest';

const since = '2025-01-31T10:00:00.000Z';

describe('dormancy rules', () => {
  it('counts calendar months, clamped to the month’s last day', () => {
    expect(addMonths(since, 1).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(addMonths(since, 13).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(noticeDueAt(since, 'warning11').toISOString()).toBe('2025-12-31T10:00:00.000Z');
    expect(noticeDueAt(since, 'notice12half').toISOString()).toBe('2026-02-15T10:00:00.000Z');
  });

  it('lists every notice due and unsent, in order: a missed day catches up, never skips', () => {
    expect(noticesDue(since, {}, new Date('2025-12-31T09:59:59.000Z'))).toEqual([]);
    expect(noticesDue(since, {}, new Date('2026-02-16T00:00:00.000Z'))).toEqual([
      'warning11',
      'notice12',
      'notice12half',
    ]);
    expect(
      noticesDue(since, { warning11: 'x', notice12: 'y' }, new Date('2026-02-16T00:00:00.000Z')),
    ).toEqual(['notice12half']);
  });

  it('deactivates 13 months on, and not before the 13-month notice is 24 hours old', () => {
    const told = { warning11: 'a', notice12: 'b', notice12half: 'c', notice13: '2026-03-05T15:00:00.000Z' };
    expect(deactivationDue(since, {}, new Date('2027-01-01'))).toBe(false);
    expect(deactivationDue(since, told, new Date('2026-03-06T14:59:59.000Z'))).toBe(false);
    expect(deactivationDue(since, told, new Date('2026-03-06T15:00:00.000Z'))).toBe(true);
    expect(nextDormancyDay(since, told)).toBe('2026-03-06');
    expect(nextDormancyDay(since, { ...told, deactivatedAt: 'd' })).toBeUndefined();
    expect(nextDormancyDay(since, {})).toBe('2025-12-31');
  });

  it('shows a stage and the day the card stops', () => {
    // The day after the 13-month notice's run: the run that stops the card.
    expect(dormancyViewOf(since, {}, 'UTC')).toEqual({ stage: 'active', inactiveFrom: '2026-03-01' });
    expect(dormancyViewOf(since, { warning11: 'a' }, 'UTC').stage).toBe('warned');
    expect(dormancyViewOf(since, { warning11: 'a', notice12: 'b' }, 'UTC').stage).toBe('noticed');
    expect(dormancyViewOf(since, { deactivatedAt: 'd' }, 'UTC')).toEqual({
      stage: 'dormant',
      inactiveFrom: null,
    });
    expect(dormancyViewOf(undefined, undefined, 'UTC')).toEqual({ stage: 'active', inactiveFrom: null });
  });

  it("names the day the card stops in the team's zone: the job's 15:00 UTC run is the next day in Kiritimati", () => {
    expect(dormancyViewOf(since, {}, 'America/Los_Angeles').inactiveFrom).toBe('2026-03-01');
    expect(dormancyViewOf(since, {}, 'Pacific/Kiritimati').inactiveFrom).toBe('2026-03-02');
  });
});

describe('time travel steps (infra/local/timeTravel.ts)', () => {
  it('parses days, weeks, hours and calendar months, and fires every job on each day passed, in order', async () => {
    const { parseTravel, firingsBetween } = await import('../../infra/local/timeTravel');
    const from = new Date('2026-01-31T12:00:00.000Z');
    expect(parseTravel('+3d', from).toISOString()).toBe('2026-02-03T12:00:00.000Z');
    expect(parseTravel('+1m', from).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(parseTravel('+2w', from).toISOString()).toBe('2026-02-14T12:00:00.000Z');
    expect(() => parseTravel('-1d', from)).toThrow(/not a step/);
    const firings = firingsBetween(from, parseTravel('+2d', from));
    expect(firings.map((f) => `${f.time.slice(0, 13)} ${f.jobId}`)).toEqual([
      '2026-01-31T13 requestExpiry',
      '2026-01-31T14 receiptDeadlines',
      '2026-01-31T15 dormancyNotices',
      '2026-01-31T16 monthlyEmails',
      '2026-02-01T05 reconciliation',
      '2026-02-01T06 monthlyFunding',
      '2026-02-01T10 peopleSchedule',
      '2026-02-01T13 requestExpiry',
      '2026-02-01T14 receiptDeadlines',
      '2026-02-01T15 dormancyNotices',
      '2026-02-01T16 monthlyEmails',
      '2026-02-02T05 reconciliation',
      '2026-02-02T06 monthlyFunding',
      '2026-02-02T10 peopleSchedule',
    ]);
  });
});
