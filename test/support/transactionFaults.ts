/**
 * Fault injection at the AWS SDK level, for tests that need DynamoDB to cancel
 * a transaction the way it does under contention. DynamoDB Local runs
 * transactions one at a time, so it never answers `TransactionConflict` on its
 * own; this adds a middleware to the data layer's real client (`db()`) that
 * answers the next TransactWriteItems calls with the TransactionCanceledException
 * DynamoDB sends (one reason per item, `None` for the items not at fault), and
 * lets every later call through to DynamoDB Local. Nothing of ours is mocked.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db } from '../../lambdas/src/data/client';

const MIDDLEWARE_NAME = 'testTransactionFaults';

export type CancellationCode = 'TransactionConflict' | 'ConditionalCheckFailed' | 'None';

export interface TransactionFaults {
  /** TransactWriteItems calls seen while installed (cancelled ones included). */
  readonly calls: number;
  /** Calls answered with a cancellation so far. */
  readonly cancelled: number;
  /** Takes the middleware off the client. */
  remove(): void;
}

/**
 * Cancels the next `times` TransactWriteItems calls. `reasons(items)` gives the
 * reason per item (default: the first item conflicts, the rest `None`).
 */
export function injectTransactionFaults(
  times: number,
  reasons: (items: number) => CancellationCode[] = (items) =>
    Array.from({ length: items }, (_, i) => (i === 0 ? 'TransactionConflict' : 'None')),
): TransactionFaults {
  const state = { calls: 0, cancelled: 0 };
  const stack = db().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      state.calls++;
      if (state.cancelled >= times) return next(args);
      state.cancelled++;
      const items = ((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length;
      const codes = reasons(items);
      throw new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: codes.map((Code) => ({ Code })),
      });
    },
    { step: 'initialize', priority: 'high', name: MIDDLEWARE_NAME },
  );
  return {
    get calls() {
      return state.calls;
    },
    get cancelled() {
      return state.cancelled;
    },
    remove() {
      stack.remove(MIDDLEWARE_NAME);
    },
  };
}
