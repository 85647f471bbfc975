/**
 * Insights aggregates for money that moved before issue 26 (docs/insights.md
 * "Backfill"). Since issue 26 every posting writes its aggregates in its own
 * transaction and marks its journal item `aggregated`. This adds, for each
 * team with billing, the aggregates of every journal entry not so marked (read
 * from the team's journal on gsi1, pattern 21: no Scan), each in one
 * transaction with the mark, conditioned on the mark being absent: an entry
 * is added once however often this runs, and two runs at once add it once.
 *
 * An older purchase has no skill area: it counts as Uncategorised / other, and
 * gets the month it was counted in (so a later skill change moves it there).
 * Run after the new code is live (docs/deploy.md), locally on every start
 * (infra/local/seed.ts upgradeData); an entry an old Lambda writes after a run
 * is added by the next.
 *
 * It also brings each team's people up to the page's people reads (issue 26,
 * the people list at 10,000): every employee whose dormancy clock runs is put
 * in the team's quiet index (gsi4) and removed people taken out, each write
 * conditioned on what was read; and each person's spend per month
 * (`spent:<month>` of their person item) is copied to the month's people shard
 * where the shard differs, conditioned on the person item still holding what
 * was read (a capture meanwhile adds to both: the next run copies again).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { UNKNOWN_MEDIA, UNKNOWN_SKILL } from '@shared/domain/insightDeltas';
import { listTeamUsersProjected, teamsWithBilling } from './accounts';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { bucketMonths, bucketsOf, postingMonth, type SpendBucket, spendAttr } from './insightTotals';
import { keys, peopleShardOf } from './keys';
import { aggregateItems, type JournalEntry, teamJournal } from './ledger';
import { getPurchase } from './purchases';
import { failedConditionItems, sendTransaction, type TransactItem } from './transactions';
import type { UserRecord } from './users';

export interface InsightBackfillResult {
  /** Journal entries whose aggregates this run added. */
  added: number;
  /** Employees put in (or taken out of) their team's quiet index. */
  listed: number;
  /** Person-months copied to their month's people shard. */
  copied: number;
  /** Teams looked at. */
  teams: number;
}

async function backfillEntry(entry: JournalEntry & { aggregated?: boolean }): Promise<boolean> {
  const purchaseId = entry.kind === 'capture' ? entry.references?.transaction : undefined;
  const purchase = purchaseId ? await getPurchase(purchaseId) : undefined;
  const aggregates = await aggregateItems(
    entry,
    entry.postedAt,
    purchase
      ? {
          skillArea: purchase.skillArea ?? UNKNOWN_SKILL,
          media: purchase.media ?? UNKNOWN_MEDIA,
          merchant: purchase.merchant,
        }
      : undefined,
  );
  if (aggregates.length === 0) return false;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.journal(entry.entryId),
        UpdateExpression: 'SET aggregated = :true',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(aggregated)',
        ExpressionAttributeValues: { ':true': true },
      },
    },
    ...aggregates,
  ];
  if (purchase && !purchase.insightMonth) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.purchase(purchase.purchaseId),
        UpdateExpression: 'SET insightMonth = :month',
        ExpressionAttributeValues: { ':month': await postingMonth(entry.teamId, entry.postedAt) },
      },
    });
  }
  try {
    await sendTransaction(items);
    return true;
  } catch (error) {
    if (failedConditionItems(error).includes(0)) return false; // added already (by another run)
    throw error;
  }
}

/** Adds the aggregates of one team's entries that have none yet. */
export async function backfillTeamInsights(teamId: string): Promise<number> {
  let added = 0;
  for (const entry of (await teamJournal(teamId)) as (JournalEntry & { aggregated?: boolean })[]) {
    if (entry.aggregated) continue;
    if (await backfillEntry(entry)) added++;
  }
  return added;
}

