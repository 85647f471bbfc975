/**
 * Writes and reads the double-entry ledger. A posting (validated by
 * shared/src/domain/ledger.ts) is one TransactWriteItems:
 *   - the journal item, conditioned on not existing: its id is the idempotency
 *     key, so the same movement is recorded once however often it is posted;
 *   - per leg, the account's balance update, conditioned (for internal accounts
 *     taking money out) on the balance covering it: no balance goes negative;
 *     and (for a debt being paid back) on the debt being that large: no debt
 *     goes above zero;
 *   - per leg, an entry item on the account, for statements.
 * Outside calls (Stripe, SES) happen before or after, never inside.
 */
import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { insightDelta, type PurchaseTags } from '@shared/domain/insightDeltas';
import {
  type AccountId,
  mayGoNegative,
  mayNotGoPositive,
  type Posting,
  validatePosting,
} from '@shared/domain/ledger';
import { encodeTime, monotonicFactory } from 'ulid';
import { systemClock } from '../adapters/clock';
import { db, queryAll, tableName } from './client';
import { insightItems, postingMonth } from './insightTotals';
import { keys } from './keys';
import { sendTransaction, type TransactItem } from './transactions';

/**
 * DynamoDB's limit of 100 items per transaction, at 2 items per leg plus the
 * journal, and room for the insights aggregates a many-legged posting (a
 * reallocation: the team's month and NOW items) adds (issue 26).
 */
export const MAX_LEGS = 48;

export type PostResult = { status: 'posted' } | { status: 'duplicate' };

/** An internal account would go below zero, or a debt above it. `account` says which. */
export class InsufficientFunds extends Error {
  constructor(readonly account: AccountId) {
    super(`${account} cannot cover this`);
  }
}

export interface JournalEntry extends Posting {
  postedAt: string;
}

export interface StatementLine {
  entryId: string;
  kind: Posting['kind'];
  description: string;
  postedAt: string;
  /** Where the ledger wrote it among the account's entries (see `entrySequence`). */
  sequence: string;
  amountCents: number;
  /** The account's balance after this entry. */
  balanceCents: number;
  references?: Record<string, string>;
}

/**
 * The order in which the ledger wrote its entries: a ULID of the moment of
 * writing, increasing within a process even in the same millisecond. `postedAt`
 * is when the movement happened by its source (a capture carries Stripe's
 * whole-second time, which can fall before the decision that held the money),
 * so sorting by it can put a purchase before its own hold; sorting by this
 * cannot, since a capture is written after the hold it settles.
 */
const nextSequence = monotonicFactory();

/** Entries written before `sequence` existed sort by their posting time, ahead of any written in the same millisecond. */
function entrySequence(item: { sequence?: string; postedAt: string }): string {
  return item.sequence ?? `${encodeTime(Date.parse(item.postedAt), 10)}${'0'.repeat(16)}`;
}

function entrySortKey(postedAt: string, entryId: string, leg: number) {
  return `ENTRY#${postedAt}#${entryId}#${leg}`;
}

/**
 * Builds the transaction items of a posting. Exposed so callers that must write
 * one more item atomically with the money (an authorization decision, a card
 * state) can add it to the same transaction.
 */
