/**
 * The shop's rules (spec §2 "Shop page", §5 "Shop filtering", §9), pure so the
 * browser runs them today and a search endpoint can run the same function
 * when the catalogue outgrows the browser (docs/decisions.md "Catalogue").
 *
 * - Price: an item's price is its discount price, else its price (integer
 *   cents). It passes when it lies between min and max, both inclusive; an
 *   empty bound is open. An item with no price passes only when both bounds are
 *   empty (it has no price to lie anywhere). Min above max: nothing lies
 *   between, so nothing passes; the page says so beside the fields.
 * - Search: the terms (trimmed, inner spaces collapsed) found anywhere in the
 *   name, author or trait, case-insensitive.
 * - Categories, media types and platforms: case-insensitive; an item passes a
 *   group when it matches any selected value of it (platform: it has a link on
 *   that platform); an empty selection means all. Groups combine with AND.
 * - Sorts: Release Date (newest first), Price Low to High (the default), Price
 *   High to Low, A to Z, Z to A. Items without a price go last in both price
 *   sorts. Ties fall back to name, then id, so the order never flickers.
 * - The state lives in the URL (`q`, `min`, `max`, `category`, `media`,
 *   `platform` repeated, `sort`), so back, reload and a shared link keep it.
 */
import { type Media, type Platform, platforms } from '../schemas/catalogue';
import { formatCents } from './money';
import { type Category, categories } from './skills';

/** The catalogue fields the rules read (a CatalogueItem has them all). */
export interface ShopItem {
  id: string;
  name: string;
  author: string;
  trait: string;
  category: string;
  media: string;
  priceCents?: number;
  discountPriceCents?: number;
  rating: number;
  totalReviews: number;
  year: number;
  affiliateLinks: Partial<Record<Platform, string | undefined>>;
}

// --- Spec §9 constants -------------------------------------------------------

/** Filters and the header search apply this long after the last change (spec §9). */
export const FILTER_DELAY_MS = 500;
export const SEARCH_IDLE_MS = 500;
/** Enter in the header search moves to /shop after this long (spec §9). */
export const SEARCH_REDIRECT_MS = 500;
export const NAME_MAX_CHARS = 35;
export const AUTHOR_MAX_CHARS = 25;
export const MAX_STARS = 5;
/** Suggested when nothing matches (spec §2). */
export const EMPTY_SUGGESTIONS = ['Brain', 'Social', 'Heart'] as const;
export const EMPTY_MESSAGE = 'Sorry No Result Found :(';
export const NO_PRICE_LABEL = 'Click for price';

export const sortOptions = [
  { value: 'release', label: 'Release Date' },
  { value: 'priceAsc', label: 'Price Low to High' },
  { value: 'priceDesc', label: 'Price High to Low' },
  { value: 'nameAsc', label: 'A to Z' },
  { value: 'nameDesc', label: 'Z to A' },
] as const;
export type ShopSort = (typeof sortOptions)[number]['value'];
export const DEFAULT_SORT: ShopSort = 'priceAsc';

/** Media Type checkboxes (spec §9), in the spec's order, over the stored media values. */
export const mediaFilters: readonly { value: Media; label: string }[] = [
  { value: 'audiobook', label: 'Audiobooks' },
  { value: 'book', label: 'Books' },
  { value: 'course', label: 'Online Courses' },
  { value: 'assessment', label: 'Assessments' },
];

/** Platform checkboxes: the partner platforms of spec §9 (the others are still shown on items). */
export const platformFilters: readonly { value: Platform; label: string }[] = [
  { value: 'amazon', label: 'Amazon' },
  { value: 'audible', label: 'Audible' },
  { value: 'cultureWorks', label: 'The Culture Works' },
  { value: 'udemy', label: 'Udemy' },
  { value: 'walmart', label: 'Walmart' },
];

/** Names for every platform an item can link to; the first five also have a logo (spec §9). */
export const platformNames: Record<Platform, string> = {
  amazon: 'Amazon',
  audible: 'Audible',
  cultureWorks: 'The Culture Works',
  udemy: 'Udemy',
  walmart: 'Walmart',
  coursera: 'Coursera',
  ebay: 'eBay',
  lorman: 'Lorman',
};
export const platformsWithLogo: readonly Platform[] = [
  'walmart',
  'amazon',
  'audible',
  'cultureWorks',
  'udemy',
];

export const categoryFilters: readonly Category[] = categories;

// --- The query -----------------------------------------------------------------

/** What the person asked for, as typed: price bounds are text ('10', '$12.50', ''). */
export interface ShopQuery {
  q: string;
  min: string;
  max: string;
  categories: string[];
  media: string[];
  platforms: string[];
  sort: ShopSort;
}

export const emptyQuery: ShopQuery = {
  q: '',
  min: '',
  max: '',
  categories: [],
  media: [],
  platforms: [],
  sort: DEFAULT_SORT,
};

