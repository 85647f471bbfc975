/**
 * Monthly funding's late renewal (jobs/monthlyFunding.ts): which teams are
 * renewed after their 7-day retry window, and for which month. The job's own
 * behaviour with such teams is in test/integration/fundingAtScale.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { lastCycleDate, lateRenewal, RETRY_DAYS } from '../../lambdas/src/jobs/monthlyFunding';
import type { RenewableTeam } from '../../lambdas/src/services/billing';

const at = (iso: string) => new Date(`${iso}T06:00:00Z`);

function team(fields: Partial<RenewableTeam>): RenewableTeam {
  return {
    teamId: 't1',
    status: 'active',
    cycleDay: 10,
    setupMonth: '2026-09',
    lastRenewedMonth: '2026-10',
    ...fields,
  } as RenewableTeam;
}

describe('the last cycle date', () => {
  it('is this month’s cycle day once it has come, else last month’s', () => {
    expect(lastCycleDate(10, at('2026-11-25')).toISOString().slice(0, 10)).toBe('2026-11-10');
    expect(lastCycleDate(10, at('2026-11-10')).toISOString().slice(0, 10)).toBe('2026-11-10');
    expect(lastCycleDate(10, at('2026-11-09')).toISOString().slice(0, 10)).toBe('2026-10-10');
  });

  it('puts the 29th-31st on a short month’s last day', () => {
    expect(lastCycleDate(31, at('2026-11-30')).toISOString().slice(0, 10)).toBe('2026-11-30');
    expect(lastCycleDate(31, at('2026-11-29')).toISOString().slice(0, 10)).toBe('2026-10-31');
    expect(lastCycleDate(30, at('2027-03-01')).toISOString().slice(0, 10)).toBe('2027-02-28');
  });
});

describe('a late renewal', () => {
  it('is due once the cycle day has left the retry window and the month was never renewed', () => {
    const now = at('2026-11-25'); // the 10th was 15 days ago
    expect(lateRenewal(team({}), now)).toMatchObject({ month: '2026-11' });
    expect(lateRenewal(team({}), now)?.date.toISOString().slice(0, 10)).toBe('2026-11-10');
  });

  it('is not due inside the window: the daily renewal and its retries have it', () => {
    const lastRetryDay = new Date(at('2026-11-10').getTime() + (RETRY_DAYS - 1) * 86_400_000);
    expect(lateRenewal(team({}), lastRetryDay)).toBeUndefined();
    const dayAfter = new Date(lastRetryDay.getTime() + 86_400_000);
    expect(lateRenewal(team({}), dayAfter)).toMatchObject({ month: '2026-11' });
  });

  it('finishes a month that was charged but not funded (a plan that is not declined), also once suspended', () => {
    const charged = team({
      cycleAttempt: { month: '2026-11', key: 'k', status: 'charged' } as RenewableTeam['cycleAttempt'],
    });
    expect(lateRenewal(charged, at('2026-11-25'))).toMatchObject({ month: '2026-11' });
    expect(lateRenewal({ ...charged, subscription: 'suspended' }, at('2026-11-25'))).toMatchObject({
      month: '2026-11',
    });
  });

  it('is not due for a renewed month, a declined month, a team set up that month, or a suspended or closed team', () => {
    const now = at('2026-11-25');
    expect(lateRenewal(team({ lastRenewedMonth: '2026-11' }), now)).toBeUndefined();
    const declined = { month: '2026-11', key: 'k', status: 'declined' } as RenewableTeam['cycleAttempt'];
    expect(lateRenewal(team({ cycleAttempt: declined, status: 'pastDue' }), now)).toBeUndefined();
    expect(lateRenewal(team({ setupMonth: '2026-11', lastRenewedMonth: undefined }), now)).toBeUndefined();
    expect(lateRenewal(team({ subscription: 'suspended' }), now)).toBeUndefined();
    expect(lateRenewal(team({ subscription: 'closed' }), now)).toBeUndefined();
    const charged = { month: '2026-11', key: 'k', status: 'charged' } as RenewableTeam['cycleAttempt'];
    expect(lateRenewal(team({ subscription: 'closed', cycleAttempt: charged }), now)).toBeUndefined();
    expect(lateRenewal(team({ cycleDay: undefined }), now)).toBeUndefined();
  });
});
