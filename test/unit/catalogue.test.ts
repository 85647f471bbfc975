/**
 * The catalogue's schema and file format (spec §3 "Merchant / merchandise"),
 * the checked-in catalogue itself, and the generated covers.
 */
import { readFileSync } from 'node:fs';
import { coverDataUrl, coverSvg, wrapTitle } from '@shared/domain/cover';
import { allTraits, categories, traitsByCategory } from '@shared/domain/skills';
import {
  type CatalogueItem,
  catalogueItem,
  describeLineError,
  mediaTypes,
  parseCatalogueJsonl,
  platforms,
} from '@shared/schemas/catalogue';
import { describe, expect, it } from 'vitest';
import { skillAreas } from '../../web/src/content/skills';

const valid: CatalogueItem = {
  id: 'atomic-habits',
  name: 'Atomic Habits',
  author: 'James Clear',
  trait: 'Productivity',
  category: 'Execution',
  media: 'book',
  priceCents: 2700,
  discountPriceCents: 1599,
  rating: 4.8,
  totalReviews: 150000,
  year: 2018,
  affiliateLinks: { amazon: 'https://www.amazon.com/s?k=Atomic+Habits' },
};

function fieldOf(value: unknown): string[] {
  const result = catalogueItem.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
}

describe('catalogue item schema', () => {
  it('accepts a complete item, and one without a price (shown as Click for price)', () => {
    expect(fieldOf(valid)).toEqual([]);
    const { priceCents: _p, discountPriceCents: _d, ...unpriced } = valid;
    expect(fieldOf(unpriced)).toEqual([]);
  });

  it.each<[string, Partial<Record<keyof CatalogueItem, unknown>> & Record<string, unknown>, string]>([
    ['id with spaces', { id: 'Atomic Habits' }, 'id'],
    ['empty name', { name: ' ' }, 'name'],
    ['missing author', { author: undefined }, 'author'],
    ['unknown category', { category: 'Cooking' }, 'category'],
    ['unknown media', { media: 'podcast' }, 'media'],
    ['trait of no area', { trait: 'Juggling' }, 'trait'],
    ['trait of another area', { trait: 'Empathy' }, 'trait'],
    ['fractional cents', { priceCents: 12.5 }, 'priceCents'],
    ['price as dollars text', { priceCents: '$12.99' }, 'priceCents'],
    ['discount not below price', { discountPriceCents: 2700 }, 'discountPriceCents'],
    ['rating above 5', { rating: 5.5 }, 'rating'],
    ['rating with two decimals', { rating: 4.25 }, 'rating'],
    ['negative reviews', { totalReviews: -1 }, 'totalReviews'],
    ['year from the future', { year: 2999 }, 'year'],
    ['no links', { affiliateLinks: {} }, 'affiliateLinks'],
    [
      'unknown platform',
      { affiliateLinks: { amazon: valid.affiliateLinks.amazon, etsy: 'https://etsy.com' } },
      'affiliateLinks',
    ],
    [
      'link to another site',
      { affiliateLinks: { amazon: 'https://amazon.evil.example/x' } },
      'affiliateLinks.amazon',
    ],
    ['plain http link', { affiliateLinks: { amazon: 'http://www.amazon.com/x' } }, 'affiliateLinks.amazon'],
    ['audiobook not on Audible', { media: 'audiobook' }, 'affiliateLinks'],
    ['unknown field', { imageUrl: 'https://example.com/cover.jpg' }, ''],
  ])('refuses %s, naming the field', (_label, change, field) => {
    expect(fieldOf({ ...valid, ...change })).toContain(field);
  });

  it('a discount needs a price', () => {
    const { priceCents: _p, ...discountOnly } = valid;
    expect(fieldOf(discountOnly)).toContain('discountPriceCents');
  });
});