const PARAM = {
  q: 'q',
  min: 'min',
  max: 'max',
  categories: 'category',
  media: 'media',
  platforms: 'platform',
  sort: 'sort',
} as const;
/** The URL parameter the header search and the shop share. */
export const SEARCH_PARAM = PARAM.q;

function isSort(value: string | null): value is ShopSort {
  return sortOptions.some((o) => o.value === value);
}

/** Keeps known values only, in the order of `known`, without repeats (case-insensitive). */
function pick(values: string[], known: readonly string[]): string[] {
  const wanted = new Set(values.map((v) => v.toLowerCase()));
  return known.filter((k) => wanted.has(k.toLowerCase()));
}

/** Reads the shop's state from a URL's search parameters; unknown values are ignored. */
export function queryFromParams(params: URLSearchParams): ShopQuery {
  const sort = params.get(PARAM.sort);
  return {
    q: params.get(PARAM.q) ?? '',
    min: params.get(PARAM.min) ?? '',
    max: params.get(PARAM.max) ?? '',
    categories: pick(params.getAll(PARAM.categories), categoryFilters),
    media: pick(
      params.getAll(PARAM.media),
      mediaFilters.map((m) => m.value),
    ),
    platforms: pick(
      params.getAll(PARAM.platforms),
      platforms.filter((p) => platformFilters.some((f) => f.value === p)),
    ),
    sort: isSort(sort) ? sort : DEFAULT_SORT,
  };
}

/**
 * Writes the shop's state into search parameters, leaving any others (an open
 * item, say) as they are. Defaults are left out, so /shop stays /shop.
 */
export function writeQueryToParams(query: ShopQuery, base = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const name of Object.values(PARAM)) params.delete(name);
  const q = query.q.trim();
  if (q) params.set(PARAM.q, q);
  if (query.min.trim()) params.set(PARAM.min, query.min.trim());
  if (query.max.trim()) params.set(PARAM.max, query.max.trim());
  for (const c of query.categories) params.append(PARAM.categories, c);
  for (const m of query.media) params.append(PARAM.media, m);
  for (const p of query.platforms) params.append(PARAM.platforms, p);
  if (query.sort !== DEFAULT_SORT) params.set(PARAM.sort, query.sort);
  return params;
}

/** Whether two queries select the same items in the same order (price text compared as entered, trimmed). */
export function sameQuery(a: ShopQuery, b: ShopQuery): boolean {
  return writeQueryToParams(a).toString() === writeQueryToParams(b).toString();
}

// --- Price ---------------------------------------------------------------------

/** The price the shop shows and filters on: the discount price, else the price. */
export function effectivePriceCents(item: Pick<ShopItem, 'priceCents' | 'discountPriceCents'>) {
  return item.discountPriceCents ?? item.priceCents;
}

/** '$12.50' from the discount price or price, or 'Click for price' (spec §2). */
export function priceLabel(item: Pick<ShopItem, 'priceCents' | 'discountPriceCents'>): string {
  const cents = effectivePriceCents(item);
  return cents === undefined ? NO_PRICE_LABEL : formatCents(cents);
}

export type PriceBound =
  | { kind: 'open' }
  | { kind: 'cents'; cents: number }
  | { kind: 'invalid'; message: string };

/**
 * A price bound as typed: dollars with up to 2 decimals, dollar signs, spaces
 * and thousands commas stripped ('$1,200.5' is 120050 cents). Empty is open.
 * Parsed as text into integer cents: no float ever touches the money.
 */
export function parsePriceBound(text: string): PriceBound {
  const cleaned = text.replace(/[$\s,]/g, '');
  if (cleaned === '') return { kind: 'open' };
  const match = /^(\d{1,7})(?:\.(\d{0,2}))?$|^\.(\d{1,2})$/.exec(cleaned);
  if (!match) return { kind: 'invalid', message: 'Enter an amount in dollars, like 15 or 15.99' };
  const dollars = match[1] ?? '0';
  const fraction = (match[2] ?? match[3] ?? '').padEnd(2, '0');
  return { kind: 'cents', cents: Number(dollars) * 100 + Number(fraction) };
}

/** Beside Max price when it is below Min price (the spec has no words for it). */
export const REVERSED_RANGE_MESSAGE = 'Max price is below min price, so it is not applied';

export interface PriceRange {
  minCents?: number;
  maxCents?: number;
  /** Per-field messages for bounds that cannot be used (they are then treated as open). */
  errors: { min?: string; max?: string };
}

