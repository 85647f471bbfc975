/**
 * Social sign-in's pure parts (web/src/auth/pkce.ts): the PKCE verifier and
 * S256 challenge against RFC 7636's own example, the hosted UI's addresses,
 * and which returns from it we accept.
 */
import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  base64url,
  checkCallback,
  codeChallenge,
  hostedUiOrigin,
  logoutUrl,
  randomToken,
  readCallback,
  SOCIAL_INCOMPLETE,
} from '../../web/src/auth/pkce';

describe('the PKCE verifier and challenge', () => {
  it('makes a 43-character base64url verifier from 32 random bytes, a new one each time', () => {
    const verifiers = new Set(Array.from({ length: 50 }, () => randomToken(32)));
    expect(verifiers.size).toBe(50);
    for (const verifier of verifiers) expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("gives RFC 7636 appendix B's challenge for its example verifier", async () => {
    await expect(codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('encodes base64url without padding, using - and _ for + and /', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    // RFC 7636 appendix B: these 32 octets are the example verifier.
    const octets = [
      116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214,
      191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ];
    expect(base64url(new Uint8Array(octets))).toBe('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk');
  });
});

describe('the hosted UI addresses', () => {
  it('takes a bare host as https and a full local URL as it is', () => {
    expect(hostedUiOrigin('app.auth.us-east-1.amazoncognito.com')).toBe(
      'https://app.auth.us-east-1.amazoncognito.com',
    );
    expect(hostedUiOrigin('http://127.0.0.1:3010/')).toBe('http://127.0.0.1:3010');
  });

  it('asks /oauth2/authorize for a code with PKCE, straight to the chosen provider', () => {
    const url = new URL(
      authorizeUrl({
        oauthDomain: 'app.auth.us-east-1.amazoncognito.com',
        clientId: 'web-client',
        redirectUri: 'https://app.example.com/auth/callback',
        provider: 'Facebook',
        state: 'state-1',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://app.auth.us-east-1.amazoncognito.com/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'web-client',
      redirect_uri: 'https://app.example.com/auth/callback',
      identity_provider: 'Facebook',
      scope: 'openid email profile',
      state: 'state-1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
  });

  it('signs out of the hosted domain with /logout, returning to the given page', () => {
    const url = new URL(logoutUrl('http://127.0.0.1:3010', 'web-client', 'http://127.0.0.1:3000/login'));
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:3010/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'web-client',
      logout_uri: 'http://127.0.0.1:3000/login',
    });
  });
});

describe('the return from the hosted UI', () => {
  const pending = { verifier: 'v'.repeat(43), state: 'state-1' };

  it('hands over the code with this tab verifier when the state matches', () => {
    expect(checkCallback(readCallback('?code=abc&state=state-1'), pending)).toEqual({
      authorizationCode: 'abc',
      codeVerifier: pending.verifier,
    });
  });

  it.each([
    ['another state', '?code=abc&state=state-2', pending],
    ['no state', '?code=abc', pending],
    ['no sign-in started in this tab', '?code=abc&state=state-1', null],
    ['no code', '?state=state-1', pending],
  ])('refuses %s', (_case, search, stored) => {
    const result = checkCallback(readCallback(search), stored);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toBe(SOCIAL_INCOMPLETE);
  });

  it("shows the hosted UI's reason for a return it started, without Cognito's wrapping", () => {
    const search = `?error=invalid_request&state=state-1&error_description=${encodeURIComponent(
      'PreSignUp failed with error No account uses this email. Ask your manager for an invitation..',
    )}`;
    expect((checkCallback(readCallback(search), pending) as Error).message).toBe(
      'No account uses this email. Ask your manager for an invitation.',
    );
    expect(
      (checkCallback(readCallback('?error=access_denied&state=state-1'), pending) as Error).message,
    ).toBe(SOCIAL_INCOMPLETE);
  });

  it('never shows the words of a return it did not start (a crafted link)', () => {
    const search = '?error=x&error_description=Call+0800+to+unlock+your+account&state=forged';
    expect((checkCallback(readCallback(search), pending) as Error).message).toBe(SOCIAL_INCOMPLETE);
  });
});
