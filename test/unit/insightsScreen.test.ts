/**
 * The Insights screen's pure parts (issue 26): its periods of team months
 * (web/src/features/insights/period.ts), the breakdown CSVs
 * (breakdownCsv.ts) and Purchase History's filter that the charts link to
 * (web/src/features/purchases/purchaseFilter.ts).
 */

import { teamMonthOf } from '@shared/domain/insightDeltas';
import { describe, expect, it } from 'vitest';
import { breakdownCsv, decimalAmount } from '../../web/src/features/insights/breakdownCsv';
import {
  addMonths,
  monthLabel,
  monthsBetween,
  periodFrom,
  rangeProblem,
} from '../../web/src/features/insights/period';
import { describeFilter, filterFrom, purchasesLink } from '../../web/src/features/purchases/purchaseFilter';

const NY = 'America/New_York';

describe('Insights periods', () => {
  it.each([
    ['2026-11', -2, '2026-09'],
    ['2026-01', -1, '2025-12'],
    ['2026-02', -11, '2025-03'],
    ['2025-12', 1, '2026-01'],
  ])('%s moved by %i months is %s', (month, count, expected) => {
    expect(addMonths(month, count)).toBe(expected);
  });

  it('reads the period from the address: last 3 and 12 months include this one', () => {
    expect(periodFrom(new URLSearchParams(''), '2026-02')).toEqual({
      kind: 'this',
      from: '2026-02',
      to: '2026-02',
    });
    expect(periodFrom(new URLSearchParams('period=3'), '2026-02')).toEqual({
      kind: '3',
      from: '2025-12',
      to: '2026-02',
    });
    expect(periodFrom(new URLSearchParams('period=12'), '2026-02')).toEqual({
      kind: '12',
      from: '2025-03',
      to: '2026-02',
    });
    expect(periodFrom(new URLSearchParams('period=custom&from=2025-05&to=2025-08'), '2026-02')).toEqual({
      kind: 'custom',
      from: '2025-05',
      to: '2025-08',
    });
    // A broken custom range falls back to this month, never to a request the server refuses.
    expect(periodFrom(new URLSearchParams('period=custom&from=2025-13&to=x'), '2026-02').from).toBe(
      '2026-02',
    );
  });

  it('refuses a custom range the server would refuse, in words', () => {
    expect(rangeProblem('2026-03', '2026-01')).toBe('The first month must not be after the last.');
    expect(rangeProblem('2024-01', '2026-01')).toBe('Choose at most 24 months.');
    expect(monthsBetween('2024-02', '2026-01')).toBe(24);
    expect(rangeProblem('2024-02', '2026-01')).toBeUndefined();
    expect(rangeProblem('', '2026-01')).toBe('Choose a first and a last month.');
  });

  it("takes this month from the team's calendar, and names months without a zone", () => {
    // 03:00 UTC on December 1st is still November 30th in New York.
    expect(teamMonthOf(new Date('2026-12-01T03:00:00Z'), NY)).toBe('2026-11');
    expect(teamMonthOf(new Date('2026-11-30T16:00:00Z'), 'Asia/Tokyo')).toBe('2026-12');
    expect(monthLabel('2026-11')).toBe('Nov 2026');
    expect(monthLabel('2026-01', 'long')).toBe('January 2026');
  });
});

describe('breakdown CSVs', () => {
  it('writes amounts as plain decimals and keeps names from running as formulas', () => {
    expect(decimalAmount(123450)).toBe('1234.50');
    expect(decimalAmount(-300)).toBe('-3.00');
    expect(decimalAmount(7)).toBe('0.07');
    expect(
      breakdownCsv('Merchant', [
        { label: '=HYPERLINK("x")', cents: 1250, count: 1 },
        { label: 'Books, Inc.', cents: 0, count: 0 },
      ]),
    ).toBe('Merchant,Spent (USD),Purchases\r\n"\'=HYPERLINK(""x"")",12.50,1\r\n"Books, Inc.",0.00,0\r\n');
  });
});

describe("Purchase History's filter", () => {
  it('round-trips through the address the charts link to', () => {
    const link = purchasesLink({
      from: '2026-09',
      to: '2026-11',
      skill: 'Emotional Intelligence',
      merchant: 'A&B',
    });
    expect(link).toBe(
      '/dashboard/purchasehistory?from=2026-09&to=2026-11&skill=Emotional+Intelligence&merchant=A%26B',
    );
    expect(filterFrom(new URL(link, 'http://x').searchParams)).toEqual({
      from: '2026-09',
      to: '2026-11',
      skill: 'Emotional Intelligence',
      merchant: 'A&B',
    });
    // The dialogs' keys are no filter.
    expect(filterFrom(new URLSearchParams('view=ipi_1'))).toBeUndefined();
  });

  it('says the filter in words (GET /purchases matches: test/integration/purchaseFilters.test.ts)', () => {
    expect(describeFilter({ from: '2026-09', to: '2026-11', skill: 'Leadership', person: 'u1' }, 'Ada')).toBe(
      'skill area Leadership, by Ada, from September 2026 to November 2026',
    );
  });
});
