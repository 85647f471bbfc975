/**
 * After a change to how an account signs in (a new password, the authenticator
 * turned off), every session but the caller's ends: whoever holds another may
 * be why it changed. The caller's session is the one its cookie names; a
 * cookie naming someone else spares nothing of this account. Its access token
 * is cut off with the others and the app refreshes it.
 */
import { endAllSessions } from '../../data/accounts';
import { hashToken } from '../../data/emailTokens';
import type { Actor } from '../../platform/auth';
import type { SessionCookie } from '../../platform/sessionCookie';

export async function endOtherSessions(actor: Actor, session: SessionCookie | undefined): Promise<void> {
  const own = session?.userId === actor.userId ? hashToken(session.refreshToken) : undefined;
  await endAllSessions(actor.userId, Date.now(), own);
}
