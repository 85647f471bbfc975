/**
 * Accounts: registration, invitation check, sign-in, sessions, e-mail
 * verification and password recovery. Cognito holds the password; our table
 * holds who the person is. Cognito is written first and undone if our
 * transaction fails, so neither side keeps half an account.
 */

import { AppError } from '@shared/errors';
import type {
  inviteManagerInput,
  registerEmployeeInput,
  registerManagerInput,
  resetPasswordInput,
  signInInput,
} from '@shared/schemas/auth';
import type { Role } from '@shared/schemas/me';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import {
  type AppClient,
  createConfirmedUser,
  deleteUser,
  InvalidCredentials,
  loginCreatedAt,
  passwordSignIn,
  refreshTokens,
  revokeRefreshToken,
  setPassword,
  signOutEverywhere,
  UsernameTaken,
} from '../../adapters/cognito';
import {
  AccountConflict,
  createMemberFromInvitation,
  createTeamWithManager,
  deleteSession,
  endAllSessions,
  getEmailOwner,
  getInvitation,
  getTeam,
  InvitationGone,
  InvitationLinkRefused,
  liveSession,
  putSession,
  setUserFields,
} from '../../data/accounts';
import {
  hashToken,
  invitationLinkUse,
  issueEmailToken,
  readInvitationToken,
  redeemEmailToken,
  redeemOnceKeepingTrace,
} from '../../data/emailTokens';
import { putStepUp } from '../../data/secondFactors';
import { getUser, type UserRecord } from '../../data/users';
import { recordWebAccessToken } from '../../data/webAccessTokens';
import { type Actor, tokenIdOf, unverifiedClaims } from '../../platform/auth';
import { FRESH_FACTOR_SECONDS } from '../../platform/freshFactor';
import { errorFields, type Logger } from '../../platform/log';
import type { SessionCookie } from '../../platform/sessionCookie';
import { activateEmployee } from '../billing';
import { sendManagerInvitationEmail, sendPasswordResetEmail, sendVerificationEmail } from './accountEmails';
import { mayEmail } from './emailCaps';
import { BAD_CODE, BAD_PASSWORD, CODE_REQUIRED, PASSWORD_REQUIRED } from './factorMessages';
import { INVITATION_LINK_INVALID } from './invitationLinks';
import { passwordIsRight } from './passwordCheck';
import { meView } from './profiles';
import { hasSecondFactor, verifySecondFactor } from './secondFactor';
import { reserveTry } from './signInThrottle';

export const ALREADY_REGISTERED = 'An account with this email already exists. Please sign in.';
export const BAD_CREDENTIALS = 'Incorrect email or password.';
const LINK_INVALID = 'This link is invalid or has expired. Please request a new one.';

/** A login with no account of ours older than this is debris of a crashed sign-up, safe to replace. */
const ORPHAN_LOGIN_AGE_MS = 5 * 60 * 1000;

/**
 * Creates the Cognito user. If one exists for the e-mail but owns no account of
 * ours, it is either another sign-up in flight (young: refuse) or left over
 * from a crash between the two writes (old: replace it).
 */
async function createLogin(email: string, password: string, now: Date): Promise<string> {
  try {
    return await createConfirmedUser(email, password);
  } catch (error) {
    if (!(error instanceof UsernameTaken)) throw error;
    if (await getEmailOwner(email)) throw new AppError('CONFLICT', ALREADY_REGISTERED);
    const createdAt = await loginCreatedAt(email);
    if (createdAt && now.getTime() - createdAt.getTime() < ORPHAN_LOGIN_AGE_MS) {
      throw new AppError(
        'CONFLICT',
        'A sign-up for this email is already in progress. Please try again in a few minutes.',
      );
    }
    await deleteUser(email);
    return createConfirmedUser(email, password);
  }
}

async function sendVerification(user: Pick<UserRecord, 'userId' | 'email' | 'firstName'>, now: Date) {
  if (!(await mayEmail('verification', user.email, now))) return;
  const token = await issueEmailToken('verifyEmail', user.userId, now);
  await sendVerificationEmail(user.email, user.firstName, token);
}

