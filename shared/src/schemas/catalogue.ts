/**
 * The catalogue (spec §3 "Merchant / merchandise"): one schema for a line of
 * shared/data/catalogue.jsonl, for the item stored in the table and for the
 * item the API returns, so the import, the Lambda and the shop read the same
 * shape.
 *
 * Spec fields and ours: `price` and `discountPrice` are integer cents here
 * (`priceCents`, `discountPriceCents`; no price means the shop shows 'Click for
 * price'); `imageUrl` is not stored: every cover is drawn from the item by
 * shared/src/domain/cover.ts, so no image is fetched from anywhere.
 */
import { z } from 'zod';
import { allTraits, type Category, categories, traitsByCategory } from '../domain/skills';

export const mediaTypes = ['book', 'audiobook', 'course', 'assessment'] as const;
export type Media = (typeof mediaTypes)[number];

/** The partner platforms of spec §9, and the sites their links must point at. */
export const platformHosts = {
  amazon: 'amazon.com',
  audible: 'audible.com',
  udemy: 'udemy.com',
  walmart: 'walmart.com',
  cultureWorks: 'theculture.works',
  coursera: 'coursera.org',
  ebay: 'ebay.com',
  lorman: 'lorman.com',
} as const;
export type Platform = keyof typeof platformHosts;
export const platforms = Object.keys(platformHosts) as Platform[];

/**
 * Where each kind of item can honestly be bought: an audiobook on Audible, a
 * course on a course site; the import refuses an item with none of these.
 */
export const platformsForMedia: Record<Media, readonly Platform[]> = {
  book: ['amazon', 'walmart', 'ebay'],
  audiobook: ['audible'],
  course: ['udemy', 'coursera', 'lorman'],
  assessment: ['cultureWorks', 'amazon', 'walmart'],
};

/** An https link on the platform's own site (or a subdomain of it). */
function platformLink(platform: Platform) {
  const host = platformHosts[platform];
  return z.url({ protocol: /^https$/, error: 'Must be an https link' }).refine(
    (value) => {
      const { hostname } = new URL(value);
      return hostname === host || hostname.endsWith(`.${host}`);
    },
    { error: `Must be a link to ${host}` },
  );
}

const affiliateLinks = z
  .strictObject(
    Object.fromEntries(platforms.map((p) => [p, platformLink(p).optional()])) as {
      [P in Platform]: z.ZodOptional<ReturnType<typeof platformLink>>;
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown platform' : 'Must be an object') },
  )
  .refine((links) => Object.values(links).some(Boolean), { error: 'Needs at least one link' });

const cents = z.number().int({ error: 'Must be whole cents' }).positive({ error: 'Must be above 0' });

const latestYear = new Date().getUTCFullYear() + 1;

/** Stable across imports (the import's identity of an item): lower-case words joined by `-`. */
export const catalogueItemId = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'Must be lower-case letters, digits and dashes' })
  .max(100);

export const catalogueItem = z
  .strictObject({
    id: catalogueItemId,
    name: z.string().trim().min(1, { error: 'Name is required' }).max(200),
    author: z.string().trim().min(1, { error: 'Author is required' }).max(200),
    category: z.enum(categories, { error: `Must be one of: ${categories.join(', ')}` }),
    trait: z.string().refine((t) => allTraits.includes(t), { error: 'Must be a trait of the skill areas' }),
    media: z.enum(mediaTypes, { error: `Must be one of: ${mediaTypes.join(', ')}` }),
    priceCents: cents.optional(),
    discountPriceCents: cents.optional(),
    rating: z
      .number()
      .min(0)
      .max(5)
      .refine((r) => Number.isInteger(Math.round(r * 10)) && Math.abs(r * 10 - Math.round(r * 10)) < 1e-9, {
        error: 'Must have at most one decimal',
      }),
    totalReviews: z.number().int().min(0),
    year: z.number().int().min(1800).max(latestYear),
    affiliateLinks,
    /** A short promotion line, when a partner runs one. */
    promo: z.string().trim().min(1).max(80).optional(),
  })
  .superRefine((item, ctx) => {
    if (!traitsByCategory[item.category as Category].includes(item.trait)) {
      ctx.addIssue({ code: 'custom', path: ['trait'], message: `Must be a trait of ${item.category}` });
    }
    if (item.discountPriceCents !== undefined) {
      if (item.priceCents === undefined) {
        ctx.addIssue({ code: 'custom', path: ['discountPriceCents'], message: 'Needs a priceCents' });
      } else if (item.discountPriceCents >= item.priceCents) {
        ctx.addIssue({
          code: 'custom',
          path: ['discountPriceCents'],
          message: 'Must be below priceCents',
        });
      }
    }
    if (item.rating > 0 && item.totalReviews === 0) {
      ctx.addIssue({ code: 'custom', path: ['rating'], message: 'A rating needs reviews' });
    }
    const allowed = platformsForMedia[item.media];
    if (!allowed.some((p) => item.affiliateLinks[p])) {
      ctx.addIssue({
        code: 'custom',
        path: ['affiliateLinks'],
        message: `A ${item.media} needs a link on one of: ${allowed.join(', ')}`,
      });
    }
  });

export type CatalogueItem = z.infer<typeof catalogueItem>;

export const catalogueOutput = z.object({ items: z.array(catalogueItem) });
export type CatalogueOutput = z.infer<typeof catalogueOutput>;

/** POST /catalogue/{itemId}/views: someone opened an item in the shop (who and when come from the token and the clock). */
export const itemViewInput = z.object({ itemId: catalogueItemId });
export const itemViewOutput = z.object({ viewedAt: z.iso.datetime() });

/** One refusal of a catalogue file: 1-based line, the field (dotted path, `_` for the line) and why. */
export interface CatalogueLineError {
  line: number;
  field: string;
  message: string;
}

export type ParsedCatalogue =
  | { ok: true; items: CatalogueItem[] }
  | { ok: false; errors: CatalogueLineError[] };

/**
 * Reads a JSON Lines catalogue: one item per line, blank lines ignored. Every
 * line is checked (not just up to the first problem) so one run lists all that
 * needs fixing; duplicate ids are refused too, since an id is the item's identity.
 */
export function parseCatalogueJsonl(text: string): ParsedCatalogue {
  const items: CatalogueItem[] = [];
  const errors: CatalogueLineError[] = [];
  const lineOfId = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push({ line, field: '_', message: 'Not valid JSON' });
      return;
    }
    const parsed = catalogueItem.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        errors.push({ line, field: issue.path.length ? issue.path.join('.') : '_', message: issue.message });
      }
      return;
    }
    const first = lineOfId.get(parsed.data.id);
    if (first !== undefined) {
      errors.push({ line, field: 'id', message: `Same id as line ${first}` });
      return;
    }
    lineOfId.set(parsed.data.id, line);
    items.push(parsed.data);
  });
  return errors.length ? { ok: false, errors } : { ok: true, items };
}

/** `line 12, field priceCents: Must be whole cents` */
export function describeLineError(error: CatalogueLineError): string {
  return `line ${error.line}, field ${error.field}: ${error.message}`;
}
