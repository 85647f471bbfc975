/**
 * Cognito's hosted UI token endpoint (social sign-in). The browser starts the
 * authorization-code flow with PKCE and comes back with a code; this API, not
 * the browser, trades the code and the verifier for tokens, so no script ever
 * holds a refresh token (docs/security.md "Sessions"). The web client is
 * public (no secret): PKCE's verifier is what binds the code to the browser
 * that asked for it. A plain HTTPS call: it needs no IAM right.
 */
import { socialSignInConfig } from '../platform/config';
import type { Tokens } from './cognito';

/**
 * The hosted UI refused the code: `invalid_grant` (unknown, used, expired, or
 * the verifier does not match) is the visitor's; any other `error`
 * (`invalid_client`, `unauthorized_client`, a redirect URI mismatch) means our
 * configuration is wrong, and is logged as such by the caller.
 */
export class CodeRefused extends Error {
  constructor(readonly reason: string) {
    super(`the hosted UI refused the code: ${reason}`);
  }

  get ours(): boolean {
    return this.reason !== 'invalid_grant';
  }
}

const TIMEOUT_MS = 5_000;

export async function exchangeAuthorizationCode(code: string, codeVerifier: string): Promise<Tokens> {
  const { COGNITO_OAUTH_URL, OAUTH_REDIRECT_URL, COGNITO_WEB_CLIENT_ID } = socialSignInConfig();
  const response = await fetch(`${COGNITO_OAUTH_URL.replace(/\/+$/, '')}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: COGNITO_WEB_CLIENT_ID,
      code,
      redirect_uri: OAUTH_REDIRECT_URL,
      code_verifier: codeVerifier,
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  // RFC 6749 §5.2: a refused grant is a 400 (invalid_grant and friends); anything else is the endpoint failing.
  if (response.status === 400 || response.status === 401) {
    const refusal = (await response.json().catch(() => ({}))) as { error?: unknown };
    throw new CodeRefused(typeof refusal.error === 'string' ? refusal.error.slice(0, 64) : 'unknown');
  }
  if (!response.ok) throw new Error(`The hosted UI's token endpoint answered ${response.status}`);
  const body = (await response.json()) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
  };
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string') {
    throw new Error("The hosted UI's token endpoint answered without tokens");
  }
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresIn: typeof body.expires_in === 'number' ? body.expires_in : 3600,
  };
}