export function priceRange(min: string, max: string): PriceRange {
  const low = parsePriceBound(min);
  const high = parsePriceBound(max);
  const errors: PriceRange['errors'] = {};
  if (low.kind === 'invalid') errors.min = low.message;
  if (high.kind === 'invalid') errors.max = high.message;
  const range: PriceRange = { errors };
  if (low.kind === 'cents') range.minCents = low.cents;
  if (high.kind === 'cents') range.maxCents = high.cents;
  // A reversed range would show nothing, and "0 results" would not say why:
  // the max is set aside, said so at its field, and the min alone applies (decisions.md).
  if (range.minCents !== undefined && range.maxCents !== undefined && range.minCents > range.maxCents) {
    errors.max = REVERSED_RANGE_MESSAGE;
    delete range.maxCents;
  }
  return range;
}

export function passesPrice(item: ShopItem, range: Pick<PriceRange, 'minCents' | 'maxCents'>): boolean {
  if (range.minCents === undefined && range.maxCents === undefined) return true;
  const cents = effectivePriceCents(item);
  if (cents === undefined) return false;
  if (range.minCents !== undefined && cents < range.minCents) return false;
  if (range.maxCents !== undefined && cents > range.maxCents) return false;
  return true;
}

// --- Matching ------------------------------------------------------------------

/** Trimmed, inner whitespace collapsed, lower case: how terms and fields are compared. */
export function normalizeTerms(terms: string): string {
  return terms.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function matchesSearch(item: ShopItem, terms: string): boolean {
  const wanted = normalizeTerms(terms);
  if (wanted === '') return true;
  return [item.name, item.author, item.trait].some((field) => normalizeTerms(field).includes(wanted));
}

function inSelection(value: string, selected: readonly string[]): boolean {
  if (selected.length === 0) return true;
  const lower = value.toLowerCase();
  return selected.some((s) => s.toLowerCase() === lower);
}

function onPlatforms(item: ShopItem, selected: readonly string[]): boolean {
  if (selected.length === 0) return true;
  const wanted = new Set(selected.map((s) => s.toLowerCase()));
  return Object.entries(item.affiliateLinks).some(
    ([platform, link]) => link && wanted.has(platform.toLowerCase()),
  );
}

/** Spec §5 in one predicate (the price range already parsed). */
export function matchesQuery(item: ShopItem, query: ShopQuery, range = priceRange(query.min, query.max)) {
  return (
    passesPrice(item, range) &&
    matchesSearch(item, query.q) &&
    inSelection(item.category, query.categories) &&
    inSelection(item.media, query.media) &&
    onPlatforms(item, query.platforms)
  );
}

// --- Sorting -------------------------------------------------------------------

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function byName(a: ShopItem, b: ShopItem): number {
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function byPrice(direction: 1 | -1) {
  return (a: ShopItem, b: ShopItem): number => {
    const pa = effectivePriceCents(a);
    const pb = effectivePriceCents(b);
    if (pa === undefined || pb === undefined) {
      // No price sorts last either way: 'Click for price' is not cheap nor dear.
      if (pa !== pb) return pa === undefined ? 1 : -1;
      return byName(a, b);
    }
    return (pa - pb) * direction || byName(a, b);
  };
}

const comparators: Record<ShopSort, (a: ShopItem, b: ShopItem) => number> = {
  release: (a, b) => b.year - a.year || byName(a, b),
  priceAsc: byPrice(1),
  priceDesc: byPrice(-1),
  nameAsc: byName,
  nameDesc: (a, b) => byName(b, a),
};

/** A sorted copy; the input is not changed. */
export function sortItems<T extends ShopItem>(items: readonly T[], sort: ShopSort): T[] {
  return [...items].sort(comparators[sort]);
}

/** The shop's result list: spec §5's filter, then the chosen sort. */
export function applyShopQuery<T extends ShopItem>(items: readonly T[], query: ShopQuery): T[] {
  const range = priceRange(query.min, query.max);
  return sortItems(
    items.filter((item) => matchesQuery(item, query, range)),
    query.sort,
  );
}

// --- Showing an item -----------------------------------------------------------

/** The first `max` characters, and an ellipsis when text was cut (spec §9: name 35, author 25). */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}…`;
}

/** Whole stars: floor of the rating, between 0 and 5. */
export function starCount(rating: number): number {
  if (!Number.isFinite(rating)) return 0;
  return Math.min(MAX_STARS, Math.max(0, Math.floor(rating)));
}

/** 'n results' (one: '1 result'), plus ' for {terms}' when searching (spec §2). */
export function resultsHeading(count: number, terms: string): string {
  const base = `${count.toLocaleString('en-US')} ${count === 1 ? 'result' : 'results'}`;
  const q = terms.trim().replace(/\s+/g, ' ');
  return q ? `${base} for ${q}` : base;
}

/** The item's platforms: those with a logo first (spec §9 order), then the rest by name. */
export function itemPlatforms(item: Pick<ShopItem, 'affiliateLinks'>): { platform: Platform; url: string }[] {
  const order = [...platformsWithLogo, ...platforms.filter((p) => !platformsWithLogo.includes(p))];
  return order.flatMap((platform) => {
    const url = item.affiliateLinks[platform];
    return url ? [{ platform, url }] : [];
  });
}
