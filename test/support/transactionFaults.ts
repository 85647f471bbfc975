/**
 * Fault injection at the AWS SDK level, for tests that need DynamoDB to cancel
 * a transaction the way it does under contention. DynamoDB Local runs
 * transactions one at a time, so it never answers `TransactionConflict` on its
 * own; this adds a middleware to the data layer's real client (`db()`) that
 * answers the next TransactWriteItems calls with the TransactionCanceledException
 * DynamoDB sends (one reason per item, `None` for the items not at fault), and
 * lets every later call through to DynamoDB Local. Nothing of ours is mocked.
 * `loseAnswerOf` plays a request that dies between moving money and storing
 * its answer the same way.
 */
import { type AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
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

const LOST_ANSWER = 'testLostAnswer';

export interface LostAnswer {
  /** The answer the request was storing when it died: its status and body. */
  readonly answer: { status: number; body: unknown } | undefined;
  /** Takes the middleware off the client. */
  remove(): void;
}

const WIRE_TYPES = ['S', 'N', 'BOOL', 'NULL', 'L', 'M'];

/**
 * A value of a write as the document client was given it: at this step it is
 * still plain, and read from DynamoDB's wire format should the client have
 * marshalled it already.
 */
function plain(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const [type, ...more] = Object.keys(value);
  if (more.length > 0 || !type || !WIRE_TYPES.includes(type)) return value;
  const wire = value as AttributeValue;
  if (wire.S !== undefined) return wire.S;
  if (wire.N !== undefined) return Number(wire.N);
  if (wire.BOOL !== undefined) return wire.BOOL;
  if (wire.NULL !== undefined) return null;
  if (wire.L !== undefined) return wire.L.map(plain);
  return Object.fromEntries(Object.entries(wire.M ?? {}).map(([name, item]) => [name, plain(item)]));
}

/**
 * A request that dies after moving its money and before its answer is stored
 * (a Lambda timeout or crash at that point): the write that would store the
 * answer of the Idempotency-Key `key` fails, and so does every later write the
 * same run makes to that key's record (its claim id is in each: releasing or
 * ending its claim), as a dead process's writes never arrive; a retry's own
 * writes (another claim id) go through. Keeps the answer the write carried, so
 * a test can compare the retry's answer with the one the client never got.
 */
export function loseAnswerOf(key: string): LostAnswer {
  const state: { answer?: { status: number; body: unknown }; deadClaim?: unknown } = {};
  const died = () =>
    Object.assign(new Error('the request died before storing its answer'), { name: 'TimeoutError' });
  const stack = db().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      if (!['UpdateItemCommand', 'DeleteItemCommand'].includes(context.commandName ?? '')) return next(args);
      const input = args.input as {
        Key?: unknown;
        UpdateExpression?: string;
        ExpressionAttributeValues?: Record<string, unknown>;
      };
      const record = JSON.stringify(input.Key ?? {});
      if (!record.includes('IDEMPOTENCY#') || !record.includes(`#${key}`)) return next(args);
      const values = input.ExpressionAttributeValues ?? {};
      const claim = plain(values[':claim']);
      if (state.deadClaim !== undefined) {
        if (claim === state.deadClaim) throw died();
        return next(args);
      }
      if (!(input.UpdateExpression ?? '').includes(':done')) return next(args);
      const read = (name: string) => {
        if (!(name in values)) throw new Error(`the answer's write has no ${name}`);
        return plain(values[name]);
      };
      state.answer = { status: Number(read(':status')), body: read(':body') };
      state.deadClaim = read(':claim');
      throw died();
    },
    { step: 'initialize', priority: 'high', name: LOST_ANSWER },
  );
  return {
    get answer() {
      return state.answer;
    },
    remove() {
      stack.remove(LOST_ANSWER);
    },
  };
}

const FAILED_WRITE = 'testFailedWrite';

/**
 * Fails the first `commandName` call (e.g. `PutItemCommand`) whose input
 * `matches`, as a throttled or timed-out call fails: an error the product does
 * not expect, in the middle of a request. Takes itself off after that one.
 */
export function failOnce(commandName: string, matches: (input: Record<string, unknown>) => boolean): void {
  const stack = db().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      if (context.commandName !== commandName || !matches(args.input as Record<string, unknown>))
        return next(args);
      stack.remove(FAILED_WRITE);
      throw Object.assign(new Error('the call timed out'), { name: 'TimeoutError' });
    },
    { step: 'initialize', priority: 'high', name: FAILED_WRITE },
  );
}
