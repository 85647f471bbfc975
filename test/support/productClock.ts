/**
 * The product's clock in tests. Integration handlers run in the test's own
 * process and read `systemClock` (lambdas/src/adapters/clock.ts), so a test
 * that counts in a time window (rate limits, daily caps) holds that clock
 * still instead of racing the machine's: the test passes the same on an idle
 * machine and on one busy enough to take minutes over it.
 */
import { systemClock } from '../../lambdas/src/adapters/clock';

const machineClock = systemClock.now;

/** The first moment of the next fixed window of `windowSeconds` after `from` (windows align to the epoch, as data/rateLimits.ts counts them). */
export function nextWindowStart(windowSeconds: number, from: Date = new Date()): Date {
  const windowMs = windowSeconds * 1000;
  return new Date(from.getTime() - (from.getTime() % windowMs) + windowMs);
}

/** Stops the product's clock at `at` until `releaseClock()`: every handler sees that instant. */
export function holdClock(at: Date): void {
  systemClock.now = () => new Date(at);
}

/** The machine's clock again. */
export function releaseClock(): void {
  systemClock.now = machineClock;
}