export async function registerManager(input: z.output<typeof registerManagerInput>, now: Date) {
  if (await getEmailOwner(input.email)) throw new AppError('CONFLICT', ALREADY_REGISTERED);
  const userId = await createLogin(input.email, input.password, now);
  const createdAt = now.toISOString();
  const teamId = newId(now);
  try {
    await createTeamWithManager(
      { teamId, name: input.company, managerId: userId, createdAt, status: 'setup' },
      {
        userId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        role: 'manager',
        teamId,
        status: 'active',
        emailVerified: false,
        finishedWalkthrough: false,
        createdAt,
      },
    );
  } catch (error) {
    await deleteUser(input.email);
    if (error instanceof AccountConflict) throw new AppError('CONFLICT', ALREADY_REGISTERED);
    throw error;
  }
  await sendVerification({ userId, email: input.email, firstName: input.firstName }, now);
  return { userId, role: 'manager' as const };
}

export const NO_INVITATION = 'Sorry! No one invited you';

/** The invitation link is not (or no longer) one that can be used: the page offers a new one. */
function linkRefused() {
  return new AppError('NOT_FOUND', INVITATION_LINK_INVALID, { fields: { token: INVITATION_LINK_INVALID } });
}

/**
 * Employee sign-up: needs the link e-mailed with a live invitation for exactly
 * this e-mail (invitationLinks.ts), so knowing an invited address is not
 * enough. The member is created active on the inviting manager's team, and the
 * invitation consumed and the link used in the same transaction; one withdrawn
 * or sent again between the read and that transaction refuses the sign-up.
 * Who holds a live link is the address's reader, so only they learn that the
 * invitation was withdrawn or already used. No money moves yet: the joining
 * charge, the card and its funding wait until the address is verified
 * (verifyEmail), so nobody is charged for, or handed a funded card by, a
 * sign-up whose address nobody has proven to read.
 */
export async function registerEmployee(
  input: z.output<typeof registerEmployeeInput>,
  now: Date,
  log: Logger,
) {
  const link = await readInvitationToken(input.token, now);
  if (!link || link.email !== input.email) throw linkRefused();
  if (link.usedAt) throw new AppError('CONFLICT', ALREADY_REGISTERED);
  const invitation = await getInvitation(input.email, true);
  if (!invitation) {
    if (await getEmailOwner(input.email)) throw new AppError('CONFLICT', ALREADY_REGISTERED);
    throw new AppError('NOT_FOUND', NO_INVITATION);
  }
  // Invited again since this link was sent (a new budget, or another team's): only the newer link works.
  if (invitation.teamId !== link.teamId || invitation.invitedAt !== link.invitedAt) throw linkRefused();
  const userId = await createLogin(input.email, input.password, now);
  const createdAt = now.toISOString();
  try {
    await createMemberFromInvitation(
      invitation,
      {
        userId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        role: 'employee',
        teamId: invitation.teamId,
        status: 'active',
        emailVerified: false,
        finishedWalkthrough: false,
        createdAt,
        zip: input.zip,
        budgetCents: invitation.budgetCents,
        nextBudgetCents: invitation.budgetCents,
      },
      invitationLinkUse(input.token, now),
    );
  } catch (error) {
    await deleteUser(input.email);
    if (error instanceof AccountConflict) throw new AppError('CONFLICT', ALREADY_REGISTERED);
    // Withdrawn by the manager while this sign-up was under way: no member without an invitation.
    // Sent again meanwhile: the newer link is the one that works.
    if (error instanceof InvitationGone)
      throw (await getInvitation(input.email, true))
        ? linkRefused()
        : new AppError('NOT_FOUND', NO_INVITATION);
    if (error instanceof InvitationLinkRefused) throw linkRefused();
    throw error;
  }
  await sendVerification({ userId, email: input.email, firstName: input.firstName }, now);
  log.info('member joined; funding waits for the e-mail to be verified', { userId });
  return { userId, role: 'employee' as const };
}

