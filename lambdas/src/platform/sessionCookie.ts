/**
 * The session cookie: where a password session's refresh token lives
 * (docs/security.md "Sessions", docs/decisions.md "The session cookie").
 *
 * - HttpOnly: no script on the page can read it, so an injected script cannot
 *   carry the session away (it could only act while the page is open).
 * - Secure, SameSite=Strict: sent over HTTPS only (and http://127.0.0.1, which
 *   browsers count as secure), and never with a request another site starts.
 * - Path=/api/auth: the browser sends it to our auth routes only (refresh and
 *   sign-out read it), not with every page, asset and API call. The `__Secure-`
 *   prefix makes the browser refuse it unless set Secure by an HTTPS (or
 *   loopback) answer; `__Host-` would also forbid a Domain but demands Path=/.
 * - Max-Age: the refresh token's own validity (the user pool client's setting).
 *
 * Its value is `<userId>:<refresh token>`: the user id (Cognito's sub) is what
 * a refresh's SECRET_HASH and our session record are keyed by; it is no secret,
 * and a value with someone else's id names no session (the record is found by
 * id and the token's hash together).
 */

export const SESSION_COOKIE_NAME = '__Secure-lb_session';
/** The browser's path (the API is under /api on the web origin, in AWS and locally). */
export const SESSION_COOKIE_PATH = '/api/auth';
/** The user pool client's refresh-token validity (infra/lib/statefulStack.ts) and our session record's life. */
export const REFRESH_TOKEN_VALIDITY_DAYS = 30;
export const REFRESH_TOKEN_VALIDITY_SECONDS = REFRESH_TOKEN_VALIDITY_DAYS * 24 * 3600;

export interface SessionCookie {
  userId: string;
  refreshToken: string;
}

const ATTRIBUTES = `Path=${SESSION_COOKIE_PATH}; Secure; HttpOnly; SameSite=Strict`;

/** Cookie values may not hold spaces, quotes, commas, semicolons or backslashes (RFC 6265 cookie-octet). */
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+$/;

/** The Set-Cookie value that starts (or renews) a session. */
export function sessionCookie(session: SessionCookie): string {
  const value = `${session.userId}:${session.refreshToken}`;
  // Cognito's ids and tokens are base64url and dots; anything else would break the header.
  if (!COOKIE_OCTETS.test(value)) throw new Error('session cookie value has characters a cookie cannot hold');
  return `${SESSION_COOKIE_NAME}=${value}; ${ATTRIBUTES}; Max-Age=${REFRESH_TOKEN_VALIDITY_SECONDS}`;
}

/** The Set-Cookie value that makes the browser forget the session. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE_NAME}=; ${ATTRIBUTES}; Max-Age=0`;
}

/** Cognito's `sub`, which our user ids are. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The session named by the request's cookies (API Gateway payload v2's
 * `cookies`: one `name=value` per entry), or undefined when there is none or it
 * is malformed. Two cookies of our name mean someone else set one (a sibling
 * domain can, with a narrower path, and the browser would list it first): then
 * neither counts, so nobody can slip their session under ours.
 */
export function readSessionCookie(cookies: readonly string[] | undefined): SessionCookie | undefined {
  const prefix = `${SESSION_COOKIE_NAME}=`;
  const entries = (cookies ?? []).filter((cookie) => cookie.startsWith(prefix));
  if (entries.length !== 1) return undefined;
  const value = (entries[0] as string).slice(prefix.length);
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1 || value.length > 8192) return undefined;
  const userId = value.slice(0, colon);
  if (!USER_ID.test(userId)) return undefined;
  return { userId, refreshToken: value.slice(colon + 1) };
}

/**
 * A social sign-in waiting for its authenticator code (data/pendingSocialSignIns.ts):
 * a random challenge, HttpOnly like the session cookie and on the same path,
 * living only as long as the wait may. Only the SHA-256 of it is stored.
 */
export const PENDING_SOCIAL_COOKIE_NAME = '__Secure-lb_social_pending';
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function pendingSocialCookie(challenge: string, maxAgeSeconds: number): string {
  if (!CHALLENGE.test(challenge))
    throw new Error('a pending sign-in challenge is 32 random bytes, base64url');
  return `${PENDING_SOCIAL_COOKIE_NAME}=${challenge}; ${ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
}

export function clearedPendingSocialCookie(): string {
  return `${PENDING_SOCIAL_COOKIE_NAME}=; ${ATTRIBUTES}; Max-Age=0`;
}

/** The waiting sign-in's challenge, or undefined (none, malformed, or two: see readSessionCookie). */
export function readPendingSocialCookie(cookies: readonly string[] | undefined): string | undefined {
  const prefix = `${PENDING_SOCIAL_COOKIE_NAME}=`;
  const entries = (cookies ?? []).filter((cookie) => cookie.startsWith(prefix));
  if (entries.length !== 1) return undefined;
  const value = (entries[0] as string).slice(prefix.length);
  return CHALLENGE.test(value) ? value : undefined;
}
