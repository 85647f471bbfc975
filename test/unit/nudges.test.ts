/**
 * The monthly e-mails' pure parts (issue 26, point 5): the day they fall due,
 * the three catalogue picks (shared/src/domain/nudges.ts) and the texts of the
 * nudge and the manager's digest (lambdas/src/services/nudges/nudgeEmails.ts),
 * the digest built from the Insights answers alone.
 */

import { readFileSync } from 'node:fs';
import {
  anyMonthlyEmailsDue,
  areaOrder,
  firstBusinessDay,
  monthlyEmailsDue,
  pickCatalogueItems,
} from '@shared/domain/nudges';
import { type CatalogueItem, parseCatalogueJsonl } from '@shared/schemas/catalogue';
import type { InsightsAnswer, InsightsPeopleAnswer } from '@shared/schemas/insights';
import { beforeAll, describe, expect, it } from 'vitest';
import { digestEmail, nudgeEmail, unsubscribeLinks } from '../../lambdas/src/services/nudges/nudgeEmails';

const parsed = parseCatalogueJsonl(readFileSync('shared/data/catalogue.jsonl', 'utf8'));
if (!parsed.ok) throw new Error('the catalogue file does not parse');
const catalogue: CatalogueItem[] = parsed.items;

beforeAll(() => {
  process.env.WEB_ORIGIN = 'https://app.example';
});

describe('when the monthly e-mails fall due', () => {
  it.each([
    ['2026-12', '2026-12-01'], // a Tuesday
    ['2026-11', '2026-11-02'], // the 1st is a Sunday
    ['2027-01', '2027-01-04'], // Friday the 1st is New Year's Day, then a weekend
    ['2026-08', '2026-08-03'], // a Saturday
  ])('%s: the first business day, %s', (month, day) => {
    expect(firstBusinessDay(month)).toBe(day);
  });

  it('from that day for a week (a missed run catches up), never before it', () => {
    expect(monthlyEmailsDue('2026-11-01')).toBeUndefined();
    expect(monthlyEmailsDue('2026-11-02')).toBe('2026-11');
    expect(monthlyEmailsDue('2026-11-08')).toBe('2026-11');
    expect(monthlyEmailsDue('2026-11-09')).toBeUndefined();
    expect(monthlyEmailsDue('2026-11-30')).toBeUndefined();
    expect(monthlyEmailsDue('2027-01-01')).toBeUndefined();
  });

  it('the daily run reads nothing when no zone can be in that week', () => {
    expect(anyMonthlyEmailsDue(new Date('2026-11-20T16:00:00Z'))).toBe(false);
    // 30 November 16:00 UTC is 1 December in Kiritimati (UTC+14).
    expect(anyMonthlyEmailsDue(new Date('2026-11-30T16:00:00Z'))).toBe(true);
    expect(anyMonthlyEmailsDue(new Date('2026-12-01T16:00:00Z'))).toBe(true);
  });
});

describe('the three picks', () => {
  const base = { seed: 'u-1', month: '2026-12', balanceCents: 2500 };

  it('come from three different skill areas, untouched ones first, the job role’s before the rest', () => {
    const picks = pickCatalogueItems(catalogue, { ...base, jobRole: 'Engineering', touchedAreas: [] });
    expect(picks).toHaveLength(3);
    expect(picks.map((p) => p.category)).toEqual(['Critical Thinking', 'Execution', 'Communication']);
    // Bought in Critical Thinking and Execution: those go to the back.
    const after = pickCatalogueItems(catalogue, {
      ...base,
      jobRole: 'Engineering',
      touchedAreas: ['Critical Thinking', 'Execution', 'Uncategorised'],
    });
    expect(after.map((p) => p.category)).toEqual(['Communication', 'Leadership', 'Relationship']);
  });

  it('favour the role’s traits and what the balance pays for', () => {
    const picks = pickCatalogueItems(catalogue, { ...base, jobRole: 'Construction', touchedAreas: [] });
    expect(picks[0]?.category).toBe('Execution');
    expect(['Planning', 'Project Management', 'Attention to Detail']).toContain(picks[0]?.trait);
    for (const pick of picks) {
      const price = pick.discountPriceCents ?? pick.priceCents;
      if (price !== undefined) expect(price).toBeLessThanOrEqual(base.balanceCents);
    }
  });

  it('without a job role, or with one we do not know, take the areas in the spec’s order', () => {
    expect(areaOrder(null, []).slice(0, 3)).toEqual(['Leadership', 'Relationship', 'Critical Thinking']);
    expect(areaOrder('Astronaut', ['Leadership']).at(-1)).toBe('Leadership');
  });

  it('are the same for the same input, and may turn with the month', () => {
    const input = { ...base, jobRole: 'Animation', touchedAreas: ['Attitude'] };
    const first = pickCatalogueItems(catalogue, input).map((p) => p.id);
    expect(pickCatalogueItems([...catalogue].reverse(), input).map((p) => p.id)).toEqual(first);
    const months = ['2027-01', '2027-02', '2027-03', '2027-04'].map((month) =>
      pickCatalogueItems(catalogue, { ...input, month })
        .map((p) => p.id)
        .join(),
    );
    expect(new Set([first.join(), ...months]).size).toBeGreaterThan(1);
  });

  it('are fewer when the catalogue has fewer areas, and none from an empty one', () => {
    const two = catalogue.filter((i) => i.category === 'Leadership' || i.category === 'Attitude');
    expect(pickCatalogueItems(two, { ...base, touchedAreas: [] })).toHaveLength(2);
    expect(pickCatalogueItems([], { ...base, touchedAreas: [] })).toEqual([]);
  });
});