/**
 * A member who has just verified their address is charged, issued their card
 * and funded. A provider outage must not undo the verification: the member
 * stays pending (activateEmployee marks them before charging; this covers a
 * failure before that mark) and is funded by the daily job, a card change or
 * setup.
 */
async function activateVerifiedMember(user: UserRecord, now: Date, log: Logger) {
  if (user.role !== 'employee' || user.status !== 'active') return;
  try {
    await activateEmployee(user.userId, now, log);
  } catch (error) {
    log.error('activation failed; member left pending', { userId: user.userId, ...errorFields(error) });
    await setUserFields(user.userId, { fundingPending: true });
  }
}

export async function inviteManager(input: z.output<typeof inviteManagerInput>, now: Date) {
  // Never say whether the manager already has an account; just send the fixed text,
  // at most EMAIL_CAPS.managerInvitation times a day to one address (answered the same).
  if (!(await mayEmail('managerInvitation', input.managerEmail, now))) return;
  await sendManagerInvitationEmail(input.managerEmail, input.fromName);
}

/** A web-client access token we hand out is written down, so only ours are honoured (platform/auth.ts). */
async function recordIssued(userId: string, tokens: { accessToken: string; expiresIn: number }, now: Date) {
  const claims = unverifiedClaims(tokens.accessToken);
  const expiresAt =
    typeof claims.exp === 'number' ? claims.exp : Math.floor(now.getTime() / 1000) + tokens.expiresIn;
  await recordWebAccessToken(userId, tokenIdOf(claims), expiresAt);
}

/**
 * Records a session just signed in (password, or social through the hosted UI:
 * `issuedTo` is the client whose refresh token it is) and counts the sign-in
 * as a fresh factor for its access token.
 */
export async function startSession(
  user: UserRecord,
  tokens: { accessToken: string; refreshToken: string; expiresIn: number },
  now: Date,
  issuedTo: AppClient = 'server',
) {
  await putSession(user.userId, hashToken(tokens.refreshToken), now, issuedTo);
  if (issuedTo === 'web') await recordIssued(user.userId, tokens, now);
  // Signing in proves a factor: money-moving actions need no second prompt for a few minutes.
  const tokenId = tokenIdOf(unverifiedClaims(tokens.accessToken));
  await putStepUp(user.userId, tokenId, now, FRESH_FACTOR_SECONDS);
  return { ...tokens, userId: user.userId, role: user.role as Role };
}

/**
 * The only door to a password sign-in. Failures (unknown address, wrong
 * password, wrong code) earn growing delays per address and per source
 * (signInThrottle.ts); successes cost nothing. An account with an
 * authenticator app needs its code too: asked only once the password is right,
 * so the question reveals nothing to someone without it.
 */
export async function signIn(input: z.output<typeof signInInput>, sourceIp: string, now: Date, log: Logger) {
  // Counted as a failure from here until proved otherwise.
  const attempt = await reserveTry(input.email, sourceIp, now);
  const userId = await getEmailOwner(input.email);
  const user = userId ? await getUser(userId) : undefined;
  // Unknown, deleted and wrong-password all read the same: nothing to learn by probing.
  if (!user || user.status === 'deleted') {
    log.info('sign-in refused', { reason: user ? 'deleted' : 'unknown' });
    throw new AppError('UNAUTHENTICATED', BAD_CREDENTIALS);
  }
  let tokens: Awaited<ReturnType<typeof passwordSignIn>>;
  try {
    tokens = await passwordSignIn(input.email, input.password);
  } catch (error) {
    if (error instanceof InvalidCredentials) throw new AppError('UNAUTHENTICATED', BAD_CREDENTIALS);
    throw error;
  }
  if (await hasSecondFactor(user.userId)) {
    const code = input.code?.trim();
    if (!code || !(await verifySecondFactor(user.userId, code))) {
      // The tokens Cognito just issued are never handed out: end them at once.
      await revokeRefreshToken(tokens.refreshToken);
      if (!code) {
        // The password was right: asking for the code is no failure.
        await attempt.release();
        throw new AppError('MFA_REQUIRED', CODE_REQUIRED);
      }
      log.info('sign-in refused', { reason: 'second factor' });
      throw new AppError('UNAUTHENTICATED', BAD_CODE, { fields: { code: BAD_CODE } });
    }
  }
  await attempt.succeeded();
  await setUserFields(user.userId, { lastLogin: now.toISOString() });
  return startSession(user, tokens, now);
}

