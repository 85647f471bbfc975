/**
 * Step-up: money-moving manager actions need a factor (authenticator code,
 * recovery code or password) proven within the last few minutes on this very
 * access token: at sign-in, or with POST /auth/stepUp. Without one the server
 * refuses with STEP_UP_REQUIRED; the web app asks for the code and retries.
 *
 * So that a normal flow never sees that refusal (the browser logs it as a
 * failed request), the server also says beforehand when it would give it:
 * GET /me/secondFactor's `stepUpNeeded` (this token has no fresh factor) and
 * the previews' `needsFreshFactor` (this one passes the threshold): deposits,
 * reallocations, and new monthly commitments (POST /invitations/preview for
 * invitations and the setup wizard's, POST /users/{userId}/budget/preview for
 * a raise; services/money/commitments.ts `commitmentNeedsFreshFactor`, the
 * count the actions then ask with). The web app asks for the code first; the
 * checks here stand.
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

/** Whether `requireFreshFactor` lets this actor through now (only managers are ever asked). */
export async function hasFreshFactor(actor: Actor, now: Date): Promise<boolean> {
  if (actor.role !== 'manager') return true;
  const provedAt = actor.tokenId ? await getStepUp(actor.userId, actor.tokenId) : undefined;
  return Boolean(provedAt && now.getTime() - provedAt.getTime() <= FRESH_FACTOR_SECONDS * 1000);
}

export async function requireFreshFactor(actor: Actor, now: Date): Promise<void> {
  if (await hasFreshFactor(actor, now)) return;
  throw new AppError('STEP_UP_REQUIRED', STEP_UP_MESSAGE);
}

/**
 * Whether an amount-dependent action whose `cents` (the day's moves with this
 * one) pass the threshold needs a fresh factor at all, fresh or not.
 */
export function needsFreshFactorAbove(actor: Actor, cents: number): boolean {
  return actor.role === 'manager' && cents > STEP_UP_THRESHOLD_CENTS;
}

/** The same, only when `cents` (the day's moves with this one) pass the threshold. */
export async function requireFreshFactorAbove(actor: Actor, cents: number, now: Date): Promise<void> {
  if (needsFreshFactorAbove(actor, cents)) await requireFreshFactor(actor, now);
}
