/**
 * Monthly e-mails (issue 26, point 5): the employee's nudge and the manager's
 * digest. Pure: when a team's month's e-mails fall due, and which three
 * catalogue items a nudge suggests.
 *
 * When: on the first business day of the month in the team's calendar
 * (businessDays.ts: Monday to Friday less US federal holidays), or the first
 * daily run after it within CATCH_UP_DAYS, so a missed day still sends. Not
 * the 1st itself: a nudge on New Year's Day or a Sunday is read on Monday
 * among everything else.
 *
 * Which items: the catalogue has no job role, so a job role is read as the
 * skill areas and traits that matter most for it (JOB_ROLE_FOCUS, ours).
 * Three items from three different skill areas: areas the person has not
 * bought in first (a purchase with no skill area is "Uncategorised" and
 * touches none), their role's areas before the others; within an area, an
 * item of the role's traits, then one their balance pays for, then the best
 * rated. The same person, month, balance and catalogue give the same picks;
 * the month turns them (among an area's best few) so the next nudge is not a
 * copy of the last.
 */
import type { CatalogueItem } from '../schemas/catalogue';
import type { JOB_ROLES } from '../schemas/profile';
import { addBusinessDays, type Day, isBusinessDay } from './businessDays';
import { type Category, categories } from './skills';

export type MonthlyEmailKind = 'nudge' | 'digest';

/** The first business day of a month (`yyyy-mm`). */
export function firstBusinessDay(month: string): Day {
  const first = `${month}-01`;
  return isBusinessDay(first) ? first : addBusinessDays(first, 1);
}

/**
 * Days from the first business day on which a missed run still sends: a run
 * down for a day or two catches up, but a digest of last month arriving in the
 * middle of this one would be news nobody needs. It also lets the daily job
 * read no team at all on the other three weeks of the month.
 */
export const CATCH_UP_DAYS = 7;

/** The month whose e-mails are due on `today` (the team's calendar day), or undefined outside its week. */
export function monthlyEmailsDue(today: Day): string | undefined {
  const month = today.slice(0, 7);
  const first = firstBusinessDay(month);
  const last = new Date(`${first}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() + CATCH_UP_DAYS - 1);
  return today >= first && today <= last.toISOString().slice(0, 10) ? month : undefined;
}

/**
 * Whether any team anywhere can be due at `now`: a team's day is the UTC day,
 * the one before or the one after. False lets the daily run read nothing.
 */
export function anyMonthlyEmailsDue(now: Date): boolean {
  return [-1, 0, 1].some((shift) => {
    const day = new Date(now.getTime() + shift * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    return monthlyEmailsDue(day) !== undefined;
  });
}

/** The month before `month` (`yyyy-mm`). */
export function previousMonth(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

export type JobRole = (typeof JOB_ROLES)[number];

/** What each job role gets most from, most first (ours: the catalogue knows no roles). */
export const JOB_ROLE_FOCUS: Record<JobRole, { areas: readonly Category[]; traits: readonly string[] }> = {
  Animation: {
    areas: ['Critical Thinking', 'Communication', 'Attitude'],
    traits: ['Creativity', 'Innovation', 'Storytelling', 'Presenting', 'Curiosity', 'Receiving Feedback'],
  },
  Engineering: {
    areas: ['Critical Thinking', 'Execution', 'Communication'],
    traits: [
      'Problem Solving',
      'Systems Thinking',
      'Analytical Reasoning',
      'Root Cause Analysis',
      'Data Literacy',
      'Business Writing',
    ],
  },
  Construction: {
    areas: ['Execution', 'Leadership', 'Relationship'],
    traits: ['Planning', 'Project Management', 'Attention to Detail', 'Leading Teams', 'Teamwork'],
  },
};

/** How many items a nudge suggests, and how many of an area's best the month turns through. */
export const PICKS = 3;
const ROTATION = 3;

export interface PickInput {
  /** The person (their id): part of what turns the picks each month. */
  seed: string;
  month: string;
  jobRole?: string | null;
  /** Skill areas of the person's purchases; "Uncategorised" or anything else outside the seven counts as none. */
  touchedAreas: Iterable<string>;
  /** What they can spend now: items it pays for come first. */
  balanceCents: number;
}

/** A small stable hash (FNV-1a), so the turning is the same on every machine. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function priceOf(item: CatalogueItem): number | undefined {
  return item.discountPriceCents ?? item.priceCents;
}

function isJobRole(role: string | null | undefined): role is JobRole {
  return typeof role === 'string' && role in JOB_ROLE_FOCUS;
}

/** The skill areas in the order picks are taken from them. */
export function areaOrder(jobRole: string | null | undefined, touched: Iterable<string>): Category[] {
  const done = new Set(touched);
  const roleAreas = isJobRole(jobRole) ? JOB_ROLE_FOCUS[jobRole].areas : [];
  const rank = (area: Category) => {
    const untouched = done.has(area) ? 1 : 0;
    const roleIndex = roleAreas.indexOf(area);
    return [untouched, roleIndex === -1 ? roleAreas.length : roleIndex, categories.indexOf(area)];
  };
  return [...categories].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) {
      const d = (ra[i] as number) - (rb[i] as number);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** The three catalogue items of a nudge, from three skill areas (fewer if the catalogue has fewer areas). */
export function pickCatalogueItems(catalogue: readonly CatalogueItem[], input: PickInput): CatalogueItem[] {
  const traits = isJobRole(input.jobRole) ? JOB_ROLE_FOCUS[input.jobRole].traits : [];
  const score = (item: CatalogueItem): number[] => {
    const price = priceOf(item);
    return [
      traits.includes(item.trait) ? 0 : 1,
      price === undefined || price <= input.balanceCents ? 0 : 1,
      -item.rating,
      -item.totalReviews,
    ];
  };
  const compare = (a: CatalogueItem, b: CatalogueItem) => {
    const [sa, sb] = [score(a), score(b)];
    for (let i = 0; i < sa.length; i++) {
      const d = (sa[i] as number) - (sb[i] as number);
      if (d !== 0) return d;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const picks: CatalogueItem[] = [];
  for (const area of areaOrder(input.jobRole, input.touchedAreas)) {
    if (picks.length === PICKS) break;
    const best = catalogue.filter((item) => item.category === area).sort(compare);
    if (best.length === 0) continue;
    // Only among equals on the first two keys (role trait, affordable): the month never swaps a
    // fitting item for a worse-fitting one.
    const [first] = best;
    const peers = best
      .filter((item) => {
        const [a, b] = [score(item), score(first as CatalogueItem)];
        return a[0] === b[0] && a[1] === b[1];
      })
      .slice(0, ROTATION);
    picks.push(peers[hash(`${input.seed}#${input.month}#${area}`) % peers.length] as CatalogueItem);
  }
  return picks;
}
