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
 * address's count.
 */
import { AppError } from '@shared/errors';
import { addFailure, clearFailures, type FailureScope, getFailures } from '../../data/signInFailures';

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

/** Refuses (RATE_LIMITED, Retry-After) while a delay earned by earlier failures runs. */
export async function assertMayTry(email: string, sourceIp: string, now: Date): Promise<void> {
  const scopes: [FailureScope, string][] = [
    ['address', email],
    ['source', sourceIp],
  ];
  let wait = 0;
  for (const [scope, id] of scopes) {
    const count = await getFailures(scope, id);
    if (!count) continue;
    const readyAt = count.lastFailureAt.getTime() + delayAfter(count.failures, THROTTLE[scope]) * 1000;
    wait = Math.max(wait, Math.ceil((readyAt - now.getTime()) / 1000));
  }
  if (wait > 0) throw new AppError('RATE_LIMITED', WAIT, { headers: { 'Retry-After': String(wait) } });
}

export async function recordFailure(email: string, sourceIp: string, now: Date): Promise<void> {
  await Promise.all([addFailure('address', email, now), addFailure('source', sourceIp, now)]);
}

export async function recordSuccess(email: string): Promise<void> {
  await clearFailures('address', email);
}
