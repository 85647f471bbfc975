import {
  addBusinessDays,
  isBusinessDay,
  isFederalHoliday,
  receiptDueDay,
  receiptReminderDay,
  receiptStage,
} from '@shared/domain/businessDays';
import { dayIn, startOfDayIn } from '@shared/domain/calendar';

/** The zone of these cases: every team's before issue 25 gave teams their own. */
const NY = 'America/New_York';
const businessDateOf = (instant: string | Date) => dayIn(instant, NY);
const startOfBusinessDay = (day: string) => startOfDayIn(day, NY);

import { describe, expect, it } from 'vitest';

describe('receiptDueDay: 5 business days after the purchase day (US Eastern)', () => {
  it.each([
    ['a Monday, a plain week later', '2026-03-02T15:00:00Z', '2026-03-09'],
    ['a Wednesday, across one weekend', '2026-03-04T15:00:00Z', '2026-03-11'],
    ['a Friday, the next Friday', '2026-03-06T15:00:00Z', '2026-03-13'],
    ['a Saturday counts from the Monday', '2026-03-07T15:00:00Z', '2026-03-13'],
    ['a Sunday counts from the Monday', '2026-03-08T15:00:00Z', '2026-03-13'],
    ['Friday 10 pm Eastern is still Friday', '2026-03-07T03:00:00Z', '2026-03-13'],
    ['Friday 11:30 pm Eastern in summer time is still Friday', '2026-07-11T03:30:00Z', '2026-07-17'],
    ['Thanksgiving (Thu 26 Nov 2026) is skipped', '2026-11-23T15:00:00Z', '2026-12-01'],
    ['Juneteenth on a Friday (19 Jun 2026) is skipped', '2026-06-15T15:00:00Z', '2026-06-23'],
    ['Independence Day on a Saturday is observed Friday 3 Jul 2026', '2026-06-29T15:00:00Z', '2026-07-07'],
    ['Juneteenth on a Sunday is observed Monday 20 Jun 2022', '2022-06-15T15:00:00Z', '2022-06-23'],
    ['Christmas on a Sunday is observed Monday 26 Dec 2022', '2022-12-22T15:00:00Z', '2022-12-30'],
    [
      "New Year's Day on a Sunday: observed Monday 2 Jan 2023, across the year end",
      '2022-12-28T15:00:00Z',
      '2023-01-05',
    ],
    ['Christmas on a Saturday is observed Friday 24 Dec 2021', '2021-12-20T15:00:00Z', '2021-12-28'],
    [
      "New Year's Day 2022 on a Saturday is observed Friday 31 Dec 2021",
      '2021-12-27T15:00:00Z',
      '2022-01-04',
    ],
    ["Christmas 2026 on a Friday, due on New Year's Eve", '2026-12-23T15:00:00Z', '2026-12-31'],
    ["New Year's Day 2027 on a Friday, due in the new year", '2026-12-28T15:00:00Z', '2027-01-05'],
  ])('%s', (_name, purchasedAt, due) => {
    expect(receiptDueDay(purchasedAt, NY)).toBe(due);
  });
});

describe('the calendar', () => {
  it.each([
    ['2026-11-26', true, false],
    ['2026-07-03', true, false],
    ['2026-07-04', false, false],
    ['2022-06-20', true, false],
    ['2021-12-31', true, false],
    ['2026-01-19', true, false],
    ['2026-03-09', false, true],
    ['2026-03-07', false, false],
  ])('%s: holiday %s, business day %s', (day, holiday, business) => {
    expect(isFederalHoliday(day)).toBe(holiday);
    expect(isBusinessDay(day)).toBe(business);
  });

  it('counts backwards too', () => {
    expect(addBusinessDays('2026-12-01', -5)).toBe('2026-11-23');
    expect(addBusinessDays('2026-03-09', 0)).toBe('2026-03-09');
  });

  it('refuses what is not a day', () => {
    expect(() => addBusinessDays('03/09/2026', 1)).toThrow();
    expect(() => businessDateOf('nonsense')).toThrow();
  });

  it('takes the date in New York, not UTC', () => {
    expect(businessDateOf('2026-01-01T04:59:59Z')).toBe('2025-12-31');
    expect(businessDateOf('2026-01-01T05:00:00Z')).toBe('2026-01-01');
  });
});

describe('receiptStage', () => {
  // Bought Monday 2 March 2026: reminder Thursday 5 March, due Monday 9 March.
  const bought = '2026-03-02T15:00:00Z';
  it.each([
    ['2026-03-04T14:00:00Z', 'early'],
    ['2026-03-05T14:00:00Z', 'reminder'],
    ['2026-03-06T14:00:00Z', 'reminder'],
    ['2026-03-09T14:00:00Z', 'dueToday'],
    ['2026-03-10T03:00:00Z', 'dueToday'],
    ['2026-03-10T14:00:00Z', 'overdue'],
  ])('at %s it is %s', (now, stage) => {
    expect(receiptReminderDay(receiptDueDay(bought, NY))).toBe('2026-03-05');
    expect(receiptStage(bought, new Date(now), NY)).toBe(stage);
  });
});

describe('startOfBusinessDay', () => {
  it.each([
    ['2026-03-01', '2026-03-01T05:00:00.000Z'],
    ['2026-07-01', '2026-07-01T04:00:00.000Z'],
    ['2026-03-08', '2026-03-08T05:00:00.000Z'],
    ['2026-11-01', '2026-11-01T04:00:00.000Z'],
    ['2027-01-01', '2027-01-01T05:00:00.000Z'],
  ])('%s begins at %s', (day, instant) => {
    expect(startOfBusinessDay(day).toISOString()).toBe(instant);
  });
});