/**
 * Proves a fresh factor for the caller's access token: the authenticator (or a
 * recovery) code when the account has one, otherwise the password. Failures
 * count towards the sign-in throttle, so this is no side door for guessing.
 */
export async function stepUp(
  actor: Actor,
  input: { code?: string; password?: string },
  sourceIp: string,
  now: Date,
) {
  const attempt = await reserveTry(actor.email, sourceIp, now);
  let proved = false;
  if (await hasSecondFactor(actor.userId)) {
    if (!input.code) {
      await attempt.release();
      throw new AppError('VALIDATION_FAILED', CODE_REQUIRED, { fields: { code: CODE_REQUIRED } });
    }
    proved = await verifySecondFactor(actor.userId, input.code);
  } else {
    if (!input.password) {
      await attempt.release();
      throw new AppError('VALIDATION_FAILED', PASSWORD_REQUIRED, { fields: { password: PASSWORD_REQUIRED } });
    }
    proved = await passwordIsRight(actor.email, input.password);
  }
  if (!proved) {
    // The same words as sign-in's for a wrong code; a password has its own.
    if (input.code) throw new AppError('VALIDATION_FAILED', BAD_CODE, { fields: { code: BAD_CODE } });
    throw new AppError('VALIDATION_FAILED', BAD_PASSWORD, { fields: { password: BAD_PASSWORD } });
  }
  await attempt.release();
  if (actor.tokenId) await putStepUp(actor.userId, actor.tokenId, now, FRESH_FACTOR_SECONDS);
}

/**
 * A new access token for the session the cookie names (`session`: its user id
 * and refresh token; undefined when the request had no cookie), with GET /me's
 * answer for its holder: a reload of the app then restores the session in one
 * round trip rather than two (refresh, then /me). Nothing more is disclosed
 * than the access token in the same answer already opens.
 */
export async function refreshSession(session: SessionCookie | undefined, now: Date) {
  const refused = new AppError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.');
  if (!session) throw refused;
  const user = await getUser(session.userId);
  if (!user || user.status === 'deleted') throw refused;
  const live = await liveSession(user.userId, hashToken(session.refreshToken), now);
  if (!live) throw refused;
  const { signedInAt, issuedTo } = live;
  try {
    const [tokens, team] = await Promise.all([
      refreshTokens(user.userId, session.refreshToken, issuedTo),
      getTeam(user.teamId),
    ]);
    if (issuedTo === 'web') await recordIssued(user.userId, tokens, now);
    // With rotation on, Cognito hands out a new refresh token: it continues the same session.
    if (tokens.refreshToken !== session.refreshToken) {
      await putSession(user.userId, hashToken(tokens.refreshToken), signedInAt, issuedTo);
      // The old token is spent: it must not count as a live session any more.
      await deleteSession(user.userId, hashToken(session.refreshToken));
    }
    // The sign-in's factor stays as fresh as it was: a new token (a reload) is not a new proof,
    // nor does it lose one proven a minute ago.
    const leftSeconds = FRESH_FACTOR_SECONDS - (now.getTime() - signedInAt.getTime()) / 1000;
    if (leftSeconds > 0) {
      const tokenId = tokenIdOf(unverifiedClaims(tokens.accessToken));
      await putStepUp(user.userId, tokenId, signedInAt, FRESH_FACTOR_SECONDS);
    }
    return { ...tokens, userId: user.userId, role: user.role as Role, me: meView(user, team) };
  } catch (error) {
    if (error instanceof InvalidCredentials) throw refused;
    throw error;
  }
}

