/**
 * Turning the authenticator app off (docs/security.md "Second factor"): it
 * takes a current code or an unused recovery code, checked here like a
 * step-up (a wrong one counts towards the sign-in throttle, so this is no side
 * door for guessing), removes the secret and the recovery codes, is audited,
 * and ends every other session of the account: whoever holds one may have
 * been the reason to turn it off. The caller's own session (the cookie's) is
 * spared; its access token is cut off with the others and the app refreshes it.
 */
import { AppError } from '@shared/errors';
import { recordAudit } from '../../data/audit';
import { turnOffTotp } from '../../data/secondFactors';
import type { Actor } from '../../platform/auth';
import type { SessionCookie } from '../../platform/sessionCookie';
import { BAD_CODE } from './factorMessages';
import { endOtherSessions } from './otherSessions';
import { hasSecondFactor, verifySecondFactor } from './secondFactor';
import { reserveTry } from './signInThrottle';

export async function turnOffSecondFactor(
  actor: Actor,
  code: string,
  session: SessionCookie | undefined,
  sourceIp: string,
  now: Date,
): Promise<{ ok: true }> {
  const attempt = await reserveTry(actor.email, sourceIp, now);
  if (!(await hasSecondFactor(actor.userId))) {
    await attempt.release();
    throw new AppError('CONFLICT', 'Two-step sign-in is already off for this account.');
  }
  if (!(await verifySecondFactor(actor.userId, code))) {
    throw new AppError('VALIDATION_FAILED', BAD_CODE, { fields: { code: BAD_CODE } });
  }
  await attempt.release();
  if (!(await turnOffTotp(actor.userId)))
    throw new AppError('CONFLICT', 'Two-step sign-in is already off for this account.');
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'account.secondFactorOff',
    targetId: actor.userId,
    at: now.toISOString(),
  });
  await endOtherSessions(actor, session);
  return { ok: true };
}
