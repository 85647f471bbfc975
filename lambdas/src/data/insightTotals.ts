/**
 * Insights aggregates (issue 26; docs/insights.md): items of the partition
 * `INSIGHTS#<teamId>` (keys.ts), each a set of numbers updated with ADD in the
 * transaction of the posting that moves the money. The journal item of that
 * transaction is conditioned on not existing, so a posting delivered twice is
 * cancelled whole, its ADDs with it: each posting is counted exactly once.
 *
 *   NOW                                   onCardsCents, inPoolCents
 *   MONTH#<yyyy-mm>                       fundedCents, chargedCents, spentCents, capturedCents,
 *                                         refundedCents, redeemedCents, feesCents, pooledCents,
 *                                         reallocatedCents, purchases, skill:<area>, skillN:<area>,
 *                                         media:<type>, mediaN:<type>, merchant:<name>, merchantN:<name>
 *   PERSON#<userId>                       userId, spent:<yyyy-mm>, buys:<yyyy-mm>
 *   PERSONMONTH#<userId>#<yyyy-mm>        userId, month, spentCents, purchases, skill:<area>, skillN:<area>
 *   PEOPLE#<yyyy-mm>#<n>                  month, s:<userId> (net cents) for the people of shard n (keys.peopleShardOf)
 *   PEOPLEQ#<yyyy>-Q<q>#<n>, PEOPLEY#<yyyy>#<n>   the same for the calendar quarter and year
 *   NEXTCHARGE                            on, cents, computedAt: a short-lived estimate, not an aggregate
 *
 * The month is the team's calendar month of the posting time.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  type InsightDelta,
  merchantAttr,
  merchantCountAttr,
  skillAttr,
  skillCountAttr,
  teamMonthOf,
} from '@shared/domain/insightDeltas';
import { getTeamZone } from './accounts';
import { batchGetAll, db, queryAll, tableName } from './client';
import { keys, PEOPLE_BUCKET_PREFIX, peopleShardOf } from './keys';
import type { TransactItem } from './transactions';

type Numbers = Record<string, number>;

/** One Update item: ADD each number, SET the plain fields. */
function addItem(
  key: { pk: string; sk: string },
  numbers: Numbers,
  fields: Record<string, string>,
): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  const sets: string[] = [];
  Object.entries(numbers).forEach(([name, value], i) => {
    names[`#n${i}`] = name;
    values[`:n${i}`] = value;
    adds.push(`#n${i} :n${i}`);
  });
  Object.entries(fields).forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: [
        sets.length ? `SET ${sets.join(', ')}` : '',
        adds.length ? `ADD ${adds.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A person's net spend in a month, on the month's people shard item. */
export function spendAttr(userId: string): string {
  return `s:${userId}`;
}

/** A span of months a person's spend is kept for: a month (`yyyy-mm`), a calendar quarter (`yyyy-Qn`) or year (`yyyy`). */
export interface SpendBucket {
  kind: 'month' | 'quarter' | 'year';
  key: string;
}

/** The calendar quarter (`yyyy-Qn`) of a month (`yyyy-mm`). */
export function quarterOf(month: string): string {
  return `${month.slice(0, 4)}-Q${Math.ceil(Number(month.slice(5, 7)) / 3)}`;
}

/** The buckets a month's spend is added to: the month, its quarter, its year. */
export function bucketsOf(month: string): SpendBucket[] {
  return [
    { kind: 'month', key: month },
    { kind: 'quarter', key: quarterOf(month) },
    { kind: 'year', key: month.slice(0, 4) },
  ];
}

const monthLabel = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}`;

/** The months (`yyyy-mm`) a bucket spans. */
export function bucketMonths(bucket: SpendBucket): string[] {
  const year = Number(bucket.key.slice(0, 4));
  if (bucket.kind === 'month') return [bucket.key];
  if (bucket.kind === 'year') return Array.from({ length: 12 }, (_, i) => monthLabel(year, i + 1));
  const first = (Number(bucket.key.slice(6)) - 1) * 3 + 1;
  return [0, 1, 2].map((i) => monthLabel(year, first + i));
}

/**
 * A period of months split into the buckets the people shards keep: each whole
 * calendar year, then each whole quarter, inside it, and the months around
 * them. Months after `current` (the team's month now) hold nothing yet, so
 * when the period reaches it, a bucket may run past its end: the last 12 months
 * ending in November 2026 are December 2025 and the year 2026 (2 buckets, not
 * 12 months); the last 3 are September and the fourth quarter.
 */
export function periodParts(from: string, to: string, current?: string): SpendBucket[] {
  const open = current !== undefined && to >= current;
  const fits = (last: string) => last <= to || open;
  const parts: SpendBucket[] = [];
  let [year, month] = from.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 1200 && monthLabel(year, month) <= to; guard++) {
    const here = monthLabel(year, month);
    if (month === 1 && fits(monthLabel(year, 12))) {
      parts.push({ kind: 'year', key: String(year) });
      month += 12;
    } else if (month % 3 === 1 && fits(monthLabel(year, month + 2))) {
      parts.push({ kind: 'quarter', key: quarterOf(here) });
      month += 3;
    } else {
      parts.push({ kind: 'month', key: here });
      month += 1;
    }
    if (month > 12) {
      month -= 12;
      year += 1;
    }
  }
  return parts;
}

