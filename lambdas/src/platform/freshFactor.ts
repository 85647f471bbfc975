/**
 * Step-up: money-moving manager actions need a factor (authenticator code,
 * recovery code or password) proven within the last few minutes on this very
 * access token: at sign-in, or with POST /auth/stepUp. Without one the server
 * refuses with STEP_UP_REQUIRED; the web app asks for the code and retries.
 */
import { AppError } from '@shared/errors';
import { getStepUp } from '../data/secondFactors';
import type { Actor } from './auth';

/** A factor proven this recently counts as fresh. */
export const FRESH_FACTOR_SECONDS = 5 * 60;
/**
 * Deposits, reallocations and new monthly commitments (invited budgets, budget
 * raises) that take the team's day past this ask for a fresh factor.
 */
export const STEP_UP_THRESHOLD_CENTS = 500_00;

export const STEP_UP_MESSAGE =
  'Please confirm it is you: enter the code from your authenticator app (or your password).';

export async function requireFreshFactor(actor: Actor, now: Date): Promise<void> {
  if (actor.role !== 'manager') return;
  const provedAt = actor.tokenId ? await getStepUp(actor.userId, actor.tokenId) : undefined;
  if (provedAt && now.getTime() - provedAt.getTime() <= FRESH_FACTOR_SECONDS * 1000) return;
  throw new AppError('STEP_UP_REQUIRED', STEP_UP_MESSAGE);
}

/** The same, only when `cents` (the day's moves with this one) pass the threshold. */
export async function requireFreshFactorAbove(actor: Actor, cents: number, now: Date): Promise<void> {
  if (cents > STEP_UP_THRESHOLD_CENTS) await requireFreshFactor(actor, now);
}
