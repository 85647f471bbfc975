/**
 * Issue 26: what each kind of posting adds to the insights aggregates, derived
 * from its legs alone. An authorization and a release add nothing at all, so
 * the card authorization path writes no aggregate item.
 */
import {
  insightDelta,
  MERCHANT_NAME_MAX,
  mediaAttr,
  mediaCountAttr,
  merchantAttr,
  merchantCountAttr,
  merchantSells,
  skillAttr,
  skillCountAttr,
  teamMonthOf,
} from '@shared/domain/insightDeltas';
import {
  accountSplit,
  authorizationHold,
  capture,
  debtRepayment,
  fromPool,
  funding,
  merchantRefund,
  reallocation,
  redemption,
  release,
  toPool,
} from '@shared/domain/ledger';
import { describe, expect, it } from 'vitest';
import {
  aggregateRows,
  bucketMonths,
  insightItems,
  periodParts,
  quarterOf,
} from '../../lambdas/src/data/insightTotals';
import { PEOPLE_SHARDS, peopleShardOf } from '../../lambdas/src/data/keys';

// insightItems names the table in each item; no table is reached.
process.env.TABLE_NAME ??= 'insights-unit';

const T = 'team1';
const U = 'user1';
const course = { skillArea: 'Leadership', media: 'course', merchant: 'Udemy' };