export function postingItems(posting: Posting, postedAt: string): TransactItem[] {
  validatePosting(posting);
  if (posting.legs.length > MAX_LEGS) throw new Error(`a posting has at most ${MAX_LEGS} legs`);
  const table = tableName();
  const sequence = nextSequence(systemClock.now().getTime());
  const journal = {
    Put: {
      TableName: table,
      Item: {
        ...keys.journal(posting.entryId),
        ...keys.journalByTeam(posting.teamId, postedAt, posting.entryId),
        entity: 'Journal',
        ...posting,
        postedAt,
        // Its insights aggregates are written in this same transaction (issue 26): the backfill skips it.
        aggregated: true,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  const legs = posting.legs.flatMap((leg, index) => {
    // Taking out of an internal account needs the balance to cover it; paying
    // into a debt needs the debt to be at least that large.
    const floor = leg.amountCents < 0 && !mayGoNegative(leg.account);
    const ceiling = leg.amountCents > 0 && mayNotGoPositive(leg.account);
    return [
      {
        Update: {
          TableName: table,
          Key: keys.account(leg.account),
          UpdateExpression: 'ADD balanceCents :amount SET entity = :entity, accountId = :account',
          ...(floor ? { ConditionExpression: 'balanceCents >= :needed' } : {}),
          ...(ceiling ? { ConditionExpression: 'balanceCents <= :ceiling' } : {}),
          ExpressionAttributeValues: {
            ':amount': leg.amountCents,
            ':entity': 'Account',
            ':account': leg.account,
            ...(floor ? { ':needed': -leg.amountCents } : {}),
            ...(ceiling ? { ':ceiling': -leg.amountCents } : {}),
          },
        },
      },
      {
        Put: {
          TableName: table,
          Item: {
            pk: keys.account(leg.account).pk,
            sk: entrySortKey(postedAt, posting.entryId, index),
            entity: 'LedgerEntry',
            entryId: posting.entryId,
            kind: posting.kind,
            description: posting.description,
            amountCents: leg.amountCents,
            postedAt,
            sequence,
            ...(posting.references ? { references: posting.references } : {}),
          },
        },
      },
    ];
  });
  return [journal, ...legs];
}

/**
 * Reads why a ledger transaction was cancelled: the journal already existed
 * (a duplicate: fine), or a balance condition failed (insufficient funds).
 * `extraItems` counts items the caller put before the posting's items.
 */
export function explainCancellation(error: unknown, posting: Posting, extraItems = 0): PostResult {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') throw error;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  if (reasons[extraItems]?.Code === 'ConditionalCheckFailed') return { status: 'duplicate' };
  reasons.forEach((reason, i) => {
    if (reason.Code !== 'ConditionalCheckFailed' || i <= extraItems) return;
    const legIndex = Math.floor((i - extraItems - 1) / 2);
    const leg = posting.legs[legIndex];
    if (leg) throw new InsufficientFunds(leg.account);
  });
  throw error;
}

/**
 * The insights aggregates a posting adds (issue 26), as items for its own
 * transaction: none (and no read of the team's time zone) for a posting that
 * adds nothing, such as an authorization or a release.
 */
export async function aggregateItems(
  posting: Posting,
  postedAt: string,
  tags?: PurchaseTags,
): Promise<TransactItem[]> {
  const delta = insightDelta(posting, tags);
  if (!delta) return [];
  return insightItems(posting.teamId, await postingMonth(posting.teamId, postedAt), delta);
}

/**
 * Posts once. A repeat of the same entry id is reported as a duplicate and
 * changes nothing, its insights aggregates included (they are in the same
 * transaction, after the posting's own items).
 */
export async function post(
  posting: Posting,
  postedAt = systemClock.now().toISOString(),
): Promise<PostResult> {
  try {
    await sendTransaction([...postingItems(posting, postedAt), ...(await aggregateItems(posting, postedAt))]);
    return { status: 'posted' };
  } catch (error) {
    return explainCancellation(error, posting);
  }
}

export async function balanceOf(account: AccountId): Promise<number> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.account(account), ConsistentRead: true }),
  );
  return Number(result.Item?.balanceCents ?? 0);
}

/** The sum of these accounts' balances, 100 accounts a read (keys DynamoDB leaves unprocessed are asked again). */
export async function totalBalance(accounts: AccountId[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < accounts.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = accounts
      .slice(i, i + 100)
      .map((account) => keys.account(account));
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) total += Number(item.balanceCents ?? 0);
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return total;
}

export async function getJournal(entryId: string): Promise<JournalEntry | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.journal(entryId) }));
  return result.Item as JournalEntry | undefined;
}

/** Journal entries by id, 100 a call (keys DynamoDB leaves unprocessed are asked again); absent ids are left out. */
export async function getJournals(entryIds: string[]): Promise<Map<string, JournalEntry>> {
  const found = new Map<string, JournalEntry>();
  for (let i = 0; i < entryIds.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = entryIds
      .slice(i, i + 100)
      .map((id) => keys.journal(id));
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) found.set(item.entryId, item as JournalEntry);
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
}

/**
 * Has money come onto the account after `since` (a leg above zero posted
 * later)? Reads the account's entries from then on, stopping at the first.
 */
export async function creditedSince(account: AccountId, since: string): Promise<boolean> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk > :after',
        FilterExpression: 'amountCents > :zero',
        ExpressionAttributeValues: {
          ':pk': keys.account(account).pk,
          // Entry keys are ENTRY#<postedAt>#<entryId>#<leg>: this is just after every entry posted at `since`.
          ':after': `ENTRY#${since}#\uffff`,
          ':zero': 0,
        },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    if ((page.Items ?? []).length > 0) return true;
    start = page.LastEvaluatedKey;
  } while (start);
  return false;
}

