/**
 * Sign-in throttling that cannot lock the real owner out (docs/security.md
 * "Sign-in throttling"). Failures, not attempts, are counted, per e-mail
 * address and per source address, and each failure beyond a few free ones
 * makes the next try wait longer (doubling), never a hard lock:
 *
 * - per address, the wait is capped at one minute: someone guessing at a
 *   person's password slows them by a minute at most, while guessing itself
 *   drops to ~60 tries an hour;
 * - per source, the wait grows to 15 minutes: one machine guessing across many
 *   addresses is slowed hard, without touching owners elsewhere.
 *
 * A wrong second-factor code is a failure too. A successful sign-in clears the
 * address's count. Each try is counted before it is checked (reserveTry).
 */
import { AppError } from '@shared/errors';
import {
  clearFailures,
  type FailureScope,
  releaseTry,
  reserveTry as reserveFailure,
} from '../../data/signInFailures';

export interface DelayRule {
  /** Failures allowed before any wait. */
  free: number;
  /** Wait after the first failure beyond `free`; doubles with each further one. */
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

export const THROTTLE: Record<FailureScope, DelayRule> = {
  address: { free: 5, firstDelaySeconds: 2, maxDelaySeconds: 60 },
  source: { free: 20, firstDelaySeconds: 2, maxDelaySeconds: 15 * 60 },
};

/** Seconds to wait after `failures` failures (0 within the free ones). */
export function delayAfter(failures: number, rule: DelayRule): number {
  if (failures <= rule.free) return 0;
  const doublings = Math.min(failures - rule.free - 1, 30);
  return Math.min(rule.maxDelaySeconds, rule.firstDelaySeconds * 2 ** doublings);
}

const WAIT = 'Too many failed sign-ins. Please wait a moment and try again.';

/** A try that counts as a failure until the caller says otherwise. */
export interface Try {
  /** The owner got in: the address's failures are forgotten, the source's try given back. */
  succeeded(): Promise<void>;
  /** Neither a failure nor a sign-in (a right password still needing its code, a step-up proved): given back. */
  release(): Promise<void>;
}

/**
 * Reserves a try for `email` from `sourceIp` before the password or code is
 * checked, counted as a failure at once (a conditional write per scope), or
 * refuses (RATE_LIMITED, Retry-After) while a delay earned by earlier
 * failures runs. Checking first and counting after let parallel guesses all
 * pass the same count; reserving first lets through at most the free tries
 * and one more, however many arrive at once.
 */
export async function reserveTry(email: string, sourceIp: string, now: Date): Promise<Try> {
  const address = await reserveFailure('address', email, now, (n) => delayAfter(n, THROTTLE.address));
  if (address.waitSeconds > 0) throw waitFor(address.waitSeconds);
  const source = await reserveFailure('source', sourceIp, now, (n) => delayAfter(n, THROTTLE.source));
  if (source.waitSeconds > 0) {
    await releaseTry('address', email, now);
    throw waitFor(source.waitSeconds);
  }
  return {
    succeeded: async () => {
      await Promise.all([clearFailures('address', email), releaseTry('source', sourceIp, now)]);
    },
    release: async () => {
      await Promise.all([releaseTry('address', email, now), releaseTry('source', sourceIp, now)]);
    },
  };
}

function waitFor(seconds: number): AppError {
  return new AppError('RATE_LIMITED', WAIT, { headers: { 'Retry-After': String(seconds) } });
}
