/**
 * Writes shared/data/catalogue.jsonl from scripts/catalogue-sources.ts:
 *
 *   npx tsx scripts/catalogue-generate.ts
 *
 * Titles, authors, years and platforms come from the source list. Prices,
 * ratings and review counts are derived from each item's id with a fixed hash,
 * within the ranges the partner sites show for that kind of item, so the file
 * is the same on every run. Links are searches on the partner's own site (no
 * product ids are guessed); affiliate tags are added by the partner programme,
 * not here. Every line is checked with the catalogue schema before writing.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hash32 } from '@shared/domain/cover';
import { type Category, categories } from '@shared/domain/skills';
import { type CatalogueItem, catalogueItem, type Platform } from '@shared/schemas/catalogue';
import { assessments, books, courses } from './catalogue-sources';

const OUT = resolve(import.meta.dirname, '../shared/data/catalogue.jsonl');

function slug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ');
  let out = '';
  for (const word of words) {
    if ((out ? out.length + 1 : 0) + word.length > 60) break;
    out = out ? `${out}-${word}` : word;
  }
  return out;
}

/** A number in [0, 1) from the id and a purpose, the same on every run. */
function unit(id: string, purpose: string): number {
  return hash32(`${purpose}:${id}`) / 2 ** 32;
}

function pick<T>(id: string, purpose: string, options: readonly T[]): T {
  return options[Math.floor(unit(id, purpose) * options.length)] as T;
}

function rating(id: string, low: number, high: number): number {
  return Math.round((low + unit(id, 'rating') * (high - low)) * 10) / 10;
}

/** Log-uniform between low and high: a few titles with very many reviews, most with fewer. */
function reviews(id: string, low: number, high: number): number {
  return Math.round(Math.exp(Math.log(low) + unit(id, 'reviews') * (Math.log(high) - Math.log(low))));
}

/** A sale price ending in .99, 55-85 % of the list price, on `share` of items. */
function discount(id: string, priceCents: number, share: number): number | undefined {
  if (unit(id, 'discounted') >= share) return undefined;
  const target = priceCents * (0.55 + unit(id, 'discount') * 0.3);
  const cents = Math.max(99, Math.floor(target / 100) * 100 - 1);
  return cents < priceCents ? cents : undefined;
}

const q = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
const search: Record<Platform, (query: string) => string> = {
  amazon: (s) => `https://www.amazon.com/s?k=${q(s)}&i=stripbooks`,
  audible: (s) => `https://www.audible.com/search?keywords=${q(s)}`,
  walmart: (s) => `https://www.walmart.com/search?q=${q(s)}`,
  ebay: (s) => `https://www.ebay.com/sch/i.html?_nkw=${q(s)}`,
  udemy: (s) => `https://www.udemy.com/courses/search/?q=${q(s)}`,
  coursera: (s) => `https://www.coursera.org/search?query=${q(s)}`,
  cultureWorks: (s) => `https://theculture.works/?s=${q(s)}`,
  lorman: (s) => `https://www.lorman.com/search?q=${q(s)}`,
};

function firstAuthor(author: string): string {
  return author.split(',')[0]?.trim() ?? author;
}

const items: CatalogueItem[] = [];

for (const category of categories as readonly Category[]) {
  for (const [name, author, year, trait, audio] of books[category]) {
    const id = slug(name);
    const query = `${name} ${firstAuthor(author)}`;
    // Hardcovers of recent business books list near $28-30; older titles sell as paperbacks.
    const listPrices = year >= 2015 ? [2800, 2900, 3000, 2700, 1899] : [1799, 1899, 1999, 1699, 1800, 2000];
    const priced = unit(id, 'priced') >= 0.08;
    const priceCents = priced ? pick(id, 'price', listPrices) : undefined;
    items.push({
      id,
      name,
      author,
      trait,
      category,
      media: 'book',
      ...(priceCents ? { priceCents } : {}),
      ...(priceCents ? { discountPriceCents: discount(id, priceCents, 0.6) } : {}),
      rating: rating(id, 4.3, 4.9),
      totalReviews: reviews(id, 350, 95000),
      year,
      affiliateLinks: {
        amazon: search.amazon(query),
        ...(unit(id, 'walmart') < 0.7 ? { walmart: search.walmart(query) } : {}),
        ...(unit(id, 'ebay') < 0.5 ? { ebay: search.ebay(query) } : {}),
      },
    });
    if (audio) {
      const audioId = `${id}-audiobook`;
      const audioPriced = unit(audioId, 'priced') >= 0.1;
      const audioPrice = audioPriced
        ? pick(audioId, 'price', [1495, 1995, 2100, 2495, 2800, 2995])
        : undefined;
      items.push({
        id: audioId,
        name,
        author,
        trait,
        category,
        media: 'audiobook',
        ...(audioPrice ? { priceCents: audioPrice } : {}),
        ...(audioPrice ? { discountPriceCents: discount(audioId, audioPrice, 0.3) } : {}),
        rating: rating(audioId, 4.4, 4.9),
        totalReviews: reviews(audioId, 200, 60000),
        year,
        affiliateLinks: { audible: search.audible(query) },
      });
    }
  }
  for (const [name, author, year, trait, platform, listPrice] of courses[category]) {
    const id = `${slug(name)}-${platform}`;
    const udemy = platform === 'udemy';
    items.push({
      id,
      name,
      author,
      trait,
      category,
      media: 'course',
      // Coursera: free to audit, certificate by subscription ('Click for price') or a fixed fee.
      ...(listPrice ? { priceCents: listPrice } : {}),
      // Udemy runs near-permanent sales ($12.99-$19.99).
      ...(listPrice && udemy ? { discountPriceCents: pick(id, 'sale', [1299, 1499, 1699, 1999]) } : {}),
      rating: rating(id, 4.4, 4.8),
      totalReviews: udemy ? reviews(id, 5000, 120000) : reviews(id, 1500, 90000),
      year,
      affiliateLinks: { [platform]: search[platform](name) },
    });
  }
  for (const [name, author, year, trait, platform, priceCents] of assessments[category]) {
    const id = `${slug(name)}-assessment`;
    const sold = platform === 'amazon';
    items.push({
      id,
      name,
      author,
      trait,
      category,
      media: 'assessment',
      priceCents,
      // The Culture Works sells profiles by quote and volume; it shows no reviews.
      rating: sold ? rating(id, 4.3, 4.7) : 0,
      totalReviews: sold ? reviews(id, 900, 30000) : 0,
      year,
      affiliateLinks: sold
        ? { amazon: search.amazon(`${name} ${firstAuthor(author)}`) }
        : { cultureWorks: search.cultureWorks(name) },
    });
  }
}

const lines = items.map((item, i) => {
  const clean = JSON.parse(JSON.stringify(item)) as unknown;
  const parsed = catalogueItem.safeParse(clean);
  if (!parsed.success) throw new Error(`item ${i + 1} (${item.id}): ${parsed.error.message}`);
  return JSON.stringify(clean);
});
const ids = new Set(items.map((i) => i.id));
if (ids.size !== items.length) throw new Error('duplicate ids');
writeFileSync(OUT, `${lines.join('\n')}\n`);
const count = (key: 'media' | 'category') => {
  const tally = new Map<string, number>();
  for (const item of items) tally.set(item[key], (tally.get(item[key]) ?? 0) + 1);
  return [...tally].map(([k, n]) => `${k} ${n}`);
};
console.log(`${items.length} items -> ${OUT}\n${count('media').join(', ')}\n${count('category').join(', ')}`);
