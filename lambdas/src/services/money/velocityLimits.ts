/**
 * The money velocity limits as the services use them: a preview checks the
 * day's room without writing; an action reserves its total before any charge
 * or refund and is refused, with the limit named, when it does not fit.
 */
import {
  dailyLimitCents,
  limitDay,
  limitExceededMessage,
  type MoneyLimitKind,
} from '@shared/domain/moneyLimits';
import { AppError } from '@shared/errors';
import type { TeamRecord } from '../../data/accounts';
import { reserveMoney, settleReservation, usedToday } from '../../data/moneyLimits';

function refusal(kind: MoneyLimitKind, limitCents: number, usedCents: number): AppError {
  return new AppError(
    'LIMIT_EXCEEDED',
    limitExceededMessage(kind, limitCents, Math.max(0, limitCents - usedCents)),
  );
}

/** The team's limit of `kind` and what is left of it today. */
export async function dailyRoom(team: TeamRecord, kind: MoneyLimitKind, now: Date) {
  const limitCents = dailyLimitCents(kind, team as unknown as Record<string, unknown>);
  const usedCents = await usedToday(team.teamId, kind, limitDay(now));
  return { limitCents, remainingCents: Math.max(0, limitCents - usedCents) };
}

/** For previews: refuses as the action would, writes nothing. */
export async function checkWithinLimit(team: TeamRecord, kind: MoneyLimitKind, cents: number, now: Date) {
  const room = await dailyRoom(team, kind, now);
  if (cents > room.remainingCents)
    throw refusal(kind, room.limitCents, room.limitCents - room.remainingCents);
  return room;
}

/**
 * Counts `cents` against today's limit for the request `requestKey` names, or
 * refuses with the limit named. The reservation is the request's day, amount
 * and key together: the same request retried the same day is counted once,
 * while a key used again on another day, or for another amount, is counted
 * again (a reservation by key alone let a key from yesterday's $1 carry
 * today's $10,000 past the limit). Returns the reservation, to settle.
 */
export async function reserveWithinLimit(
  team: TeamRecord,
  kind: MoneyLimitKind,
  requestKey: string,
  cents: number,
  now: Date,
): Promise<string> {
  const day = limitDay(now);
  const reservationId = `${requestKey}#${day}#${cents}`;
  const limitCents = dailyLimitCents(kind, team as unknown as Record<string, unknown>);
  const result = await reserveMoney(team.teamId, kind, day, reservationId, cents, limitCents);
  if (result.state === 'exceeded') throw refusal(kind, limitCents, result.usedCents);
  return reservationId;
}

/** Gives back what a reservation (reserveWithinLimit's answer) did not move (declined charges, people skipped on the way). */
export async function settleWithinLimit(
  team: Pick<TeamRecord, 'teamId'>,
  kind: MoneyLimitKind,
  reservationId: string,
  spentCents: number,
): Promise<void> {
  await settleReservation(team.teamId, kind, reservationId, spentCents);
}