describe('insightDelta', () => {
  it('funding and deposit: funded and charged, onto the cards', () => {
    for (const kind of ['funding', 'deposit'] as const) {
      const p = funding({
        entryId: 'f',
        teamId: T,
        userId: U,
        amountCents: 3000,
        description: 'x',
        chargeId: 'ch',
        kind,
      });
      expect(insightDelta(p)).toEqual({
        month: { fundedCents: 3000, chargedCents: 3000 },
        now: { onCardsCents: 3000 },
      });
    }
  });

  it('authorization and release add nothing, so they write no aggregate item', () => {
    const hold = authorizationHold({
      authorizationId: 'a',
      teamId: T,
      userId: U,
      amountCents: 500,
      merchant: 'M',
    });
    const back = release({ entryId: 'r', teamId: T, userId: U, amountCents: 500, reason: 'Hold released' });
    for (const p of [hold, back]) {
      expect(insightDelta(p)).toBeUndefined();
      expect(insightItems(T, '2026-11', insightDelta(p))).toEqual([]);
    }
  });

  it('capture from the hold: spent, one purchase, its skill area, media, merchant and person', () => {
    const p = capture({
      entryId: 'c',
      teamId: T,
      userId: U,
      capturedCents: 1200,
      heldCents: 1200,
      merchant: 'Udemy',
      transactionId: 't',
    });
    expect(insightDelta(p, course)).toEqual({
      month: {
        capturedCents: 1200,
        spentCents: 1200,
        purchases: 1,
        [skillAttr('Leadership')]: 1200,
        [skillCountAttr('Leadership')]: 1,
        [mediaAttr('course')]: 1200,
        [mediaCountAttr('course')]: 1,
      },
      now: { onCardsCents: -1200 },
      merchant: { name: 'Udemy', cents: 1200, count: 1 },
      person: { userId: U, spentCents: 1200, count: 1, skill: { Leadership: 1200 } },
    });
    // Seven items: month (its merchant an attribute of it), NOW, person summary, person month, and
    // the month's, the quarter's and the year's people shard the person hashes to (their spend an attribute).
    const items = insightItems(T, '2026-11', insightDelta(p, course));
    expect(items).toHaveLength(7);
    const rows = aggregateRows(T, '2026-11', insightDelta(p, course));
    const monthRow = rows[0];
    expect(monthRow?.key.sk).toBe('MONTH#2026-11');
    expect(monthRow?.numbers).toMatchObject({ 'merchant:Udemy': 1200, 'merchantN:Udemy': 1 });
    expect(rows.slice(-3)).toEqual(
      [
        ['PEOPLE#2026-11', { month: '2026-11' }],
        ['PEOPLEQ#2026-Q4', { quarter: '2026-Q4' }],
        ['PEOPLEY#2026', { year: '2026' }],
      ].map(([sk, fields]) => ({
        key: { pk: `INSIGHTS#${T}`, sk: `${sk}#${peopleShardOf(U)}` },
        numbers: { [`s:${U}`]: 1200 },
        fields: { entity: 'InsightPeopleShard', ...(fields as object) },
      })),
    );
  });

  it('reads a period as its whole calendar years, quarters and the months around them', () => {
    const parts = (from: string, to: string, current?: string) =>
      periodParts(from, to, current).map((p) => p.key);
    // A period in the past: only whole quarters and years inside it.
    expect(parts('2025-12', '2026-11')).toEqual([
      '2025-12',
      '2026-Q1',
      '2026-Q2',
      '2026-Q3',
      '2026-10',
      '2026-11',
    ]);
    expect(parts('2026-01', '2026-12')).toEqual(['2026']);
    expect(parts('2025-01', '2026-06')).toEqual(['2025', '2026-Q1', '2026-Q2']);
    expect(parts('2026-11', '2026-11')).toEqual(['2026-11']);
    expect(parts('2026-09', '2026-11')).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(parts('2026-10', '2027-02')).toEqual(['2026-Q4', '2027-01', '2027-02']);
    // Reaching this month (November 2026): later months are empty, so a bucket may run past the end.
    expect(parts('2025-12', '2026-11', '2026-11')).toEqual(['2025-12', '2026']);
    expect(parts('2026-09', '2026-11', '2026-11')).toEqual(['2026-09', '2026-Q4']);
    expect(parts('2026-11', '2026-11', '2026-11')).toEqual(['2026-11']); // its quarter began before it
    expect(parts('2026-01', '2026-03', '2026-02')).toEqual(['2026']);
    // Not reaching it: as in the past.
    expect(parts('2026-09', '2026-10', '2026-11')).toEqual(['2026-09', '2026-10']);
    expect(periodParts('2026-04', '2026-06')).toEqual([{ kind: 'quarter', key: '2026-Q2' }]);
    expect(quarterOf('2026-03')).toBe('2026-Q1');
    expect(bucketMonths({ kind: 'quarter', key: '2026-Q4' })).toEqual(['2026-10', '2026-11', '2026-12']);
    expect(bucketMonths({ kind: 'year', key: '2026' })).toHaveLength(12);
  });

  it('spreads people evenly over the shards, each always on the same one', () => {
    const counts = new Array(PEOPLE_SHARDS).fill(0);
    for (let i = 0; i < 8000; i++) counts[peopleShardOf(`01J${String(i).padStart(23, '0')}`)] += 1;
    // 1,000 each if even: none under 850 or over 1,150.
    for (const count of counts) expect(count).toBeGreaterThan(850);
    for (const count of counts) expect(count).toBeLessThan(1150);
    expect(peopleShardOf('user-1')).toBe(peopleShardOf('user-1'));
  });

  it('keeps a merchant as an attribute of its month, its name cut to a bounded length', () => {
    const long = 'M'.repeat(200);
    const p = capture({
      entryId: 'c2',
      teamId: T,
      userId: U,
      capturedCents: 300,
      heldCents: 300,
      merchant: long,
      transactionId: 't2',
    });
    const rows = aggregateRows(T, '2026-11', insightDelta(p, { ...course, merchant: long }));
    expect(rows.some((r) => r.key.sk.includes('MERCHANT'))).toBe(false);
    expect(rows[0]?.numbers).toMatchObject({
      [merchantAttr(long)]: 300,
      [merchantCountAttr(long)]: 1,
    });
    expect(merchantAttr(long)).toBe(`merchant:${'M'.repeat(MERCHANT_NAME_MAX)}`);
  });

  it('capture above its hold: the whole capture is spent, only the hold leaves the cards (the rest is debt)', () => {
    const p = capture({
      entryId: 'c',
      teamId: T,
      userId: U,
      capturedCents: 1500,
      heldCents: 1000,
      merchant: 'Powell’s Books',
      transactionId: 't',
    });
    const d = insightDelta(p);
    expect(d?.month).toMatchObject({
      spentCents: 1500,
      [skillAttr('Uncategorised')]: 1500,
      [mediaAttr('other')]: 1500,
    });
    expect(d?.now).toEqual({ onCardsCents: -1000 });
    expect(d?.merchant).toEqual({ name: 'Powell’s Books', cents: 1500, count: 1 });
    expect(d?.person?.userId).toBe(U);
  });

  it('merchant refund: refunded, taken off spent and the purchase’s skill area, onto the card', () => {
    const p = merchantRefund({
      entryId: 'r',
      teamId: T,
      userId: U,
      amountCents: 400,
      merchant: 'Udemy',
      transactionId: 't',
    });
    expect(insightDelta(p, course)).toEqual({
      month: {
        refundedCents: 400,
        spentCents: -400,
        [skillAttr('Leadership')]: -400,
        [mediaAttr('course')]: -400,
      },
      now: { onCardsCents: 400 },
      merchant: { name: 'Udemy', cents: -400, count: 0 },
      person: { userId: U, spentCents: -400, count: 0, skill: { Leadership: -400 } },
    });
  });

  it('pool transfer, reallocation, redemption', () => {
    const pooled = toPool({ entryId: 'p', teamId: T, userId: U, amountCents: 2000, reason: 'removed' });
    expect(insightDelta(pooled)).toEqual({
      month: { pooledCents: 2000 },
      now: { onCardsCents: -2000, inPoolCents: 2000 },
    });
    const moved = reallocation({ entryId: 'r', teamId: T, amountCents: 2001, receiverIds: ['a', 'b'] });
    expect(insightDelta(moved)).toEqual({
      month: { reallocatedCents: 2001 },
      now: { onCardsCents: 2001, inPoolCents: -2001 },
    });
    const redeemed = redemption({
      entryId: 'x',
      teamId: T,
      amountCents: 2000,
      refunds: [{ chargeId: 'ch', refundId: 're', amountCents: 1500 }],
    });
    expect(insightDelta(redeemed)).toEqual({
      month: { redeemedCents: 1500, feesCents: 500 },
      now: { inPoolCents: -2000 },
    });
  });

  it('a pool return (a removed person back before the next billing day) counts as reallocated', () => {
    const back = fromPool({ entryId: 'b', teamId: T, userId: U, amountCents: 700 });
    expect(insightDelta(back)).toEqual({
      month: { reallocatedCents: 700 },
      now: { onCardsCents: 700, inPoolCents: -700 },
    });
  });

  it('debt repayment leaves the cards; an account split moves nothing counted', () => {
    const repaid = debtRepayment({ entryId: 'd', teamId: T, userId: U, amountCents: 300 });
    expect(insightDelta(repaid)).toEqual({ month: {}, now: { onCardsCents: -300 } });
    const split = accountSplit({
      entryId: 's',
      teamId: T,
      from: 'network:settlement',
      to: `network:${T}`,
      amountCents: 100,
    });
    expect(insightDelta(split)).toBeUndefined();
  });
});

describe('the team month and the merchant match', () => {
  it('counts a posting in the month of the team’s calendar', () => {
    expect(teamMonthOf('2026-12-01T03:00:00Z', 'America/New_York')).toBe('2026-11');
    expect(teamMonthOf('2026-12-01T03:00:00Z', 'Europe/Berlin')).toBe('2026-12');
  });

  it('matches a card network’s merchant names to the item’s platforms', () => {
    expect(merchantSells('AMZN Mktp US', ['amazon'])).toBe(true);
    expect(merchantSells('Udemy', ['udemy', 'coursera'])).toBe(true);
    expect(merchantSells('The Culture Works', ['cultureWorks'])).toBe(true);
    expect(merchantSells('Powell’s Books', ['amazon', 'walmart', 'ebay'])).toBe(false);
  });
});