describe('the nudge', () => {
  it('says the balance with the money formatter, lists the picks with links, and how to stop it', () => {
    const picks = pickCatalogueItems(catalogue, {
      seed: 'u-1',
      month: '2026-12',
      balanceCents: 123456,
      touchedAreas: [],
    });
    const email = nudgeEmail({ firstName: 'Ada', balanceCents: 123456, picks, unsubscribeToken: 'tok' });
    expect(email.subject).toBe('You have $1,234.56 to spend on learning');
    expect(email.text).toContain('Hi Ada,');
    expect(email.text).toContain('You have $1,234.56 on your learning card');
    for (const pick of picks) expect(email.text).toContain(`https://app.example/shop?item=${pick.id}`);
    expect(email.text).toContain('https://app.example/unsubscribe?token=tok');
    expect(email.text).toContain('turn off "Monthly nudges" on your profile');
    expect(unsubscribeLinks('a+b').oneClick).toBe('https://app.example/api/email/unsubscribe?token=a%2Bb');
  });
});

const slices = (entries: [string, number][]) => entries.map(([key, cents]) => ({ key, cents, count: 1 }));

function insights(overrides: Partial<InsightsAnswer['totals']> = {}): InsightsAnswer {
  return {
    period: { from: '2026-11', to: '2026-11' },
    totals: {
      fundedCents: 75000,
      chargedCents: 75000,
      spentCents: 48000,
      refundedCents: 0,
      utilisation: 0.64,
      onCardsCents: 90000,
      inPoolCents: 0,
      redeemedCents: 0,
      feesCents: 0,
      pooledCents: 0,
      reallocatedCents: 0,
      ...overrides,
    },
    bySkill: slices([
      ['Leadership', 12000],
      ['Communication', 20000],
      ['Execution', 4000],
      ['Attitude', 12000],
      ['Relationship', 0],
    ]),
    byMedia: [],
    byMerchant: [],
    byMonth: [],
    receiptsOutstanding: { count: 2, cents: 5820 },
    nextCharge: null,
    requests: { askedCents: 0, approvedCents: 0, declinedCents: 0, count: 0 },
  };
}

function person(name: string, status: string) {
  return { userId: name, name, email: `${name}@x.test`, status, lastSpentMonth: null, dormancyDay: null };
}

function peopleAnswer(quiet: ReturnType<typeof person>[], count = quiet.length): InsightsPeopleAnswer {
  return {
    period: { from: '2026-11', to: '2026-11' },
    topSpenders: [],
    spenderCount: 0,
    quiet: { count, people: quiet },
    headingForDormancy: { count: 0, people: [] },
  };
}

describe('the manager’s digest', () => {
  // The quietest first, as the server lists them (removed people are never in the quiet list).
  const people = peopleAnswer([person('Zoe Quiet', 'active'), person('Al Quiet', 'paused')]);

  it('reads utilisation, the top three areas, the quiet people and receipts outstanding', () => {
    const email = digestEmail({ firstName: 'Max', insights: insights(), people, unsubscribeToken: 'tok' });
    expect(email.subject).toBe("Your team's learning budget in November 2026");
    expect(email.text.split('\n')).toEqual(
      expect.arrayContaining([
        'Hi Max,',
        'Budget used: 64% ($480.00 spent of $750.00 funded).',
        'Top skill areas: Communication $200.00, Attitude $120.00, Leadership $120.00.',
        'Not spent for 3 months: Zoe Quiet, Al Quiet.',
        'Receipts outstanding: 2 ($58.20).',
        'See the details: https://app.example/dashboard/insights',
      ]),
    );
    expect(email.text).toContain('turn off "Monthly digest" on your profile');
  });

  it('says so when nothing was funded, bought, quiet or outstanding, and names at most ten', () => {
    // The server lists at most 20 and counts them all: the e-mail names ten and counts the rest.
    const quiet = peopleAnswer(
      Array.from({ length: 20 }, (_, i) => person(`P${String(i).padStart(2, '0')}`, 'active')),
      32,
    );
    const none = {
      ...insights({ fundedCents: 0, spentCents: 0, utilisation: null }),
      bySkill: slices([['Leadership', 0]]),
      receiptsOutstanding: { count: 0, cents: 0 },
    };
    const text = digestEmail({ firstName: 'Max', insights: none, people: quiet, unsubscribeToken: 't' }).text;
    expect(text).toContain('Budget used: nothing was funded; $0.00 spent.');
    expect(text).toContain('Top skill areas: no purchases.');
    expect(text).toContain(
      'Not spent for 3 months: P00, P01, P02, P03, P04, P05, P06, P07, P08, P09 and 22 more.',
    );
    expect(text).toContain('Receipts outstanding: none.');
    const nobody = digestEmail({
      firstName: 'Max',
      insights: none,
      people: peopleAnswer([]),
      unsubscribeToken: 't',
    }).text;
    expect(nobody).toContain('Not spent for 3 months: nobody.');
  });
});