/** One aggregate item a delta adds to: its key, the numbers it ADDs, the plain fields it SETs. */
export interface AggregateRow {
  key: { pk: string; sk: string };
  numbers: Numbers;
  fields: Record<string, string>;
}

/**
 * The aggregate items a posting's delta adds to (none for a posting that adds
 * nothing). The ledger writes them as ADDs (insightItems); the bench sums many
 * of them in memory and writes the totals.
 */
export function aggregateRows(
  teamId: string,
  month: string,
  delta: InsightDelta | undefined,
): AggregateRow[] {
  if (!delta) return [];
  const rows: AggregateRow[] = [];
  // The merchant's figures are attributes of the month item: one item per month, not one per merchant.
  const monthNumbers: Numbers = { ...delta.month };
  if (delta.merchant) {
    const { name, cents, count } = delta.merchant;
    monthNumbers[merchantAttr(name)] = (monthNumbers[merchantAttr(name)] ?? 0) + cents;
    monthNumbers[merchantCountAttr(name)] = (monthNumbers[merchantCountAttr(name)] ?? 0) + count;
  }
  if (Object.keys(monthNumbers).length > 0) {
    rows.push({
      key: keys.insightsMonth(teamId, month),
      numbers: monthNumbers,
      fields: { entity: 'InsightMonth', month },
    });
  }
  const now = Object.fromEntries(
    Object.entries(delta.now).filter(([, v]) => v !== undefined && v !== 0),
  ) as Numbers;
  if (Object.keys(now).length > 0)
    rows.push({ key: keys.insightsNow(teamId), numbers: now, fields: { entity: 'InsightNow' } });
  if (delta.person) {
    const { userId, spentCents, count, skill } = delta.person;
    rows.push(
      {
        key: keys.insightsPerson(teamId, userId),
        numbers: { [`spent:${month}`]: spentCents, [`buys:${month}`]: count },
        fields: { entity: 'InsightPerson', userId },
      },
      {
        key: keys.insightsPersonMonth(teamId, userId, month),
        numbers: {
          spentCents,
          purchases: count,
          ...Object.fromEntries(Object.entries(skill).map(([area, cents]) => [skillAttr(area), cents])),
          ...Object.fromEntries(Object.keys(skill).map((area) => [skillCountAttr(area), count])),
        },
        fields: { entity: 'InsightPersonMonth', userId, month },
      },
      // The same spend, beside the month's, the quarter's and the year's other people: spend by
      // person reads 8 items a bucket, whatever the team's size.
      ...bucketsOf(month).map((bucket) => ({
        key: keys.insightsPeopleShard(teamId, bucket, peopleShardOf(userId)),
        numbers: { [spendAttr(userId)]: spentCents },
        fields: { entity: 'InsightPeopleShard', [bucket.kind]: bucket.key },
      })),
    );
  }
  return rows;
}