/**
 * An account's statement in the order the ledger wrote it, with the running
 * balance after each line: since every write was conditioned on the balance
 * covering it, no running balance of an internal account is below zero.
 */
export async function statement(account: AccountId): Promise<StatementLine[]> {
  const items = await queryAll<{
    sk: string;
    entryId: string;
    kind: Posting['kind'];
    description: string;
    postedAt: string;
    sequence?: string;
    amountCents: number;
    references?: Record<string, string>;
  }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.account(account).pk, ':prefix': 'ENTRY#' },
    ConsistentRead: true,
  });
  const ordered = items
    .map((item) => ({ ...item, sequence: entrySequence(item) }))
    .sort((a, b) => compare(a.sequence, b.sequence) || compare(a.sk, b.sk));
  let balance = 0;
  return ordered.map((item) => {
    balance += Number(item.amountCents);
    return {
      entryId: item.entryId,
      kind: item.kind,
      description: item.description,
      postedAt: item.postedAt,
      sequence: item.sequence,
      amountCents: Number(item.amountCents),
      balanceCents: balance,
      references: item.references,
    };
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A team's journal entries sort (gsi1sk) between these, by posting time. */
export const JOURNAL_SK_FIRST = 'JOURNAL#';
export const JOURNAL_SK_AFTER_LAST = 'JOURNAL$';

/**
 * Up to `limit` of a team's journal entries older than the index sort key
 * `before` (exclusive), newest first, each with its `gsi1sk` for the next page.
 */
export async function teamJournalBefore(
  teamId: string,
  before: string,
  limit: number,
): Promise<(JournalEntry & { gsi1sk: string })[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :first AND :before',
      ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':first': JOURNAL_SK_FIRST, ':before': before },
      ScanIndexForward: false,
      // BETWEEN is inclusive: one more, in case the bound itself comes back.
      Limit: limit + 1,
    }),
  );
  const items = (result.Items ?? []) as (JournalEntry & { gsi1sk: string })[];
  return items.filter((item) => item.gsi1sk !== before).slice(0, limit);
}

/** A team's journal entries posted at or after `fromIso`, oldest first. */
export async function teamJournalSince(teamId: string, fromIso: string): Promise<JournalEntry[]> {
  return queryAll<JournalEntry>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :last',
    ExpressionAttributeValues: {
      ':pk': `TEAM#${teamId}`,
      ':from': `${JOURNAL_SK_FIRST}${fromIso}`,
      ':last': JOURNAL_SK_AFTER_LAST,
    },
  });
}

/**
 * A team's journal entries posted at or after `fromIso` and before `toIso`,
 * oldest first: one bounded gsi1 query (the accounting export, docs/data-model.md pattern AE1).
 * `toIso` is exclusive: every sort key of an entry posted at `toIso` sorts after
 * `JOURNAL#<toIso>` (its entry id follows), so BETWEEN stops just short of them.
 */
export async function teamJournalBetween(
  teamId: string,
  fromIso: string,
  toIso: string,
): Promise<JournalEntry[]> {
  return queryAll<JournalEntry>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': `TEAM#${teamId}`,
      ':from': `${JOURNAL_SK_FIRST}${fromIso}`,
      ':to': `${JOURNAL_SK_FIRST}${toIso}`,
    },
  });
}

/** A team's journal, oldest first. */
export async function teamJournal(teamId: string): Promise<JournalEntry[]> {
  return queryAll<JournalEntry>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':prefix': 'JOURNAL#' },
  });
}

/**
 * A team's journal entries that moved money to or from its card on file
 * (funding, deposit, redemption), oldest first: the payments history's source.
 * The filter is applied after the read, so this reads the whole journal as
 * `teamJournal` does, but hands back only those entries (docs/data-model.md, pattern 41).
 */
export async function teamCardMovements(teamId: string): Promise<JournalEntry[]> {
  return queryAll<JournalEntry>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    FilterExpression: '#kind IN (:funding, :deposit, :redemption)',
    ExpressionAttributeNames: { '#kind': 'kind' },
    ExpressionAttributeValues: {
      ':pk': `TEAM#${teamId}`,
      ':prefix': 'JOURNAL#',
      ':funding': 'funding',
      ':deposit': 'deposit',
      ':redemption': 'redemption',
    },
  });
}
