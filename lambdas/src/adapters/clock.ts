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

let last: { time: number; id: string } | undefined;

/**
 * A ULID of `at`. Two made for the same millisecond by this process sort in
 * the order they were made (the second is the first plus one), so records
 * written one after the other in one request (an invitation, then the
 * person's removal) are listed in that order, not by chance. Any other time
 * gets a fresh random part: an id never moves to a later time than its own.
 */
export function newId(at: Date = systemClock.now()): string {
  const time = at.getTime();
  const id = (last?.time === time ? incremented(last.id) : undefined) ?? ulid(time);
  last = { time, id };
  return id;
}

/** ULID's alphabet (Crockford's base 32), in sort order. */
export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The next ULID after `id` in the same millisecond (its random part plus one); undefined past the last. */
function incremented(id: string): string | undefined {
  const chars = id.split('');
  for (let i = chars.length - 1; i >= 10; i--) {
    const digit = CROCKFORD.indexOf(chars[i] as string);
    if (digit < 31) {
      chars[i] = CROCKFORD[digit + 1] as string;
      return chars.join('');
    }
    chars[i] = '0';
  }
  // 80 random bits all ones (vanishingly rare): a fresh id keeps it unique, if not in order.
  return undefined;
}
