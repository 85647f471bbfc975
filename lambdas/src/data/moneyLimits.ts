/**
 * The per-team, per-day counters behind the money velocity limits
 * (shared/src/domain/moneyLimits.ts). A request reserves its total before any
 * charge or refund, in one transaction with a reservation item keyed by the
 * request: the counter's condition makes two concurrent requests unable to
 * both pass, and the reservation makes a retried request count once. What a
 * request did not move (a declined charge) is given back by `settleReservation`.
 * The day counter is one item per team and kind, so two requests of one team
 * at once can conflict: both writes go through the ledger's `sendTransaction`,
 * which sends again after a TransactionConflict (docs/ledger.md).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MoneyLimitKind } from '@shared/domain/moneyLimits';
import { db, queryAll, tableName } from './client';
import { keys } from './keys';
import { sendTransaction } from './transactions';

/** Counters and reservations outlive their day by this much (TTL), for support to look at. */
const KEEP_SECONDS = 3 * 24 * 3600;

interface Reservation {
  cents: number;
  day: string;
}

function expiresAt(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 24 * 3600 + KEEP_SECONDS;
}

function cancelReasons(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (reasons ?? []).map((r) => r.Code ?? 'None');
}

/** Cents of `kind` the team has used (reserved) on `day`. */
export async function usedToday(teamId: string, kind: MoneyLimitKind, day: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.moneyDay(teamId, kind, day), ConsistentRead: true }),
  );
  return typeof Item?.usedCents === 'number' ? Item.usedCents : 0;
}

/**
 * Cents held by the team's reservations of `kind` whose request key starts
 * with `prefix` (one query of the team's limit partition; reservations live
 * three days past theirs, so a day's prefix is a handful of items).
 */
export async function reservedUnder(teamId: string, kind: MoneyLimitKind, prefix: string): Promise<number> {
  const { pk, sk } = keys.moneyReservation(teamId, kind, prefix);
  const items = await queryAll<{ cents?: unknown }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': sk },
    ProjectionExpression: 'cents',
    ConsistentRead: true,
  });
  return items.reduce((sum, item) => sum + (typeof item.cents === 'number' ? item.cents : 0), 0);
}

async function getReservation(
  teamId: string,
  kind: MoneyLimitKind,
  reservationId: string,
): Promise<Reservation | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.moneyReservation(teamId, kind, reservationId),
      ConsistentRead: true,
    }),
  );
  return Item ? { cents: Item.cents as number, day: Item.day as string } : undefined;
}

export type ReserveResult =
  | { state: 'reserved' }
  /** This request reserved before (a retry): nothing counted again. */
  | { state: 'alreadyReserved' }
  | { state: 'exceeded'; usedCents: number };

/**
 * Adds `cents` to the team's day only if the day's total stays within
 * `limitCents`, and records it under `reservationId`; at most once per id.
 */
export async function reserveMoney(
  teamId: string,
  kind: MoneyLimitKind,
  day: string,
  reservationId: string,
  cents: number,
  limitCents: number,
): Promise<ReserveResult> {
  if (await getReservation(teamId, kind, reservationId)) return { state: 'alreadyReserved' };
  const room = limitCents - cents;
  if (room < 0) return { state: 'exceeded', usedCents: await usedToday(teamId, kind, day) };
  const expiry = expiresAt(day);
  try {
    await sendTransaction([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.moneyReservation(teamId, kind, reservationId), cents, day, expiresAt: expiry },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.moneyDay(teamId, kind, day),
          UpdateExpression: 'ADD usedCents :cents SET expiresAt = :expiresAt',
          ConditionExpression: 'attribute_not_exists(usedCents) OR usedCents <= :room',
          ExpressionAttributeValues: { ':cents': cents, ':room': room, ':expiresAt': expiry },
        },
      },
    ]);
    return { state: 'reserved' };
  } catch (error) {
    const reasons = cancelReasons(error);
    if (!reasons) throw error;
    if (reasons[0] === 'ConditionalCheckFailed') return { state: 'alreadyReserved' };
    if (reasons[1] === 'ConditionalCheckFailed')
      return { state: 'exceeded', usedCents: await usedToday(teamId, kind, day) };
    throw error;
  }
}

/**
 * Sets what a reservation finally moved (`spentCents`, at most what it
 * reserved) and gives the rest back to its day. Idempotent: settling to the
 * same amount again changes nothing.
 */
export async function settleReservation(
  teamId: string,
  kind: MoneyLimitKind,
  reservationId: string,
  spentCents: number,
): Promise<void> {
  const reservation = await getReservation(teamId, kind, reservationId);
  if (!reservation || reservation.cents <= spentCents) return;
  await sendTransaction([
    {
      Update: {
        TableName: tableName(),
        Key: keys.moneyReservation(teamId, kind, reservationId),
        UpdateExpression: 'SET cents = :spent',
        ConditionExpression: 'cents = :reserved',
        ExpressionAttributeValues: { ':spent': spentCents, ':reserved': reservation.cents },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: keys.moneyDay(teamId, kind, reservation.day),
        UpdateExpression: 'ADD usedCents :delta',
        ExpressionAttributeValues: { ':delta': spentCents - reservation.cents },
      },
    },
  ]);
}
