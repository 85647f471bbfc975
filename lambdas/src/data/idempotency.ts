/**
 * Idempotency records for money-moving requests: the first request with a key
 * claims it (with the hash of its body), and its answer is stored; a retry with
 * the same key and body gets the stored answer; the same key with another body
 * is refused. Records expire after 24 hours.
 *
 * A claim is a lease: a request that dies after claiming (a Lambda timeout, a
 * crash) never completes or releases its key, so once the lease has run out a
 * retry with the same key and body takes the claim over and runs the handler
 * again. Before the lease runs out the first request may still be running, so
 * a retry is refused.
 *
 * Running the handler again must not decide again: the first run may have
 * moved the money and died before its answer was stored, and a second look at
 * the books would then find nothing left to move and refuse (a reallocation
 * answered "There is no remaining budget to reallocate"). So a run keeps its
 * decisions with its claim as it makes them (`steps`: what it checked, which
 * money it took, before it moves that money), and a run that takes the claim
 * over gets them back and finishes the same decisions; every money step
 * behind them is keyed by ids derived from the decision (ledger entry ids,
 * Stripe purposes), so the money moves once and the answer is the first one's.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

const TTL_SECONDS = 24 * 3600;

/**
 * How long a claim is "in progress" before a retry may take it over. The
 * money routes run with Lambda's default 10 s timeout (FUNCTION_DEFAULTS in
 * infra/lib/constructs/appFunction.ts; only the webhook is set shorter), so a
 * claimant cannot still be running after that; the 5 s on top absorb clock
 * differences between Lambda hosts. Raise this with the routes' timeout.
 */
export const IDEMPOTENCY_LEASE_MS = 15_000;

/**
 * `steps` holds what earlier runs under this key decided (JSON text by step
 * name): empty for a first run, the dead run's decisions for a takeover.
 */
export type Claim =
  | { state: 'claimed'; claimId: string; steps: Record<string, string> }
  | { state: 'replay'; status: number; body: unknown }
  | { state: 'mismatch' }
  | { state: 'inProgress' };

export function hashBody(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

function expiresAt(now: Date): number {
  return Math.floor(now.getTime() / 1000) + TTL_SECONDS;
}

export async function claimIdempotencyKey(
  scope: string,
  key: string,
  bodyHash: string,
  now: Date,
): Promise<Claim> {
  // Each claim has its own id, so only the request holding the claim can complete or release it.
  const claimId = randomUUID();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.idempotency(scope, key),
          entity: 'Idempotency',
          bodyHash,
          state: 'inProgress',
          claimId,
          steps: {},
          leaseUntil: now.getTime() + IDEMPOTENCY_LEASE_MS,
          createdAt: now.toISOString(),
          expiresAt: expiresAt(now),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
      }),
    );
    return { state: 'claimed', claimId, steps: {} };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const existing = (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.idempotency(scope, key), ConsistentRead: true }),
    )
  ).Item;
  if (!existing) return claimIdempotencyKey(scope, key, bodyHash, now);
  if (existing.bodyHash !== bodyHash) return { state: 'mismatch' };
  if (existing.state === 'done')
    return { state: 'replay', status: Number(existing.status), body: existing.body };
  return takeOver(scope, key, bodyHash, now, claimId);
}

/**
 * Takes over an in-progress claim whose lease has run out, with the steps the
 * earlier runs kept. Conditional, so of several retries racing for the same
 * stale claim exactly one wins; the others see a fresh lease and are told the
 * request is still being processed.
 */
async function takeOver(
  scope: string,
  key: string,
  bodyHash: string,
  now: Date,
  claimId: string,
): Promise<Claim> {
  try {
    const taken = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope, key),
        // Records claimed before steps existed have none.
        UpdateExpression:
          'SET claimId = :claim, leaseUntil = :lease, expiresAt = :expires, steps = if_not_exists(steps, :none)',
        // Records claimed before leases existed have none: they count from their creation.
        ConditionExpression:
          '#state = :inProgress AND bodyHash = :hash AND ' +
          '(leaseUntil < :nowMs OR (attribute_not_exists(leaseUntil) AND createdAt < :staleBefore))',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':claim': claimId,
          ':lease': now.getTime() + IDEMPOTENCY_LEASE_MS,
          ':expires': expiresAt(now),
          ':inProgress': 'inProgress',
          ':hash': bodyHash,
          ':nowMs': now.getTime(),
          ':staleBefore': new Date(now.getTime() - IDEMPOTENCY_LEASE_MS).toISOString(),
          ':none': {},
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { state: 'claimed', claimId, steps: (taken.Attributes?.steps ?? {}) as Record<string, string> };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  // The lease is still running, another retry took it over first, or the first request just finished.
  const current = (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.idempotency(scope, key), ConsistentRead: true }),
    )
  ).Item;
  if (current?.state === 'done' && current.bodyHash === bodyHash) {
    return { state: 'replay', status: Number(current.status), body: current.body };
  }
  return { state: 'inProgress' };
}

/** The claim was taken over by a retry after this run's lease ran out: this run must stop. */
class ClaimTakenOver extends Error {
  constructor() {
    super('the Idempotency-Key claim was taken over by a retry; this run stops');
  }
}

/**
 * Keeps one decision of the run holding the claim (`value` is JSON text), so
 * a run that takes the claim over finishes it instead of deciding again.
 * Conditioned on still holding the claim: a run whose lease ran out and was
 * taken over stops here (ClaimTakenOver) rather than decide beside its successor.
 */
export async function keepIdempotencyStep(
  scope: string,
  key: string,
  claimId: string,
  name: string,
  value: string,
): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope, key),
        UpdateExpression: 'SET steps.#name = :value',
        ConditionExpression: 'claimId = :claim AND #state = :inProgress',
        ExpressionAttributeNames: { '#name': name, '#state': 'state' },
        ExpressionAttributeValues: { ':value': value, ':claim': claimId, ':inProgress': 'inProgress' },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ClaimTakenOver();
    throw error;
  }
}

/**
 * Stores the answer. Conditioned on still holding the claim: a request that
 * overran its lease and was taken over leaves the answer to the one that took
 * it (both ran the same idempotent operations, so either answer is right).
 */
export async function completeIdempotencyKey(
  scope: string,
  key: string,
  claimId: string,
  status: number,
  body: unknown,
): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope, key),
        // The answer replays from here on: the steps that led to it are no longer needed.
        UpdateExpression: 'SET #state = :done, #status = :status, #body = :body REMOVE leaseUntil, steps',
        ConditionExpression: 'claimId = :claim',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body' },
        ExpressionAttributeValues: { ':done': 'done', ':status': status, ':body': body, ':claim': claimId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * A request that failed having decided something (its money may have moved)
 * keeps its steps, but its retry need not wait for the lease: it may take the
 * claim over at once and finish (if the claim is still ours).
 */
export async function endIdempotencyLease(scope: string, key: string, claimId: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope, key),
        UpdateExpression: 'SET leaseUntil = :ended',
        ConditionExpression: 'claimId = :claim AND #state = :inProgress',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':ended': 0, ':claim': claimId, ':inProgress': 'inProgress' },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** A request that failed before deciding anything may be retried with the same key at once: forget the claim (if still ours). */
export async function releaseIdempotencyKey(scope: string, key: string, claimId: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope, key),
        ConditionExpression: 'claimId = :claim',
        ExpressionAttributeValues: { ':claim': claimId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
