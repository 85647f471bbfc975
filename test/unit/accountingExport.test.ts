import {
  buildJournals,
  type ExportEntry,
  QUICKBOOKS_HEADER,
  quickbooksCsv,
  XERO_HEADER,
  xeroCsv,
  xeroDate,
} from '@shared/domain/accountingExport';
import type { AccountId } from '@shared/domain/ledger';
import { centsAsDecimal } from '@shared/domain/money';
import { describe, expect, it } from 'vitest';

describe('centsAsDecimal', () => {
  it.each<[number, string]>([
    [0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [100, '1.00'],
    [123456, '1234.56'],
    [-199, '-1.99'],
    // Where dividing by 100 in floating point goes wrong: 1.005 * 100, 0.29 * 100, and beyond 2^53 / 100.
    [29, '0.29'],
    [100_5, '10.05'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%i cents is %s', (cents, text) => {
    expect(centsAsDecimal(cents)).toBe(text);
  });

  it('refuses a fraction of a cent', () => {
    expect(() => centsAsDecimal(1.5)).toThrow();
  });
});

describe('xeroDate', () => {
  it('writes dd mmm yyyy, which no region reads the other way round', () => {
    expect(xeroDate('2026-11-03')).toBe('03 Nov 2026');
    expect(xeroDate('2027-01-31')).toBe('31 Jan 2027');
  });
});

const T = 'team-1';
const entry = (kind: ExportEntry['kind'], postedAt: string, legs: [AccountId, number][]): ExportEntry => ({
  kind,
  postedAt,
  legs: legs.map(([account, amountCents]) => ({ account, amountCents })),
});

describe('buildJournals', () => {
  const zone = 'America/Los_Angeles';
  const entries: ExportEntry[] = [
    entry('funding', '2026-03-02T17:00:00.000Z', [
      [`external:${T}`, -3000],
      ['card:ana', 3000],
    ]),
    entry('funding', '2026-03-02T18:00:00.000Z', [
      [`external:${T}`, -2500],
      ['card:bo', 2500],
    ]),
    // 11 pm on 2 March in Los Angeles is 3 March in UTC: still the 2nd's journal.
    entry('capture', '2026-03-03T07:00:00.000Z', [
      ['hold:ana', -1000],
      ['debt:ana', -200],
      [`network:${T}`, 1200],
    ]),
    entry('authorization', '2026-03-02T20:00:00.000Z', [
      ['card:ana', -1000],
      ['hold:ana', 1000],
    ]),
    entry('debtRepayment', '2026-03-02T21:00:00.000Z', [
      ['card:bo', -100],
      ['debt:bo', 100],
    ]),
    entry('poolTransfer', '2026-03-04T18:00:00.000Z', [
      ['card:bo', -2500],
      [`pool:${T}`, 2500],
    ]),
    entry('reallocation', '2026-03-05T18:00:00.000Z', [
      [`pool:${T}`, -1001],
      ['card:ana', 501],
      ['card:cy', 500],
    ]),
    entry('redemption', '2026-03-05T19:00:00.000Z', [
      [`pool:${T}`, -1499],
      [`revenue:${T}`, 500],
      [`external:${T}`, 999],
    ]),
  ];
  const journals = buildJournals(entries, zone);

  it("sums each movement kind per day of the team's calendar, debits first, and leaves out moves inside the prepaid budgets", () => {
    expect(journals.map((j) => [j.number, j.entries])).toEqual([
      ['LB-20260302-CHG', 2],
      ['LB-20260302-SPEND', 1],
      ['LB-20260304-POOL', 1],
      ['LB-20260305-REALLOC', 1],
      ['LB-20260305-REDEEM', 1],
    ]);
    expect(journals[0]?.lines).toEqual([
      {
        chart: 'prepaid',
        cents: 5500,
        description: 'Budget charges (joining and monthly), 2 charges: employee cards',
      },
      { chart: 'bank', cents: -5500, description: 'Budget charges (joining and monthly), 2 charges' },
    ]);
    expect(journals[1]?.lines.map((l) => [l.chart, l.cents])).toEqual([
      ['expense', 1200],
      ['prepaid', -1200],
    ]);
    expect(journals[2]?.lines.map((l) => [l.chart, l.cents, l.description.split(': ')[1]])).toEqual([
      ['prepaid', 2500, 'team pool'],
      ['prepaid', -2500, 'employee cards'],
    ]);
    expect(journals[4]?.lines.map((l) => [l.chart, l.cents])).toEqual([
      ['bank', 999],
      ['fees', 500],
      ['prepaid', -1499],
    ]);
  });

  it('balances every journal', () => {
    for (const journal of journals) expect(journal.lines.reduce((sum, l) => sum + l.cents, 0)).toBe(0);
  });

  it('writes QuickBooks Online rows: MM/DD/YYYY, debits and credits apart, unsigned', () => {
    const rows = quickbooksCsv(journals).split('\r\n');
    expect(rows[0]).toBe(QUICKBOOKS_HEADER.join(','));
    expect(rows[1]).toBe(
      'LB-20260302-CHG,03/02/2026,Prepaid learning budgets,55.00,,"Budget charges (joining and monthly), 2 charges: employee cards",',
    );
    expect(rows[2]).toBe(
      'LB-20260302-CHG,03/02/2026,Bank / card on file,,55.00,"Budget charges (joining and monthly), 2 charges",',
    );
  });

  it('writes Xero rows: one narration per journal, dd mmm yyyy, signed amounts', () => {
    const rows = xeroCsv(journals).split('\r\n');
    expect(rows[0]).toBe(XERO_HEADER.join(','));
    expect(rows).toContain(
      '"Learning budgets: Redemptions to the card on file, less the fee (LB-20260305-REDEEM)",05 Mar 2026,"Redemptions to the card on file, less the fee, 1 redemption: team pool",LBPREPAID,Tax Exempt,-14.99,,,,',
    );
  });
});
