/**
 * POST /auth/signOut - public: the session cookie itself is the proof (the access
 * token may already have expired). Ends every session of the account and clears
 * the cookie, whatever it held.
 */
import { httpHandler } from '../platform/http';
import { clearedSessionCookie, readSessionCookie } from '../platform/sessionCookie';
import { signOut } from '../services/accounts';

export const handler = httpHandler('signOut', async ({ cookies, setCookie, now }) => {
  setCookie(clearedSessionCookie());
  await signOut(readSessionCookie(cookies), now);
  return { ok: true as const };
});
