/**
 * The shop's rules (spec §2 "Shop page", §5 "Shop filtering", §9 constants),
 * table by table, on small hand-made items and on the real catalogue file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  AUTHOR_MAX_CHARS,
  applyShopQuery,
  DEFAULT_SORT,
  EMPTY_SUGGESTIONS,
  effectivePriceCents,
  emptyQuery,
  FILTER_DELAY_MS,
  itemPlatforms,
  matchesQuery,
  NAME_MAX_CHARS,
  parsePriceBound,
  passesPrice,
  priceLabel,
  priceRange,
  queryFromParams,
  REVERSED_RANGE_MESSAGE,
  resultsHeading,
  SEARCH_IDLE_MS,
  SEARCH_REDIRECT_MS,
  type ShopItem,
  type ShopQuery,
  sameQuery,
  sortItems,
  sortOptions,
  starCount,
  truncate,
  writeQueryToParams,
} from '@shared/domain/shopFilter';
import { parseCatalogueJsonl } from '@shared/schemas/catalogue';
import { describe, expect, it } from 'vitest';

function item(overrides: Partial<ShopItem> & { id: string }): ShopItem {
  return {
    name: overrides.id,
    author: 'Some Author',
    trait: 'Vision',
    category: 'Leadership',
    media: 'book',
    rating: 4.2,
    totalReviews: 10,
    year: 2010,
    affiliateLinks: { amazon: 'https://www.amazon.com/s?k=x' },
    ...overrides,
  };
}

const q = (overrides: Partial<ShopQuery> = {}): ShopQuery => ({ ...emptyQuery, ...overrides });

const cheap = item({ id: 'cheap', name: 'Cheap Book', priceCents: 500 });
const discounted = item({ id: 'discounted', name: 'Discounted', priceCents: 3000, discountPriceCents: 1000 });
const dear = item({
  id: 'dear',
  name: 'Dear Course',
  media: 'course',
  priceCents: 19999,
  affiliateLinks: { udemy: 'https://www.udemy.com/x' },
});
const unpriced = item({
  id: 'unpriced',
  name: 'Unpriced',
  media: 'course',
  affiliateLinks: { coursera: 'https://www.coursera.org/x' },
});
const all = [cheap, discounted, dear, unpriced];
const ids = (items: ShopItem[]) => items.map((i) => i.id);

describe('spec §9 constants', () => {
  it('has the timings, lengths and suggestions of the spec', () => {
    expect(FILTER_DELAY_MS).toBe(500);
    expect(SEARCH_IDLE_MS).toBe(500);
    expect(SEARCH_REDIRECT_MS).toBe(500);
    expect(NAME_MAX_CHARS).toBe(35);
    expect(AUTHOR_MAX_CHARS).toBe(25);
    expect(EMPTY_SUGGESTIONS).toEqual(['Brain', 'Social', 'Heart']);
    expect(sortOptions.map((o) => o.label)).toEqual([
      'Release Date',
      'Price Low to High',
      'Price High to Low',
      'A to Z',
      'Z to A',
    ]);
    expect(sortOptions.find((o) => o.value === DEFAULT_SORT)?.label).toBe('Price Low to High');
  });
});

describe('price', () => {
  it('is the discount price when there is one, else the price, else none', () => {
    expect(effectivePriceCents(discounted)).toBe(1000);
    expect(effectivePriceCents(cheap)).toBe(500);
    expect(effectivePriceCents(unpriced)).toBeUndefined();
  });

  it.each([
    [cheap, '$5.00'],
    [discounted, '$10.00'],
    [item({ id: 'x', priceCents: 123456 }), '$1,234.56'],
    [item({ id: 'y', priceCents: 7 }), '$0.07'],
    [unpriced, 'Click for price'],
  ])('shows %# as %s', (it_, label) => {
    expect(priceLabel(it_)).toBe(label);
  });

  it.each([
    ['', { kind: 'open' }],
    ['   ', { kind: 'open' }],
    ['10', { kind: 'cents', cents: 1000 }],
    ['$10', { kind: 'cents', cents: 1000 }],
    ['$ 10.5', { kind: 'cents', cents: 1050 }],
    ['10.', { kind: 'cents', cents: 1000 }],
    ['.99', { kind: 'cents', cents: 99 }],
    ['0', { kind: 'cents', cents: 0 }],
    ['1,200.25', { kind: 'cents', cents: 120025 }],
    ['$$15.99', { kind: 'cents', cents: 1599 }],
    ['0.1', { kind: 'cents', cents: 10 }],
  ])('reads the bound %j', (text, bound) => {
    expect(parsePriceBound(text)).toEqual(bound);
  });

  it.each(['abc', '10.999', '-5', '1e3', '12.3.4', '99999999'])(
    'refuses the bound %j with a message',
    (text) => {
      expect(parsePriceBound(text).kind).toBe('invalid');
    },
  );

  it('treats empty bounds as open: every item passes, with or without a price', () => {
    expect(ids(all.filter((i) => passesPrice(i, priceRange('', ''))))).toEqual(ids(all));
  });

  it('filters on the discount price, not the list price, bounds inclusive', () => {
    // discounted: list $30, sells at $10.
    expect(passesPrice(discounted, priceRange('10', '10'))).toBe(true);
    expect(passesPrice(discounted, priceRange('25', ''))).toBe(false);
    expect(passesPrice(discounted, priceRange('', '9.99'))).toBe(false);
    expect(passesPrice(cheap, priceRange('5', '5.00'))).toBe(true);
  });

  it('opens a side that is empty', () => {
    expect(ids(all.filter((i) => passesPrice(i, priceRange('10', ''))))).toEqual(['discounted', 'dear']);
    expect(ids(all.filter((i) => passesPrice(i, priceRange('', '10'))))).toEqual(['cheap', 'discounted']);
  });

  it('leaves out items with no price as soon as any bound is set', () => {
    expect(passesPrice(unpriced, priceRange('0', ''))).toBe(false);
    expect(passesPrice(unpriced, priceRange('', '1000'))).toBe(false);
  });

  it('sets a max below the min aside, says so beside max, and filters by the min alone', () => {
    const range = priceRange('10', '5');
    expect(range.maxCents).toBeUndefined();
    expect(range.errors).toEqual({ max: REVERSED_RANGE_MESSAGE });
    expect(ids(all.filter((i) => passesPrice(i, range)))).toEqual(
      ids(all.filter((i) => passesPrice(i, priceRange('10', '')))),
    );
    expect(ids(all.filter((i) => passesPrice(i, range)))).toEqual(['discounted', 'dear']);
    // Equal bounds are a range of one price, not a reversed one.
    expect(priceRange('10', '10').errors).toEqual({});
  });

  it('ignores an unreadable bound (open) and reports it on its field', () => {
    const range = priceRange('cheap', '10');
    expect(range.errors.min).toBeDefined();
    expect(range.minCents).toBeUndefined();
    expect(ids(all.filter((i) => passesPrice(i, range)))).toEqual(['cheap', 'discounted']);
  });
});

describe('search', () => {
  const sinek = item({
    id: 'sinek',
    name: 'Leaders Eat Last',
    author: 'Simon Sinek',
    trait: 'Leading Teams',
  });
  it.each([
    ['leaders', true],
    ['EAT LAST', true],
    ['  eat    last ', true],
    ['sinek', true],
    ['simon sin', true],
    ['leading teams', true],
    ['', true],
    ['   ', true],
    ['leadership', false],
    ['sinek leaders', false],
  ])('%j matches name, author or trait: %s', (terms, expected) => {
    expect(matchesQuery(sinek, q({ q: terms }))).toBe(expected);
  });

  it('does not search the category or the media', () => {
    expect(matchesQuery(sinek, q({ q: 'Leadership' }))).toBe(false);
    expect(matchesQuery(sinek, q({ q: 'book' }))).toBe(false);
  });
});

describe('categories, media types and platforms', () => {
  const course = item({
    id: 'c',
    media: 'course',
    category: 'Communication',
    affiliateLinks: { udemy: 'https://www.udemy.com/c' },
  });
  const audio = item({
    id: 'a',
    media: 'audiobook',
    category: 'Attitude',
    affiliateLinks: { audible: 'https://www.audible.com/a' },
  });
  const book = item({
    id: 'b',
    media: 'book',
    category: 'Leadership',
    affiliateLinks: { amazon: 'https://www.amazon.com/b', walmart: 'https://www.walmart.com/b' },
  });
  const three = [course, audio, book];
  const run = (query: Partial<ShopQuery>) => ids(three.filter((i) => matchesQuery(i, q(query))));

  it('treats an empty selection as all', () => {
    expect(run({})).toEqual(['c', 'a', 'b']);
  });
  it('matches any selected value within a group, case-insensitively', () => {
    expect(run({ categories: ['communication', 'LEADERSHIP'] })).toEqual(['c', 'b']);
    expect(run({ media: ['Audiobook'] })).toEqual(['a']);
    expect(run({ platforms: ['walmart', 'UDEMY'] })).toEqual(['c', 'b']);
  });
  it('needs every group to match (AND across groups)', () => {
    expect(run({ categories: ['Leadership'], media: ['course'] })).toEqual([]);
    expect(run({ categories: ['Leadership', 'Communication'], platforms: ['amazon'] })).toEqual(['b']);
  });
  it('matches a platform only by a link the item really has', () => {
    const noLink = item({ id: 'n', affiliateLinks: { amazon: undefined, ebay: 'https://www.ebay.com/n' } });
    expect(matchesQuery(noLink, q({ platforms: ['amazon'] }))).toBe(false);
  });
});

describe('sorting', () => {
  const a = item({ id: 'a', name: 'alpha', year: 2001, priceCents: 2000 });
  const b = item({ id: 'b', name: 'Bravo', year: 2020, priceCents: 1000 });
  const c = item({ id: 'c', name: 'charlie', year: 2010, priceCents: 3000, discountPriceCents: 500 });
  const d = item({ id: 'd', name: 'Delta', year: 2015 });
  const items = [d, c, b, a];

  it.each([
    ['priceAsc', ['c', 'b', 'a', 'd']],
    ['priceDesc', ['a', 'b', 'c', 'd']],
    ['release', ['b', 'd', 'c', 'a']],
    ['nameAsc', ['a', 'b', 'c', 'd']],
    ['nameDesc', ['d', 'c', 'b', 'a']],
  ] as const)('%s', (sort, expected) => {
    expect(ids(sortItems(items, sort))).toEqual(expected);
  });

  it('breaks ties by name then id, so equal items keep one order', () => {
    const x1 = item({ id: 'x1', name: 'Same', priceCents: 100 });
    const x2 = item({ id: 'x2', name: 'Same', priceCents: 100 });
    expect(ids(sortItems([x2, x1], 'priceAsc'))).toEqual(['x1', 'x2']);
    expect(ids(sortItems([x2, x1], 'priceDesc'))).toEqual(['x1', 'x2']);
  });

  it('does not change its input', () => {
    const before = ids(items);
    sortItems(items, 'nameAsc');
    expect(ids(items)).toEqual(before);
  });

  it('filters then sorts in applyShopQuery', () => {
    expect(ids(applyShopQuery(items, q({ max: '20', sort: 'priceDesc' })))).toEqual(['a', 'b', 'c']);
  });
});

describe('showing an item', () => {
  it.each([
    ['Short', 35, 'Short'],
    ['x'.repeat(35), 35, 'x'.repeat(35)],
    ['x'.repeat(36), 35, `${'x'.repeat(35)}…`],
    ['Switch: How to Change Things When Change Is Hard', 35, 'Switch: How to Change Things When C…'],
    ['Jim Collins, Jerry I. Porras and friends', 25, 'Jim Collins, Jerry I. Por…'],
    ['Brené Brown', 5, 'Brené…'],
  ])('truncates %j to %i characters', (text, max, expected) => {
    expect(truncate(text, max)).toBe(expected);
  });

  it.each([
    [0, 0],
    [0.9, 0],
    [3.99, 3],
    [4.5, 4],
    [5, 5],
    [7, 5],
    [-1, 0],
    [Number.NaN, 0],
  ])('rating %d shows %i stars', (rating, stars) => {
    expect(starCount(rating)).toBe(stars);
  });

  it.each([
    [0, '', '0 results'],
    [1, '', '1 result'],
    [2, '  ', '2 results'],
    [1234, '', '1,234 results'],
    [3, ' second  brain ', '3 results for second brain'],
  ])('%i results for %j reads %j', (count, terms, heading) => {
    expect(resultsHeading(count, terms)).toBe(heading);
  });

  it('lists logo platforms first in spec order, then the others', () => {
    const links = itemPlatforms({
      affiliateLinks: {
        ebay: 'https://www.ebay.com/e',
        amazon: 'https://www.amazon.com/a',
        walmart: 'https://www.walmart.com/w',
      },
    });
    expect(links.map((l) => l.platform)).toEqual(['walmart', 'amazon', 'ebay']);
  });
});

describe('the URL', () => {
  it('round-trips a full query and leaves out defaults', () => {
    const query = q({
      q: 'brain',
      min: '5',
      max: '$20',
      categories: ['Execution', 'Critical Thinking'],
      media: ['book'],
      platforms: ['amazon', 'cultureWorks'],
      sort: 'nameDesc',
    });
    const params = writeQueryToParams(query);
    expect(params.toString()).toBe(
      'q=brain&min=5&max=%2420&category=Execution&category=Critical+Thinking&media=book&platform=amazon&platform=cultureWorks&sort=nameDesc',
    );
    // Read back in the spec's order of each group.
    expect(queryFromParams(params)).toEqual({ ...query, categories: ['Critical Thinking', 'Execution'] });
    expect(writeQueryToParams(emptyQuery).toString()).toBe('');
  });

  it('keeps parameters that are not the shop query (the open item)', () => {
    const params = writeQueryToParams(q({ q: 'x' }), new URLSearchParams('item=abc&q=old&sort=release'));
    expect(params.get('item')).toBe('abc');
    expect(params.get('q')).toBe('x');
    expect(params.get('sort')).toBeNull();
  });

  it('ignores unknown and repeated values and an unknown sort', () => {
    const query = queryFromParams(
      new URLSearchParams(
        'category=leadership&category=Nope&category=Leadership&media=dvd&platform=ebay&sort=random',
      ),
    );
    expect(query.categories).toEqual(['Leadership']);
    expect(query.media).toEqual([]);
    // eBay is shown on items but is not one of the spec's filter platforms.
    expect(query.platforms).toEqual([]);
    expect(query.sort).toBe(DEFAULT_SORT);
  });

  it('compares queries by what they select', () => {
    expect(sameQuery(q({ q: ' brain ' }), q({ q: 'brain' }))).toBe(true);
    expect(sameQuery(q({ sort: 'release' }), q())).toBe(false);
  });
});

describe('on the real catalogue', () => {
  const parsed = parseCatalogueJsonl(readFileSync(resolve('shared/data/catalogue.jsonl'), 'utf8'));
  if (!parsed.ok) throw new Error('catalogue invalid');
  const catalogue = parsed.items;

  it.each(EMPTY_SUGGESTIONS)('the empty-state suggestion %s finds something', (word) => {
    expect(applyShopQuery(catalogue, q({ q: word })).length).toBeGreaterThan(0);
  });

  it('every platform filter and media filter finds something', () => {
    for (const p of ['amazon', 'audible', 'cultureWorks', 'udemy', 'walmart']) {
      expect(applyShopQuery(catalogue, q({ platforms: [p] })).length, p).toBeGreaterThan(0);
    }
    for (const m of ['book', 'audiobook', 'course', 'assessment']) {
      expect(applyShopQuery(catalogue, q({ media: [m] })).length, m).toBeGreaterThan(0);
    }
  });

  it('the default sort is cheapest first with the unpriced last', () => {
    const sorted = applyShopQuery(catalogue, q());
    const prices = sorted.map(effectivePriceCents);
    const firstUnpriced = prices.indexOf(undefined);
    expect(firstUnpriced).toBeGreaterThan(0);
    expect(prices.slice(firstUnpriced).every((p) => p === undefined)).toBe(true);
    const priced = prices.slice(0, firstUnpriced) as number[];
    expect(priced).toEqual([...priced].sort((x, y) => x - y));
  });
});