/** The aggregate items a posting's delta writes, as ADDs for its transaction (none for a posting that adds nothing). */
export function insightItems(teamId: string, month: string, delta: InsightDelta | undefined): TransactItem[] {
  return aggregateRows(teamId, month, delta).map((row) => addItem(row.key, row.numbers, row.fields));
}

/** The team's calendar month of a posting (its zone read now). */
export async function postingMonth(teamId: string, postedAt: string): Promise<string> {
  return teamMonthOf(postedAt, await getTeamZone(teamId));
}

/**
 * Moves a purchase's net amount from one skill area and media type to others
 * in its month: the team month and the person's month. The caller puts these
 * in the transaction that changes the purchase, conditioned on its old values.
 */
export function skillMoveItems(args: {
  teamId: string;
  userId: string;
  month: string;
  netCents: number;
  from: { skillArea: string; media: string };
  to: { skillArea: string; media: string };
}): TransactItem[] {
  const { teamId, userId, month, netCents, from, to } = args;
  const team: Numbers = {};
  const person: Numbers = {};
  const move = (attr: (k: string) => string, countAttr: (k: string) => string, a: string, b: string) => {
    if (a === b) return;
    team[attr(a)] = (team[attr(a)] ?? 0) - netCents;
    team[attr(b)] = (team[attr(b)] ?? 0) + netCents;
    team[countAttr(a)] = (team[countAttr(a)] ?? 0) - 1;
    team[countAttr(b)] = (team[countAttr(b)] ?? 0) + 1;
  };
  move(skillAttr, skillCountAttr, from.skillArea, to.skillArea);
  move(
    (m) => `media:${m}`,
    (m) => `mediaN:${m}`,
    from.media,
    to.media,
  );
  if (from.skillArea !== to.skillArea) {
    person[skillAttr(from.skillArea)] = -netCents;
    person[skillAttr(to.skillArea)] = netCents;
    person[skillCountAttr(from.skillArea)] = -1;
    person[skillCountAttr(to.skillArea)] = 1;
  }
  const items: TransactItem[] = [];
  if (Object.keys(team).length > 0)
    items.push(addItem(keys.insightsMonth(teamId, month), team, { entity: 'InsightMonth', month }));
  if (Object.keys(person).length > 0)
    items.push(
      addItem(keys.insightsPersonMonth(teamId, userId, month), person, {
        entity: 'InsightPersonMonth',
        userId,
        month,
      }),
    );
  return items;
}

// --- Reads -------------------------------------------------------------------------

export interface MonthTotals extends Numbers {}

export interface MerchantMonth {
  month: string;
  merchant: string;
  cents: number;
  count: number;
}

function numbersOf(item: Record<string, unknown>): Numbers {
  return Object.fromEntries(Object.entries(item).filter(([, v]) => typeof v === 'number')) as Numbers;
}

/**
 * The team's month items from `from` to `to` (both `yyyy-mm`, included), and
 * the merchants each carries: one Query of a key range, one item per month
 * (pattern in docs/data-model.md). Merchant-month items
 * (`MONTH#<yyyy-mm>#MERCHANT#<name>`, written before the merchants moved onto
 * the month item) still add in if a table has them.
 */
export async function teamMonths(
  teamId: string,
  from: string,
  to: string,
): Promise<{ months: Map<string, MonthTotals>; merchants: MerchantMonth[] }> {
  const items = await queryAll<Record<string, unknown> & { sk: string }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.insightsNow(teamId).pk,
      ':from': `MONTH#${from}`,
      // Every key of month `to` (its merchants too) sorts before this.
      ':to': `MONTH#${to}#\uffff`,
    },
  });
  const months = new Map<string, MonthTotals>();
  const merchants: MerchantMonth[] = [];
  for (const item of items) {
    const [, month, kind] = item.sk.split('#');
    if (!month) continue;
    if (kind === 'MERCHANT') {
      merchants.push({
        month,
        merchant: String(item.merchant),
        cents: Number(item.cents ?? 0),
        count: Number(item.count ?? 0),
      });
    } else {
      const numbers = numbersOf(item);
      for (const [name, cents] of Object.entries(numbers)) {
        if (!name.startsWith('merchant:')) continue;
        const merchant = name.slice('merchant:'.length);
        merchants.push({ month, merchant, cents, count: numbers[`merchantN:${merchant}`] ?? 0 });
      }
      months.set(month, numbers);
    }
  }
  return { months, merchants };
}

