/** Time and ids behind one seam so tests and jobs can fix "now". */
import { ulid } from 'ulid';

export interface Clock {
  now(): Date;
}

/**
 * The machine's clock. Only the local stack ever replaces `now` (time travel,
 * infra/local/timeTravel.ts); in AWS nothing does.
 */
export const systemClock: Clock = { now: () => new Date() };

export function newId(at: Date = systemClock.now()): string {
  return ulid(at.getTime());
}
