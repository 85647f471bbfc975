/**
 * Insights (issue 26; docs/insights.md): what a team's budget did over whole
 * months of its calendar, read from the aggregates the ledger keeps as money
 * moves (data/insightTotals.ts), never by reading every purchase.
 *
 * Reads of GET /insights: one Query of the team's month items (merchants
 * included) over the period, the NOW item, the receipts outstanding (sparse
 * gsi3, a Query), the requests made in the period and the 14 days before (a
 * key range of the team's request list: a request is decided by its expiry at
 * the latest), and the next charge as the Subscription screen figures it.
 */
import { startOfDayIn } from '@shared/domain/calendar';
import { skillAttr, skillCountAttr } from '@shared/domain/insightDeltas';
import { cardAccount } from '@shared/domain/ledger';
import { subscriptionState } from '@shared/domain/subscription';
import {
  type InsightsAnswer,
  type InsightsQuery,
  type MySpendAnswer,
  purchaseMedia,
  skillAreas,
} from '@shared/schemas/insights';
import { REQUEST_EXPIRY_DAYS } from '@shared/schemas/requests';
import { getTeam, type TeamRecord, zoneOf } from '../../data/accounts';
import { queryAll } from '../../data/client';
import { cachedNextCharge, personMonths, putNextCharge, teamMonths, teamNow } from '../../data/insightTotals';
import { keys } from '../../data/keys';
import { balanceOf } from '../../data/ledger';
import { teamRequestsCreatedBetween } from '../../data/requests';
import type { Actor } from '../../platform/auth';
import { nextChargeOfTeam } from '../billing';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The months from `from` to `to` (`yyyy-mm`, both included), oldest first. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [year, month] = from.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 1200; guard++) {
    const m = `${year}-${String(month).padStart(2, '0')}`;
    if (m > to) break;
    months.push(m);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

/** The month `n` months after `month` (negative: before). */
export function shiftMonth(month: string, n: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

async function receiptsOutstanding(teamId: string): Promise<{ count: number; cents: number }> {
  const items = await queryAll<{ amountCents?: number }>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.receiptsDueOfTeam(teamId) },
    ProjectionExpression: 'amountCents',
  });
  return { count: items.length, cents: sum(items.map((i) => Number(i.amountCents ?? 0))) };
}

async function requestsOf(teamId: string, start: Date, end: Date): Promise<InsightsAnswer['requests']> {
  const startIso = start.toISOString();
  const endIso = end.toISOString();
  const since = new Date(start.getTime() - (REQUEST_EXPIRY_DAYS + 1) * DAY_MS).toISOString();
  const requests = await teamRequestsCreatedBetween(teamId, since, endIso);
  const inPeriod = (iso: string | undefined) => iso !== undefined && iso >= startIso && iso < endIso;
  const asked = requests.filter((r) => inPeriod(r.createdAt));
  return {
    askedCents: sum(asked.map((r) => r.amountCents)),
    approvedCents: sum(
      requests
        .filter((r) => r.state === 'approved' && inPeriod(r.decidedAt))
        .map((r) => r.approvedCents ?? r.amountCents),
    ),
    declinedCents: sum(
      requests.filter((r) => r.state === 'declined' && inPeriod(r.decidedAt)).map((r) => r.amountCents),
    ),
    count: asked.length,
  };
}

/** The instants a period of the team's months runs between (`end` excluded). */
function periodBounds(query: InsightsQuery, zone: string): { start: Date; end: Date } {
  return {
    start: startOfDayIn(`${query.from}-01`, zone),
    end: startOfDayIn(`${shiftMonth(query.to, 1)}-01`, zone),
  };
}

/**
 * How long insights reuse a computed next charge. Computing it reads every user
 * of the team (projected, but 10,000 items for a team of 10,000): kept per team
 * for this long, the page's figure is an estimate up to 5 minutes old
 * (docs/insights.md); computed on the first read after that.
 */
export const NEXT_CHARGE_FRESH_MS = 5 * 60 * 1000;