/** Lists a team's employees by their dormancy clock (gsi4) and takes removed people out; how many changed. */
export async function indexQuietPeople(teamId: string): Promise<number> {
  const users = await listTeamUsersProjected(teamId, ['userId', 'role', 'status', 'quietSince', 'gsi4sk']);
  let changed = 0;
  for (const user of users as (Partial<UserRecord> & { gsi4sk?: string })[]) {
    const userId = user.userId as string;
    const listed = user.role === 'employee' && user.status !== 'deleted' && user.quietSince;
    const want = listed ? keys.userByQuietSince(teamId, user.quietSince as string, userId) : undefined;
    if (want?.gsi4sk === user.gsi4sk) continue;
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.user(userId),
          ...(want
            ? {
                UpdateExpression: 'SET gsi4pk = :pk, gsi4sk = :sk',
                ConditionExpression: 'quietSince = :quiet AND #status <> :deleted',
                ExpressionAttributeValues: {
                  ':pk': want.gsi4pk,
                  ':sk': want.gsi4sk,
                  ':quiet': user.quietSince,
                  ':deleted': 'deleted',
                },
              }
            : {
                UpdateExpression: 'REMOVE gsi4pk, gsi4sk',
                ConditionExpression:
                  'attribute_exists(pk) AND (#status = :deleted OR attribute_not_exists(quietSince))',
                ExpressionAttributeValues: { ':deleted': 'deleted' },
              }),
          ExpressionAttributeNames: { '#status': 'status' },
        }),
      );
      changed++;
    } catch (error) {
      // Changed meanwhile (a purchase restarted the clock, a removal): that write listed them right.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return changed;
}

/**
 * Copies each person's spend per month, quarter and year (the sum of its
 * months) to the people shards where they differ; how many were copied. Each
 * copy is conditioned on the person item still holding the months it was
 * figured from.
 */
export async function copyPeopleSpend(teamId: string): Promise<number> {
  const pk = keys.insightsNow(teamId).pk;
  const [people, shards] = await Promise.all([
    queryAll<Record<string, unknown>>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': 'PERSON#' },
    }),
    queryAll<Record<string, unknown>>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': 'PEOPLE' },
    }),
  ]);
  const inShards = new Map(shards.map((item) => [String(item.sk), item]));
  let copied = 0;
  for (const person of people) {
    const userId = String(person.userId);
    const spent = new Map<string, number>();
    for (const [name, cents] of Object.entries(person))
      if (name.startsWith('spent:') && typeof cents === 'number')
        spent.set(name.slice('spent:'.length), cents);
    // Every bucket (month, quarter, year) any of their months falls in, with the sum of its months.
    const buckets = new Map<string, SpendBucket>();
    for (const month of spent.keys())
      for (const bucket of bucketsOf(month)) buckets.set(`${bucket.kind}:${bucket.key}`, bucket);
    const copies = [...buckets.values()].map((bucket) => {
      const months = bucketMonths(bucket);
      return {
        key: keys.insightsPeopleShard(teamId, bucket, peopleShardOf(userId)),
        cents: months.reduce((sum, m) => sum + (spent.get(m) ?? 0), 0),
        months,
        fields: { [bucket.kind]: bucket.key },
      };
    });
    for (const copy of copies) {
      if (inShards.get(copy.key.sk)?.[spendAttr(userId)] === copy.cents) continue;
      // The person item still holds the months this figure came from (or still lacks them).
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const conditions = copy.months.map((month, i) => {
        names[`#m${i}`] = `spent:${month}`;
        if (!spent.has(month)) return `attribute_not_exists(#m${i})`;
        values[`:m${i}`] = spent.get(month);
        return `#m${i} = :m${i}`;
      });
      const [fieldName, fieldValue] = Object.entries(copy.fields)[0] as [string, string];
      try {
        await sendTransaction([
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.insightsPerson(teamId, userId),
              ConditionExpression: conditions.join(' AND '),
              ExpressionAttributeNames: names,
              ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: copy.key,
              UpdateExpression: 'SET #s = :cents, entity = :entity, #field = :field',
              ExpressionAttributeNames: { '#s': spendAttr(userId), '#field': fieldName },
              ExpressionAttributeValues: {
                ':cents': copy.cents,
                ':entity': 'InsightPeopleShard',
                ':field': fieldValue,
              },
            },
          },
        ]);
        copied++;
      } catch (error) {
        // A capture or refund moved it meanwhile (adding to both): the next run copies the new figure.
        if (failedConditionItems(error).includes(0)) continue;
        throw error;
      }
    }
  }
  return copied;
}

export async function backfillInsights(): Promise<InsightBackfillResult> {
  const teams = await teamsWithBilling();
  let added = 0;
  let listed = 0;
  let copied = 0;
  for (const team of teams) {
    added += await backfillTeamInsights(team.teamId);
    listed += await indexQuietPeople(team.teamId);
    copied += await copyPeopleSpend(team.teamId);
  }
  return { added, listed, copied, teams: teams.length };
}
