/**
 * Proof beyond the access token (issue 24, attack 1): an access token can be
 * stolen (an injected script, a leak), and with it alone nobody may add, turn
 * off or renew a second factor. Those changes take the password, or for an
 * account without one (made by social sign-in) a code e-mailed to the
 * account's verified address. The check is a try in the sign-in throttle, so
 * a wrong password or code here counts as at sign-in.
 */
import { randomInt } from 'node:crypto';
import { AppError } from '@shared/errors';
import type { IdentityProof } from '@shared/schemas/auth';
import { hashToken } from '../../data/emailTokens';
import { putIdentityCode, spendIdentityCode } from '../../data/identityCodes';
import type { Actor } from '../../platform/auth';
import { sendIdentityCodeEmail } from './accountEmails';
import { mayEmail } from './emailCaps';
import { BAD_PASSWORD, PASSWORD_REQUIRED } from './factorMessages';
import { passwordIsRight } from './passwordCheck';
import { reserveTry, type Try } from './signInThrottle';

export const IDENTITY_CODE_MINUTES = 15;
export const BAD_EMAIL_CODE = 'That code is not right or has expired. Send a new one and enter the newest.';
export const VERIFY_FIRST = 'Verify your email address first: the code is sent only to a verified address.';

/** E-mails a new 8-digit code (the one before stops working); capped per address per day like every e-mail. */
export async function sendIdentityCode(actor: Actor, now: Date): Promise<{ ok: true }> {
  if (!actor.emailVerified) throw new AppError('CONFLICT', VERIFY_FIRST);
  // Over the daily cap nothing is sent, and the answer is the same: the owner sees no e-mail arrive.
  if (!(await mayEmail('identityCode', actor.email, now))) return { ok: true };
  const code = String(randomInt(0, 100_000_000)).padStart(8, '0');
  await putIdentityCode(actor.userId, hashToken(code), now, IDENTITY_CODE_MINUTES * 60);
  await sendIdentityCodeEmail(actor.email, code, IDENTITY_CODE_MINUTES);
  return { ok: true };
}

async function proofHolds(actor: Actor, proof: IdentityProof, now: Date): Promise<boolean> {
  if (proof.emailCode) return spendIdentityCode(actor.userId, hashToken(proof.emailCode), now);
  return passwordIsRight(actor.email, proof.password ?? '');
}

/**
 * Reserves a throttle try and checks the proof; a wrong one stays counted and
 * is refused in words for its field. Answers the try: the caller checks what
 * else it needs (an authenticator code) and releases it only when all held.
 */
export async function requireIdentityProof(
  actor: Actor,
  proof: IdentityProof,
  sourceIp: string,
  now: Date,
): Promise<Try> {
  if (!proof.password && !proof.emailCode) {
    throw new AppError('VALIDATION_FAILED', PASSWORD_REQUIRED, { fields: { password: PASSWORD_REQUIRED } });
  }
  const attempt = await reserveTry(actor.email, sourceIp, now);
  if (!(await proofHolds(actor, proof, now))) {
    if (proof.emailCode)
      throw new AppError('VALIDATION_FAILED', BAD_EMAIL_CODE, { fields: { emailCode: BAD_EMAIL_CODE } });
    throw new AppError('VALIDATION_FAILED', BAD_PASSWORD, { fields: { password: BAD_PASSWORD } });
  }
  return attempt;
}
