/**
 * Turning the authenticator app off (docs/security.md "Second factor"): it
 * takes a current code or an unused recovery code and the password (or an
 * e-mailed code: identityProof.ts), checked like a step-up (a wrong one counts
 * towards the sign-in throttle, so this is no side door for guessing), removes
 * the secret and the recovery codes, is audited and e-mailed, and ends every
 * other session of the account: whoever holds one may have been the reason to
 * turn it off. The caller's own session (the cookie's) is
 * spared; its access token is cut off with the others and the app refreshes it.
 */
import { AppError } from '@shared/errors';
import type { IdentityProof } from '@shared/schemas/auth';
import { turnOffTotp } from '../../data/secondFactors';
import type { Actor } from '../../platform/auth';
import type { SessionCookie } from '../../platform/sessionCookie';
import { BAD_CODE } from './factorMessages';
import { requireIdentityProof } from './identityProof';
import { endOtherSessions } from './otherSessions';
import { factorChanged, hasSecondFactor, verifySecondFactor } from './secondFactor';

export async function turnOffSecondFactor(
  actor: Actor,
  input: IdentityProof & { code: string },
  session: SessionCookie | undefined,
  sourceIp: string,
  now: Date,
): Promise<{ ok: true }> {
  if (!(await hasSecondFactor(actor.userId))) {
    throw new AppError('CONFLICT', 'Two-step sign-in is already off for this account.');
  }
  const attempt = await requireIdentityProof(actor, input, sourceIp, now);
  if (!(await verifySecondFactor(actor.userId, input.code))) {
    throw new AppError('VALIDATION_FAILED', BAD_CODE, { fields: { code: BAD_CODE } });
  }
  await attempt.release();
  if (!(await turnOffTotp(actor.userId)))
    throw new AppError('CONFLICT', 'Two-step sign-in is already off for this account.');
  await factorChanged(actor, 'turnedOff', now);
  await endOtherSessions(actor, session);
  return { ok: true };
}
