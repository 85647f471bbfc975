/**
 * Changing the password while signed in (/editProfile). The current password
 * is the proof, checked as a sign-in would (a wrong one counts towards the
 * sign-in throttle, so this is no side door for guessing; the tokens the check
 * makes are revoked at once). Then the new password is set, the change is
 * audited, and every other session ends: whoever holds one may be why the
 * password changes. The caller's own session (the cookie's) is spared, as on
 * turning the authenticator off; its access token is cut off with the others
 * and the app refreshes it.
 */
import { AppError } from '@shared/errors';
import { CURRENT_PASSWORD_WRONG } from '@shared/schemas/auth';
import { setPassword } from '../../adapters/cognito';
import { setUserFields } from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import type { Actor } from '../../platform/auth';
import type { SessionCookie } from '../../platform/sessionCookie';
import { endOtherSessions } from './otherSessions';
import { passwordIsRight } from './passwordCheck';
import { reserveTry } from './signInThrottle';

export async function changePassword(
  actor: Actor,
  input: { currentPassword: string; password: string },
  session: SessionCookie | undefined,
  sourceIp: string,
  now: Date,
): Promise<{ ok: true }> {
  const attempt = await reserveTry(actor.email, sourceIp, now);
  if (!(await passwordIsRight(actor.email, input.currentPassword))) {
    throw new AppError('VALIDATION_FAILED', CURRENT_PASSWORD_WRONG, {
      fields: { currentPassword: CURRENT_PASSWORD_WRONG },
    });
  }
  await attempt.release();
  await setPassword(actor.email, input.password);
  // A reset link e-mailed before the change would undo it: it no longer works.
  await setUserFields(actor.userId, { resetLinksValidAfter: now.toISOString() });
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'account.passwordChanged',
    targetId: actor.userId,
    at: now.toISOString(),
  });
  await endOtherSessions(actor, session);
  return { ok: true };
}
