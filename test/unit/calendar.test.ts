/** The team's calendar (shared/src/domain/calendar.ts): one instant, one date, in the team's zone. */
import {
  DEFAULT_TIME_ZONE,
  dayIn,
  formatDateIn,
  formatDateTimeIn,
  formatUsDay,
  isTimeZone,
  startOfDayIn,
  timeZoneNames,
} from '@shared/domain/calendar';
import { describe, expect, it } from 'vitest';

describe('the day of an instant', () => {
  it.each([
    // 07:30 UTC on 11/28: still the 27th in Los Angeles, already the 28th in New York.
    ['2026-11-28T07:30:00Z', 'America/Los_Angeles', '2026-11-27'],
    ['2026-11-28T07:30:00Z', 'America/New_York', '2026-11-28'],
    ['2026-11-28T04:24:00Z', 'America/New_York', '2026-11-27'],
    ['2026-11-28T04:24:00Z', 'UTC', '2026-11-28'],
    ['2026-11-27T10:00:00Z', 'Pacific/Kiritimati', '2026-11-28'],
    ['2026-11-27T09:59:59Z', 'Pacific/Kiritimati', '2026-11-27'],
    // Summer time: New York is UTC-4 in July.
    ['2026-07-01T03:59:59Z', 'America/New_York', '2026-06-30'],
    ['2026-07-01T04:00:00Z', 'America/New_York', '2026-07-01'],
  ])('%s in %s is %s', (instant, zone, day) => {
    expect(dayIn(instant, zone)).toBe(day);
  });

  it('refuses what is not a time', () => {
    expect(() => dayIn('yesterday', 'UTC')).toThrow('not a time');
  });
});

describe('the first instant of a day', () => {
  it.each([
    ['2026-11-28', 'UTC', '2026-11-28T00:00:00.000Z'],
    ['2026-11-28', 'America/Los_Angeles', '2026-11-28T08:00:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'], // the spring-forward day begins in EST
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-28', 'Pacific/Kiritimati', '2026-11-27T10:00:00.000Z'], // UTC+14, the earliest zone
    ['2026-11-28', 'Pacific/Pago_Pago', '2026-11-28T11:00:00.000Z'], // UTC-11
    ['2026-11-28', 'Asia/Kolkata', '2026-11-27T18:30:00.000Z'], // a half-hour zone
    // Chile skips midnight when summer time starts: the day begins at 01:00.
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
  ])('%s in %s begins at %s', (day, zone, instant) => {
    const start = startOfDayIn(day, zone);
    expect(start.toISOString()).toBe(instant);
    expect(dayIn(start, zone)).toBe(day);
    expect(dayIn(new Date(start.getTime() - 1), zone)).not.toBe(day);
  });
});

describe('printing', () => {
  it('prints a day as it is and an instant as its day in the zone', () => {
    expect(formatUsDay('2026-12-04')).toBe('12/04/2026');
    // A day (a due day) is already the team's: no zone moves it.
    expect(formatDateIn('2026-12-04', 'Pacific/Kiritimati')).toBe('12/04/2026');
    expect(formatDateIn('2026-11-28T07:30:00.000Z', 'America/Los_Angeles')).toBe('11/27/2026');
    expect(formatDateIn('2026-11-28T07:30:00.000Z', 'America/New_York')).toBe('11/28/2026');
    expect(formatDateTimeIn('2026-11-28T07:30:00.000Z', 'America/Los_Angeles')).toBe('11/27/2026, 11:30 PM');
  });
});

describe('zone names', () => {
  it('takes IANA names Intl knows and nothing else', () => {
    for (const zone of ['America/Los_Angeles', 'Europe/Berlin', 'UTC', DEFAULT_TIME_ZONE])
      expect(isTimeZone(zone)).toBe(true);
    for (const zone of [
      'Mars/Olympus_Mons',
      '',
      '+05:00',
      'PST8PDT; drop table',
      42,
      undefined,
      'x'.repeat(65),
    ])
      expect(isTimeZone(zone)).toBe(false);
  });

  it('offers every zone it takes, the default and UTC among them', () => {
    const names = timeZoneNames();
    expect(names.length).toBeGreaterThan(300);
    expect(names).toContain(DEFAULT_TIME_ZONE);
    expect(names).toContain('UTC');
    expect(names.every(isTimeZone)).toBe(true);
  });
});
