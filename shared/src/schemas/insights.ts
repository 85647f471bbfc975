/**
 * Insights (issue 26): what a team's learning budget did over a period of
 * the team's calendar months, read from aggregates the ledger keeps as money
 * moves (docs/insights.md says how each figure is computed). The contract the
 * server answers and the Insights screen reads.
 */
import { z } from 'zod';
import { categories } from '../domain/skills';
import { mediaTypes } from './catalogue';

/** A purchase whose skill area nobody knows yet: never guessed. */
export const UNCATEGORISED = 'Uncategorised' as const;
export const skillAreas = [...categories, UNCATEGORISED] as const;
export type SkillArea = (typeof skillAreas)[number];
/** A purchase's media type, or `other` when unknown. */
export const purchaseMedia = [...mediaTypes, 'other'] as const;
export type PurchaseMedia = (typeof purchaseMedia)[number];

/** Who set a purchase's skill area: inferred from the item the employee opened, or chosen by a person. */
export const SKILL_SOURCES = ['inferred', 'employee', 'manager', 'none'] as const;

export const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month');

/** A period of whole months of the team's calendar, both ends included, at most 24 months. */
const period = z.object({ from: month, to: month });
/** A period's months in order: the first not after the last. */
const inOrder = (q: { from: string; to: string }) => q.from <= q.to;
export const outOfOrder = { message: 'The first month must not be after the last', path: ['from'] };
export const insightsQuery = period.refine(inOrder, outOfOrder);
export type InsightsQuery = z.infer<typeof insightsQuery>;

const cents = z.number().int();
const slice = z.object({ key: z.string(), cents, count: z.number().int() });
export type InsightSlice = z.infer<typeof slice>;

export const insightsAnswer = z.object({
  period: z.object({ from: month, to: month }),
  totals: z.object({
    /** Money credited to cards in the period: monthly funding, joining and extra deposits. */
    fundedCents: cents,
    /** What the team's card on file was charged in the period (before redemption refunds). */
    chargedCents: cents,
    /** Settled purchases in the period less the merchant refunds in the period. */
    spentCents: cents,
    /** Merchant refunds in the period. */
    refundedCents: cents,
    /** spent / funded, or null when nothing was funded. */
    utilisation: z.number().nullable(),
    /** Now, not in the period: money on the team's cards (spendable and on hold). */
    onCardsCents: cents,
    /** Now: money in the team pool. */
    inPoolCents: cents,
    /** Refunded to the manager's card by redemptions in the period. */
    redeemedCents: cents,
    /** Redemption fees in the period. */
    feesCents: cents,
    /** Moved from removed or dormant people to the pool in the period. */
    pooledCents: cents,
    /** Moved from the pool to people in the period. */
    reallocatedCents: cents,
  }),
  /** Net spend by skill area (every area listed, zero included). */
  bySkill: z.array(slice),
  /** Net spend by media type (every type listed). */
  byMedia: z.array(slice),
  /** Net spend by merchant, largest first. */
  byMerchant: z.array(slice),
  /** Each month of the period, oldest first. */
  byMonth: z.array(z.object({ month, fundedCents: cents, spentCents: cents })),
  /** Purchases still waiting for a receipt (now). */
  receiptsOutstanding: z.object({ count: z.number().int(), cents }),
  /** The next monthly charge: the team's cycle day and what it will charge, or null when none is planned. */
  nextCharge: z.object({ on: z.string(), cents }).nullable(),
  /** Fund requests decided or made in the period (issue 27, point 4). */
  requests: z.object({
    askedCents: cents,
    approvedCents: cents,
    declinedCents: cents,
    count: z.number().int(),
  }),
});
export type InsightsAnswer = z.infer<typeof insightsAnswer>;

/** How many people the page's lists show (the CSVs list everyone). */
export const TOP_SPENDERS = 10;
export const PEOPLE_LISTED = 20;
/** "Heading for dormancy" lists people whose money goes to the pool within this many days. */
export const DORMANCY_HORIZON_DAYS = 90;

/** A person who spent in the period (removed people included: their spend is part of the total). */
export const insightSpender = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  /** The person's state as the People list shows it (active, paused, frozen, dormant, deleted...). */
  status: z.string(),
  /** Net spend in the period. */
  spentCents: cents,
});
export type InsightSpender = z.infer<typeof insightSpender>;

/**
 * An employee on the team with no purchase this month or the two before (team
 * calendar), who has had their card at least that long: their dormancy clock
 * (last purchase, card issued, or reactivation) started before the first day
 * of the month two months ago.
 */
export const quietPerson = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.string(),
  /** Last month (yyyy-mm) with a settled purchase, or null if never. */
  lastSpentMonth: month.nullable(),
  /** The day their money goes to the pool if nothing changes (yyyy-mm-dd); null once dormant. */
  dormancyDay: z.string().nullable(),
});
export type QuietPerson = z.infer<typeof quietPerson>;

/** GET /insights/people: what the Insights page shows about people, read without reading every person. */
export const insightsPeopleAnswer = z.object({
  period: z.object({ from: month, to: month }),
  /** The TOP_SPENDERS who spent most in the period, largest first. */
  topSpenders: z.array(insightSpender),
  /** Everyone with a net spend other than zero in the period. */
  spenderCount: z.number().int(),
  /** Not spent for 3 months or more (now, not the period): how many, and the PEOPLE_LISTED quiet longest. */
  quiet: z.object({ count: z.number().int(), people: z.array(quietPerson) }),
  /** Quiet people whose money goes to the pool within DORMANCY_HORIZON_DAYS: how many, and the PEOPLE_LISTED soonest. */
  headingForDormancy: z.object({ count: z.number().int(), people: z.array(quietPerson) }),
});
export type InsightsPeopleAnswer = z.infer<typeof insightsPeopleAnswer>;

/** GET /insights/people/all: one of the page's people lists in full, for its CSV. */
export const insightsPeopleListQuery = period
  .extend({ list: z.enum(['spenders', 'quiet'], { error: 'Choose the spenders or the quiet people' }) })
  .refine(inOrder, outOfOrder);
export type InsightsPeopleListQuery = z.infer<typeof insightsPeopleListQuery>;

export const insightsPeopleListAnswer = z.discriminatedUnion('list', [
  /** Everyone who spent in the period, largest first. */
  z.object({
    period: z.object({ from: month, to: month }),
    list: z.literal('spenders'),
    people: z.array(insightSpender),
  }),
  /** Every quiet person, quiet longest first. */
  z.object({
    period: z.object({ from: month, to: month }),
    list: z.literal('quiet'),
    people: z.array(quietPerson),
  }),
]);
export type InsightsPeopleListAnswer = z.infer<typeof insightsPeopleListAnswer>;

/** The employee's own spend by skill area, per month (Statement). */
export const mySpendAnswer = z.object({
  months: z.array(z.object({ month, bySkill: z.array(slice), spentCents: cents })),
  /** What is left to spend this month: the card's spendable balance. */
  leftThisMonthCents: cents,
});
export type MySpendAnswer = z.infer<typeof mySpendAnswer>;

/** Setting a purchase's skill area and media type (the employee in the receipt dialog, the manager in purchase history). */
export const purchaseSkillInput = z.object({
  skillArea: z.enum(skillAreas, { error: 'Please choose a skill area' }),
  media: z.enum(purchaseMedia, { error: 'Please choose a media type' }),
});
