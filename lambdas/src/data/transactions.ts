/**
 * TransactWriteItems with the retry DynamoDB's conflicts call for. Two
 * transactions touching the same item at once: DynamoDB cancels one with the
 * reason `TransactionConflict` (nothing was written). Every item a ledger
 * posting writes belongs to one team or one person (docs/ledger.md), and
 * sign-ups write items of one address, so this only happens when the same card,
 * team or address is written twice at the same instant; the loser is sent again
 * after a short random wait, a bounded number of times. A failed condition is a
 * real answer and goes straight to the caller. Every transaction of the data
 * layer goes through here.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { createLogger } from '../platform/log';
import { metrics } from '../platform/metrics';
import { db } from './client';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Sends after a conflict, at most: 1 + this many attempts in all. */
export const CONFLICT_RETRIES = 4;
const BACKOFF_BASE_MS = 10;
const BACKOFF_CAP_MS = 250;

export interface TransactionConflict {
  /** 1 for the first conflict of a transaction. */
  attempt: number;
  /** True when this was the last attempt and the error goes to the caller. */
  gaveUp: boolean;
  /** How long it waits before sending again (0 when it gave up). */
  delayMs: number;
  /** How many items the transaction had. */
  items: number;
}

const conflictCounts = { conflicts: 0, retries: 0, gaveUp: 0 };
const conflictListeners = new Set<(conflict: TransactionConflict) => void>();
const conflictLog = createLogger({ component: 'transactions' });

/**
 * Calls `listener` on every transaction conflict (the observability work turns
 * these into a metric). Returns a function that stops it.
 */
export function onTransactionConflict(listener: (conflict: TransactionConflict) => void): () => void {
  conflictListeners.add(listener);
  return () => conflictListeners.delete(listener);
}

/** Conflicts met, retries made and transactions given up since this process started. */
export function transactionConflictCounts(): { conflicts: number; retries: number; gaveUp: number } {
  return { ...conflictCounts };
}

function cancellationReasons(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? '');
}

function isConflict(error: unknown): boolean {
  const reasons = cancellationReasons(error) ?? [];
  // A failed condition is a real answer (duplicate, no funds): never retried.
  return reasons.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
}

/** True when a transaction was cancelled because one of its conditions failed (a real answer, not contention). */
export function failedCondition(error: unknown): boolean {
  return cancellationReasons(error)?.includes('ConditionalCheckFailed') ?? false;
}

/**
 * The positions (0-based, in the order sent) of the items whose condition
 * cancelled a transaction, so a caller can say which rule refused it.
 */
export function failedConditionItems(error: unknown): number[] {
  return (cancellationReasons(error) ?? []).flatMap((code, index) =>
    code === 'ConditionalCheckFailed' ? [index] : [],
  );
}

/** "Full jitter": a random wait up to an exponentially growing bound, so racing writers spread out. */
function backoffMs(attempt: number): number {
  return Math.floor(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

/**
 * One TransactWriteItems, sent again (after a jittered wait) when DynamoDB
 * cancelled it only for a conflict with another transaction. Any other
 * cancellation, or a conflict on the last attempt, goes to the caller as it came.
 */
export async function sendTransaction(items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!isConflict(error)) throw error;
      const gaveUp = attempt >= CONFLICT_RETRIES;
      const delayMs = gaveUp ? 0 : backoffMs(attempt);
      conflictCounts.conflicts++;
      if (gaveUp) conflictCounts.gaveUp++;
      else {
        conflictCounts.retries++;
        metrics.transactionConflictRetried();
      }
      const conflict = { attempt: attempt + 1, gaveUp, delayMs, items: items.length };
      conflictLog.warn(gaveUp ? 'transaction conflict: gave up' : 'transaction conflict: retrying', conflict);
      for (const listener of conflictListeners) listener(conflict);
      if (gaveUp) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
