/** Time and ids behind one seam so tests and jobs can fix "now". */
import { ulid } from 'ulid';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function newId(at: Date = new Date()): string {
  return ulid(at.getTime());
}