/** The team's NOW figures. */
export async function teamNow(teamId: string): Promise<{ onCardsCents: number; inPoolCents: number }> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk = :sk',
      ExpressionAttributeValues: { ':pk': keys.insightsNow(teamId).pk, ':sk': 'NOW' },
    }),
  );
  const item = result.Items?.[0] ?? {};
  return { onCardsCents: Number(item.onCardsCents ?? 0), inPoolCents: Number(item.inPoolCents ?? 0) };
}

/**
 * Each person's net spend over the months `from` to `to` (both included),
 * summed from the people shards of the period's buckets (periodParts, with
 * `current` the team's month now; one Query per bucket, all at once): 8 items a
 * bucket, every person's spend an attribute, however many people (removed
 * people included: their spend stays theirs). People whose spend nets to zero
 * are left out.
 */
export async function teamSpendByPerson(
  teamId: string,
  from: string,
  to: string,
  current?: string,
): Promise<Map<string, number>> {
  const pages = await Promise.all(
    periodParts(from, to, current).map((bucket) =>
      queryAll<Record<string, unknown>>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': keys.insightsNow(teamId).pk,
          ':prefix': `${PEOPLE_BUCKET_PREFIX[bucket.kind]}#${bucket.key}#`,
        },
      }),
    ),
  );
  const spend = new Map<string, number>();
  for (const item of pages.flat())
    for (const [name, value] of Object.entries(item)) {
      if (!name.startsWith('s:') || typeof value !== 'number') continue;
      const userId = name.slice(2);
      spend.set(userId, (spend.get(userId) ?? 0) + value);
    }
  for (const [userId, cents] of spend) if (cents === 0) spend.delete(userId);
  return spend;
}

/** The last month (yyyy-mm) each of these people bought something in, from their person items (BatchGet). */
export async function lastSpentMonths(
  teamId: string,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const items = await batchGetAll<Record<string, unknown>>(
    [...new Set(userIds)].map((id) => keys.insightsPerson(teamId, id)),
  );
  const months = new Map<string, string>();
  for (const item of items) {
    const bought = Object.entries(item)
      .filter(([name, count]) => name.startsWith('buys:') && typeof count === 'number' && count > 0)
      .map(([name]) => name.slice('buys:'.length))
      .sort();
    const last = bought.at(-1);
    if (last) months.set(String(item.userId), last);
  }
  return months;
}

/** One person's months (oldest first): month -> numbers (`spentCents`, `purchases`, `skill:<area>`). */
export async function personMonths(teamId: string, userId: string): Promise<Map<string, Numbers>> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.insightsNow(teamId).pk, ':prefix': `PERSONMONTH#${userId}#` },
  });
  return new Map(items.map((item) => [String(item.month), numbersOf(item)]));
}

/** The next charge as insights last computed it (`on` absent: no charge due), and when. */
export interface CachedNextCharge {
  value: { on: string; cents: number } | null;
  computedAt: string;
}

export async function cachedNextCharge(teamId: string): Promise<CachedNextCharge | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.insightsNextCharge(teamId) }),
  );
  const item = result.Item;
  if (!item || typeof item.computedAt !== 'string') return undefined;
  return {
    value: typeof item.on === 'string' ? { on: item.on, cents: Number(item.cents ?? 0) } : null,
    computedAt: item.computedAt,
  };
}

/** Keeps a freshly computed next charge (two computing at once: either fresh value may stay). */
export async function putNextCharge(teamId: string, charge: CachedNextCharge): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.insightsNextCharge(teamId),
        entity: 'InsightNextCharge',
        computedAt: charge.computedAt,
        ...(charge.value ? { on: charge.value.on, cents: charge.value.cents } : {}),
      },
    }),
  );
}