describe('parseCatalogueJsonl', () => {
  const line = (item: object) => JSON.stringify(item);

  it('reads one item per line and skips blank lines', () => {
    const parsed = parseCatalogueJsonl(`${line(valid)}\n\n${line({ ...valid, id: 'other' })}\n`);
    expect(parsed.ok && parsed.items.map((i) => i.id)).toEqual(['atomic-habits', 'other']);
  });

  it('lists every bad line with its line number and field', () => {
    const text = [line(valid), '{not json', line({ ...valid, id: 'b', priceCents: 1.5 }), line(valid)].join(
      '\n',
    );
    const parsed = parseCatalogueJsonl(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      { line: 2, field: '_', message: 'Not valid JSON' },
      { line: 3, field: 'priceCents', message: 'Must be whole cents' },
      { line: 4, field: 'id', message: 'Same id as line 1' },
    ]);
    expect(describeLineError(parsed.errors[1] as (typeof parsed.errors)[number])).toBe(
      'line 3, field priceCents: Must be whole cents',
    );
  });
});

describe('the checked-in catalogue (shared/data/catalogue.jsonl)', () => {
  const parsed = parseCatalogueJsonl(readFileSync('shared/data/catalogue.jsonl', 'utf8'));
  const items = parsed.ok ? parsed.items : [];

  it('is valid, with at least 250 items', () => {
    expect(parsed.ok ? [] : parsed.errors.slice(0, 5).map(describeLineError)).toEqual([]);
    expect(items.length).toBeGreaterThanOrEqual(250);
  });

  it.each(categories)('has items in %s', (category) => {
    expect(items.filter((i) => i.category === category).length).toBeGreaterThanOrEqual(10);
  });

  it.each(mediaTypes)('has %s items', (media) => {
    expect(items.filter((i) => i.media === media).length).toBeGreaterThanOrEqual(10);
  });

  it('has items without a price, and discounted ones', () => {
    expect(items.some((i) => i.priceCents === undefined)).toBe(true);
    expect(items.some((i) => i.discountPriceCents !== undefined)).toBe(true);
  });

  it('links courses to course sites and audiobooks to Audible', () => {
    for (const item of items.filter((i) => i.media === 'course')) {
      expect(item.affiliateLinks.udemy ?? item.affiliateLinks.coursera).toBeTruthy();
    }
    for (const item of items.filter((i) => i.media === 'audiobook'))
      expect(item.affiliateLinks.audible).toBeTruthy();
  });

  it('uses platforms of the spec only', () => {
    const used = new Set(items.flatMap((i) => Object.keys(i.affiliateLinks)));
    for (const p of used) expect(platforms).toContain(p);
  });
});

describe('skill areas', () => {
  it('are the same on /faqs as in the catalogue rules', () => {
    expect(skillAreas.map((a) => a.name).sort()).toEqual([...categories].sort());
    for (const area of skillAreas) expect(area.traits).toEqual(traitsByCategory[area.name]);
    expect(allTraits.length).toBeGreaterThanOrEqual(90);
  });
});

describe('covers', () => {
  const item = {
    id: 'atomic-habits',
    name: 'Atomic Habits',
    author: 'James Clear',
    category: 'Execution',
    media: 'book',
  } as const;

  it('are the same bytes for the same item, and differ between items', () => {
    expect(coverSvg(item)).toBe(coverSvg({ ...item }));
    expect(coverSvg(item)).not.toBe(coverSvg({ ...item, id: 'other' }));
  });

  it('are SVG naming the title and author, with text escaped', () => {
    const svg = coverSvg({ ...item, name: 'Q&A <Live>', author: "O'Brien" });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Q&amp;A &lt;Live&gt;');
    expect(svg).toContain('O&apos;Brien');
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });

  it('are a data URL, so no request leaves the browser', () => {
    expect(coverDataUrl(item)).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  });

  it.each([
    ['Atomic Habits', ['Atomic Habits']],
    ['Thinking, Fast and Slow', ['Thinking, Fast', 'and Slow']],
    ['Supercalifragilisticexpialidocious', ['Supercalifragil…']],
  ])('wrap %s', (title, lines) => {
    expect(wrapTitle(title)).toEqual(lines);
  });

  it('cut long titles to five lines ending in an ellipsis', () => {
    const lines = wrapTitle(
      'one two three four five six seven eight nine ten eleven twelve thirteen fourteen',
      8,
      5,
    );
    expect(lines).toHaveLength(5);
    expect(lines[4]?.endsWith('…')).toBe(true);
  });
});
