/** The subscription's pure rules: the retry policy's days and the resume's skipped months. */

import {
  mayCharge,
  PAST_DUE_RETRY_DAYS,
  renewalSkippedByResume,
  retriesExhausted,
  suspensionDate,
  utcDaysBetween,
} from '@shared/domain/subscription';
import { describe, expect, it } from 'vitest';

describe('the past-due retry policy', () => {
  const since = '2026-03-05T06:00:03.000Z';
  it.each([
    ['2026-03-05T06:00:09.000Z', 0, false],
    ['2026-03-10T06:00:00.000Z', 5, false],
    // The 6th retry runs at the same hour, a few ms earlier or later: still its day.
    ['2026-03-11T06:00:00.000Z', 6, true],
    ['2026-03-11T23:59:59.999Z', 6, true],
    ['2026-03-12T00:00:00.000Z', 7, true],
  ])('on %s: day %i, exhausted %s', (now, days, exhausted) => {
    expect(utcDaysBetween(since, new Date(now))).toBe(days);
    expect(retriesExhausted(since, new Date(now))).toBe(exhausted);
  });
  it('names the suspension day in the e-mails', () => {
    expect(PAST_DUE_RETRY_DAYS).toBe(6);
    expect(suspensionDate(since)).toBe('2026-03-11');
  });
});

describe('resuming skips the months whose cycle day fell before the resume day', () => {
  it.each([
    ['2026-04-05T06:00:00.000Z', undefined, false],
    ['2026-04-05T06:00:00.000Z', '2026-04-07T12:00:00.000Z', true],
    ['2026-04-05T06:00:00.000Z', '2026-04-05T12:00:00.000Z', false],
    ['2026-05-05T06:00:00.000Z', '2026-04-07T12:00:00.000Z', false],
  ])('cycle %s, resumed %s: skipped %s', (cycle, resumedAt, skipped) => {
    expect(renewalSkippedByResume(new Date(cycle), resumedAt)).toBe(skipped);
  });
});

describe('who may be charged', () => {
  it.each([
    ['running', true],
    ['suspended', false],
    ['closed', false],
  ] as const)('%s: %s', (state, allowed) => {
    expect(mayCharge(state)).toBe(allowed);
  });
});
