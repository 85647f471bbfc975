/** The next monthly charge date, by the funding job's own cycle rule (shared/src/domain/billingCycle.ts). */

import { mayReactivate, nextRenewalDay, ordinalDay, reactivationDeadline } from '@shared/domain/billingCycle';
import { describe, expect, it } from 'vitest';

const at = (day: string, time = '12:00:00') => new Date(`${day}T${time}.000Z`);

describe('nextRenewalDay', () => {
  it.each([
    // cycle day, setup month, last renewed, now, next charge
    [25, '2026-11', undefined, '2026-11-25', '2026-12-25'], // set up today: the first renewal is next month
    [10, '2026-10', undefined, '2026-11-10', '2026-11-10'], // today, not yet renewed (the job may still run or retry)
    [10, '2026-10', '2026-11', '2026-11-10', '2026-12-10'], // today, already renewed
    [10, '2026-10', '2026-11', '2026-11-25', '2026-12-10'],
    [31, '2026-10', '2026-10', '2026-11-02', '2026-11-30'], // the 31st renews on a shorter month's last day
    [30, '2026-12', '2027-01', '2027-02-01', '2027-02-28'],
    [29, '2027-12', '2028-01', '2028-02-03', '2028-02-29'], // leap year
  ] as const)(
    'cycle day %i, set up %s, last renewed %s, on %s: %s',
    (cycleDay, setupMonth, lastRenewedMonth, now, next) => {
      expect(nextRenewalDay({ cycleDay, setupMonth, lastRenewedMonth }, at(now))).toBe(next);
    },
  );
});

describe('ordinalDay', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [31, '31st'],
  ])('%i is the %s', (day, word) => {
    expect(ordinalDay(day)).toBe(word);
  });
});

describe('reactivationDeadline (issue 28: reactivation before the next cycle day)', () => {
  it.each([
    // cycle day, removed at, deadline (the first cycle day after the removal's day)
    [25, '2026-11-10', '2026-11-25'],
    [25, '2026-11-25', '2026-12-25'], // removed on the cycle day: the next month's
    [25, '2026-11-24', '2026-11-25'],
    [31, '2026-11-02', '2026-11-30'], // the 31st renews on a shorter month's last day
    [29, '2028-02-10', '2028-02-29'],
    [1, '2026-12-31', '2027-01-01'],
  ] as const)('cycle day %i, removed %s: until %s', (cycleDay, removed, deadline) => {
    expect(reactivationDeadline(cycleDay, at(removed))).toBe(deadline);
    expect(mayReactivate(cycleDay, at(removed), at(removed, '23:59:59'))).toBe(true);
    const dayBefore = new Date(at(deadline, '23:59:59').getTime() - 86_400_000);
    expect(mayReactivate(cycleDay, at(removed), dayBefore)).toBe(true);
    expect(mayReactivate(cycleDay, at(removed), at(deadline, '00:00:00'))).toBe(false);
  });
});
