/**
 * The second factor: an authenticator app (TOTP, RFC 6238) and ten single-use
 * recovery codes, enforced by our own sign-in route, which after "one door"
 * is the only way to try a password (docs/security.md "Second factor"). The
 * secret stays on the server: it is shown once while enrolling (QR code and
 * manual key) and never again; recovery codes are shown once and stored hashed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@shared/errors';
import type { IdentityProof } from '@shared/schemas/auth';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { isSealed, openSecret, sealSecret } from '../../adapters/factorKey';
import { recordAudit } from '../../data/audit';
import {
  enableTotp,
  getSecondFactor,
  putPendingSecret,
  replaceRecoveryCodes,
  resealTotpSecret,
  spendRecoveryCode,
  spendTotpStep,
} from '../../data/secondFactors';
import type { Actor } from '../../platform/auth';
import { sendFactorChangeEmail } from './accountEmails';
import { BAD_CODE } from './factorMessages';
import { requireIdentityProof } from './identityProof';
import { reserveTry } from './signInThrottle';

export const TOTP_ISSUER = 'Learning Budget';
export const RECOVERY_CODE_COUNT = 10;

const TOTP_PERIOD = 30;
/** One step either side: clocks of phones drift. */
const TOTP_WINDOW = 1;

function totpFor(secret: string, label = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * The TOTP step a code belongs to, or undefined if it matches none near the
 * moment. A code is made by the person's device on the real clock, so it is
 * checked (and its step spent, against replay) by the real clock, not the
 * product's date: the local stack can move that forward (`npm run time`), and a
 * phone's code was then refused. In AWS the two are the same clock.
 */
function matchingStep(secret: string, code: string, realNowMs: number): number | undefined {
  const totp = totpFor(secret);
  const delta = totp.validate({ token: code, timestamp: realNowMs, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return totp.counter({ timestamp: realNowMs }) + delta;
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

/** Case, spaces and dashes do not matter when typing a recovery code. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Ten codes like `k3m9-x2pq-7hwd`: 60 bits each, from an alphabet without look-alikes. */
function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(12);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code.trim());

export async function secondFactorStatus(userId: string) {
  const record = await getSecondFactor(userId);
  return {
    totpEnabled: Boolean(record?.totpSecret),
    recoveryCodesLeft: record?.totpSecret ? (record.recoveryCodeHashes?.length ?? 0) : 0,
  };
}

export async function hasSecondFactor(userId: string): Promise<boolean> {
  return Boolean((await getSecondFactor(userId))?.totpSecret);
}

/**
 * Starts an enrolment. Needs the password or an e-mailed code (identityProof.ts):
 * with the access token alone, whoever stole it could put their own app on the
 * account and lock the owner out.
 */
export async function startTotpEnrolment(actor: Actor, proof: IdentityProof, sourceIp: string, now: Date) {
  if (await hasSecondFactor(actor.userId)) {
    throw new AppError('CONFLICT', 'An authenticator app is already set up for this account.');
  }
  const attempt = await requireIdentityProof(actor, proof, sourceIp, now);
  await attempt.release();
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  // Sealed: only the functions that check codes hold the key (adapters/factorKey.ts).
  await putPendingSecret(actor.userId, await sealSecret(actor.userId, secret));
  const otpauthUri = totpFor(secret, actor.email).toString();
  const qrCode = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 });
  return { secret, otpauthUri, qrCode };
}

/**
 * Confirms an enrolment with the app's first code. A wrong code counts in the
 * sign-in throttle. Not a step-up: the code proves the app was set up, not who
 * set it up. The account is e-mailed and the change audited.
 */
export async function confirmTotpEnrolment(actor: Actor, code: string, sourceIp: string, now: Date) {
  const attempt = await reserveTry(actor.email, sourceIp, now);
  const record = await getSecondFactor(actor.userId);
  if (!record?.pendingSecret) {
    await attempt.release();
    throw new AppError('CONFLICT', 'Start setting up the authenticator app again.');
  }
  const pending = await openSecret(actor.userId, record.pendingSecret);
  const step = isTotpCode(code) ? matchingStep(pending, code.trim(), Date.now()) : undefined;
  if (step === undefined) {
    throw new AppError('VALIDATION_FAILED', 'That code is not valid.', {
      fields: { code: 'That code is not valid. Enter the current code from the app.' },
    });
  }
  await attempt.release();
  const codes = newRecoveryCodes();
  const sealed = isSealed(record.pendingSecret)
    ? record.pendingSecret
    : await sealSecret(actor.userId, record.pendingSecret);
  const hashes = codes.map(hashRecoveryCode);
  if (!(await enableTotp(actor.userId, record.pendingSecret, sealed, hashes, step, now))) {
    throw new AppError('CONFLICT', 'Start setting up the authenticator app again.');
  }
  await factorChanged(actor, 'added', now);
  return { recoveryCodes: codes };
}

/** Tells the account's address and writes the audit log: a change made with a stolen session is seen. */
export async function factorChanged(
  actor: Actor,
  change: 'added' | 'turnedOff' | 'newRecoveryCodes',
  now: Date,
): Promise<void> {
  const action = {
    added: 'account.secondFactorOn',
    turnedOff: 'account.secondFactorOff',
    newRecoveryCodes: 'account.recoveryCodesRenewed',
  } as const;
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: action[change],
    targetId: actor.userId,
    at: now.toISOString(),
  });
  await sendFactorChangeEmail(actor.email, change, now);
}

/**
 * Checks a second-factor code: six digits are a TOTP code (each good once), anything
 * else a recovery code (used up on success). False when it does not match.
 */
export async function verifySecondFactor(
  userId: string,
  code: string,
  realNowMs: number = Date.now(),
): Promise<boolean> {
  const record = await getSecondFactor(userId);
  if (!record?.totpSecret) return false;
  if (isTotpCode(code)) {
    const step = matchingStep(await openSecret(userId, record.totpSecret), code.trim(), realNowMs);
    const spent = step !== undefined && (await spendTotpStep(userId, step));
    // A secret stored before sealing is sealed the first time it is used.
    if (spent && !isSealed(record.totpSecret)) {
      await resealTotpSecret(userId, record.totpSecret, await sealSecret(userId, record.totpSecret));
    }
    return spent;
  }
  return spendRecoveryCode(userId, hashRecoveryCode(code));
}

/** New recovery codes: a current code and the proof beyond the token (a wrong either counts as a failed try). */
export async function regenerateRecoveryCodes(
  actor: Actor,
  input: IdentityProof & { code: string },
  sourceIp: string,
  now: Date,
) {
  if (!(await hasSecondFactor(actor.userId))) {
    throw new AppError('CONFLICT', 'Set up an authenticator app first.');
  }
  const attempt = await requireIdentityProof(actor, input, sourceIp, now);
  if (!(await verifySecondFactor(actor.userId, input.code))) {
    throw new AppError('VALIDATION_FAILED', BAD_CODE, { fields: { code: BAD_CODE } });
  }
  await attempt.release();
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(actor.userId, codes.map(hashRecoveryCode));
  await factorChanged(actor, 'newRecoveryCodes', now);
  return { recoveryCodes: codes };
}