/** The next charge as the Subscription screen figures it, reused while under NEXT_CHARGE_FRESH_MS old. */
async function nextChargeEstimate(team: TeamRecord, now: Date): Promise<InsightsAnswer['nextCharge']> {
  const cached = await cachedNextCharge(team.teamId);
  const age = cached ? now.getTime() - Date.parse(cached.computedAt) : Number.NaN;
  // Fresh: not older than the window, and not from the future (a clock moved back by time travel).
  if (cached && age >= 0 && age < NEXT_CHARGE_FRESH_MS) return cached.value;
  const billing = await nextChargeOfTeam(team, now);
  const value = billing ? { on: billing.nextChargeDate, cents: billing.expectedTotalCents } : null;
  await putNextCharge(team.teamId, { value, computedAt: now.toISOString() });
  return value;
}

/** A team's insights over a period (the digest e-mail calls this too). */
export async function teamInsights(
  teamId: string,
  query: InsightsQuery,
  now = new Date(),
): Promise<InsightsAnswer> {
  const team = await getTeam(teamId);
  const zone = zoneOf(team);
  const { start, end } = periodBounds(query, zone);
  const running = team && subscriptionState(team) === 'running';
  const [{ months, merchants }, nowFigures, receipts, requests, charge] = await Promise.all([
    teamMonths(teamId, query.from, query.to),
    teamNow(teamId),
    receiptsOutstanding(teamId),
    requestsOf(teamId, start, end),
    running && team ? nextChargeEstimate(team, now) : null,
  ]);
  const periodMonths = monthsOf(query.from, query.to);
  const total = (attr: string) => sum(periodMonths.map((m) => months.get(m)?.[attr] ?? 0));
  const fundedCents = total('fundedCents');
  const spentCents = total('spentCents');
  const byMerchant = new Map<string, { cents: number; count: number }>();
  for (const m of merchants) {
    const entry = byMerchant.get(m.merchant) ?? { cents: 0, count: 0 };
    entry.cents += m.cents;
    entry.count += m.count;
    byMerchant.set(m.merchant, entry);
  }
  return {
    period: { from: query.from, to: query.to },
    totals: {
      fundedCents,
      chargedCents: total('chargedCents'),
      spentCents,
      refundedCents: total('refundedCents'),
      utilisation: fundedCents > 0 ? Math.round((spentCents / fundedCents) * 10_000) / 10_000 : null,
      onCardsCents: nowFigures.onCardsCents,
      inPoolCents: nowFigures.inPoolCents,
      redeemedCents: total('redeemedCents'),
      feesCents: total('feesCents'),
      pooledCents: total('pooledCents'),
      reallocatedCents: total('reallocatedCents'),
    },
    bySkill: skillAreas.map((area) => ({
      key: area,
      cents: total(skillAttr(area)),
      count: total(skillCountAttr(area)),
    })),
    byMedia: purchaseMedia.map((media) => ({
      key: media,
      cents: total(`media:${media}`),
      count: total(`mediaN:${media}`),
    })),
    byMerchant: [...byMerchant]
      .filter(([, v]) => v.cents !== 0 || v.count !== 0)
      .map(([key, v]) => ({ key, ...v }))
      .sort((a, b) => b.cents - a.cents || (a.key < b.key ? -1 : 1)),
    byMonth: periodMonths.map((month) => ({
      month,
      fundedCents: months.get(month)?.fundedCents ?? 0,
      spentCents: months.get(month)?.spentCents ?? 0,
    })),
    receiptsOutstanding: receipts,
    nextCharge: charge,
    requests,
  };
}

/** GET /insights: the manager's own team. */
export function getInsights(actor: Actor, query: InsightsQuery, now: Date): Promise<InsightsAnswer> {
  return teamInsights(actor.teamId, query, now);
}

/** GET /me/spend: the employee's spend by skill area per month (oldest first), and what is left this month. */
export async function mySpend(actor: Actor): Promise<MySpendAnswer> {
  const [months, left] = await Promise.all([
    personMonths(actor.teamId, actor.userId),
    balanceOf(cardAccount(actor.userId)),
  ]);
  return {
    months: [...months]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([month, numbers]) => ({
        month,
        spentCents: numbers.spentCents ?? 0,
        bySkill: skillAreas.map((area) => ({
          key: area,
          cents: numbers[skillAttr(area)] ?? 0,
          count: numbers[skillCountAttr(area)] ?? 0,
        })),
      })),
    leftThisMonthCents: left,
  };
}