/**
 * Signing out ends every session of the account (decisions.md "Sessions"): all
 * refresh tokens stop working, here and at Cognito, and access tokens issued
 * before now are refused. Only the holder of a live session may do this, so
 * a stranger cannot sign someone out.
 */
export async function signOut(session: SessionCookie | undefined, now: Date) {
  if (!session) return;
  const { userId } = session;
  const user = await getUser(userId);
  const live = user ? await liveSession(userId, hashToken(session.refreshToken), now) : undefined;
  if (!user || !live) {
    // Not one of our sessions: best effort only (it may even be another client's token, which
    // Cognito would refuse in its own words); the answer and the cleared cookie are the same.
    await revokeRefreshToken(session.refreshToken).catch(() => undefined);
    return;
  }
  // Our records first: they alone decide whether a refresh or an access token
  // is honoured, so the sessions are over even if a Cognito call below fails.
  await endAllSessions(userId);
  await revokeRefreshToken(session.refreshToken, live.issuedTo);
  await signOutEverywhere(user.email);
}

/**
 * Redeems the verification link. Opened again (a second click, another device)
 * while the address is verified, it answers `alreadyVerified` rather than
 * "invalid": the token is secret to the e-mail's reader, so this tells nobody
 * else anything; an unknown, expired or other link gets the same LINK_INVALID.
 */
export async function verifyEmail(token: string, now: Date, log: Logger) {
  const redemption = await redeemOnceKeepingTrace('verifyEmail', token, now);
  const user = redemption ? await getUser(redemption.userId) : undefined;
  if (!redemption || !user || user.status === 'deleted') throw new AppError('NOT_FOUND', LINK_INVALID);
  if (redemption.kind === 'again') {
    if (!user.emailVerified) throw new AppError('NOT_FOUND', LINK_INVALID);
    return { role: user.role, alreadyVerified: true };
  }
  await setUserFields(user.userId, { emailVerified: true, emailVerifiedAt: now.toISOString() });
  // A member's joining waited for this (registerEmployee).
  await activateVerifiedMember({ ...user, emailVerified: true }, now, log);
  return { role: user.role, alreadyVerified: false };
}

export async function resendVerification(userId: string, now: Date) {
  const user = await getUser(userId);
  if (!user) throw new AppError('NOT_FOUND', 'No such user.');
  if (user.emailVerified) throw new AppError('CONFLICT', 'Your email address is already verified.');
  await sendVerification(user, now);
}

/** Always answers the same, whether or not the address has an account. */
export async function forgotPassword(email: string, now: Date) {
  const userId = await getEmailOwner(email);
  const user = userId ? await getUser(userId) : undefined;
  if (!user || user.status === 'deleted') return;
  if (!(await mayEmail('passwordReset', user.email, now))) return;
  const token = await issueEmailToken('resetPassword', user.userId, now);
  // Only the newest link works: an older one left in a mailbox is no way in.
  await setUserFields(user.userId, { resetLinksValidAfter: now.toISOString() });
  await sendPasswordResetEmail(user.email, token);
}

export async function resetPassword(input: z.output<typeof resetPasswordInput>, now: Date) {
  const link = await redeemEmailToken('resetPassword', input.token, now);
  const user = link ? await getUser(link.userId) : undefined;
  if (!link || !user || user.status === 'deleted' || link.createdAt < (user.resetLinksValidAfter ?? ''))
    throw new AppError('NOT_FOUND', LINK_INVALID);
  await setPassword(user.email, input.password);
  await setUserFields(user.userId, { resetLinksValidAfter: now.toISOString() });
  // Every other session ends: refresh tokens are revoked and older access tokens refused.
  await signOutEverywhere(user.email);
  await endAllSessions(user.userId);
}
