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
 */
import { UNKNOWN_MEDIA, UNKNOWN_SKILL } from '@shared/domain/insightDeltas';
import { teamsWithBilling } from './accounts';
import { tableName } from './client';
import { postingMonth } from './insightTotals';
import { keys } from './keys';
import { aggregateItems, type JournalEntry, teamJournal } from './ledger';
import { getPurchase } from './purchases';
import { failedConditionItems, sendTransaction, type TransactItem } from './transactions';

export interface InsightBackfillResult {
  /** Journal entries whose aggregates this run added. */
  added: number;
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

export async function backfillInsights(): Promise<InsightBackfillResult> {
  const teams = await teamsWithBilling();
  let added = 0;
  for (const team of teams) added += await backfillTeamInsights(team.teamId);
  return { added, teams: teams.length };
}
