/**
 * Social sign-in's return to our API (POST /auth/social; docs/security.md
 * "Sessions"). The browser's part is played here: it makes a PKCE verifier,
 * visits the hosted UI (a stand-in, since cognito-local has none: see
 * test/support/hostedUiStandIn.ts) and brings the code back; the API trades it
 * for real cognito-local tokens of the web client and starts one of our
 * sessions: the refresh token in the HttpOnly cookie, never in a body.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { endAllSessions } from '../../lambdas/src/data/accounts';
import { hashToken } from '../../lambdas/src/data/emailTokens';
import { keys } from '../../lambdas/src/data/keys';
import { unverifiedClaims } from '../../lambdas/src/platform/auth';
import { PENDING_SOCIAL_COOKIE_NAME, SESSION_COOKIE_NAME } from '../../lambdas/src/platform/sessionCookie';
import {
  BAD_CODE,
  CODE_REQUIRED,
  SOCIAL_SIGN_IN_EXPIRED,
  SOCIAL_SIGN_IN_FAILED,
  SOCIAL_SIGN_IN_OFF,
} from '../../lambdas/src/services/accounts';
import { api, PASSWORD, registerManager, type SignedIn, withSessionCookie } from '../support/accountFlows';
import { codeFor, enrolAuthenticator } from '../support/authenticator';
import { createSignedInUser } from '../support/cognitoUsers';
import { type HostedUiStandIn, startHostedUiStandIn } from '../support/hostedUiStandIn';
import {
  type IntegrationStack,
  postJson,
  startIntegrationStack,
  TEST_WEB_ORIGIN,
} from '../support/integrationStack';

const REDIRECT = `${TEST_WEB_ORIGIN}/auth/callback`;

let stack: IntegrationStack;
let hostedUi: HostedUiStandIn;
beforeAll(async () => {
  stack = await startIntegrationStack();
  const cognito = inject('cognito');
  hostedUi = await startHostedUiStandIn({
    cognitoEndpoint: cognito.endpoint,
    webClientId: cognito.webClientId,
  });
  process.env.COGNITO_OAUTH_URL = hostedUi.url;
  process.env.OAUTH_REDIRECT_URL = REDIRECT;
});
afterAll(async () => {
  delete process.env.COGNITO_OAUTH_URL;
  delete process.env.OAUTH_REDIRECT_URL;
  await hostedUi?.stop();
  await stack?.stop();
});

/** What the browser does: a verifier, the hosted UI's redirect back with a code for `user`. */
async function visitProvider(user: { email: string; password: string }, provider = 'Google') {
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  await hostedUi.signInNextAs(user);
  const authorize = new URL(`${hostedUi.url}/oauth2/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: inject('cognito').webClientId,
    redirect_uri: REDIRECT,
    identity_provider: provider,
    scope: 'openid email profile',
    state,
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
  })) {
    authorize.searchParams.set(name, value);
  }
  const response = await fetch(authorize, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe(state);
  return { authorizationCode: back.searchParams.get('code') ?? '', codeVerifier };
}

function cookieOf(setCookies: string[], name: string): string | undefined {
  return setCookies.find((c) => c.startsWith(`${name}=`));
}

async function postSocial(body: unknown, cookie?: string) {
  const answer = await postJson(`${stack.apiUrl}/auth/social`, body, cookie ? { cookie } : {});
  return { ...answer, setCookies: answer.headers.getSetCookie() };
}

const asSent = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';

describe('social sign-in through our API', () => {
  it('turns the hosted UI’s code into one of our sessions: the refresh token only in the HttpOnly cookie, refreshed and ended through it', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const answer = await postSocial(await visitProvider({ email: manager.email, password: PASSWORD }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['accessToken', 'expiresIn', 'role']);
    expect(answer.body.role).toBe('manager');
    // The web client's token, for this account.
    const claims = unverifiedClaims(answer.body.accessToken);
    expect(claims.client_id).toBe(inject('cognito').webClientId);
    expect(claims.sub).toBe(manager.userId);

    const setCookie = cookieOf(answer.setCookies, SESSION_COOKIE_NAME);
    expect(setCookie).toMatch(/; Path=\/api\/auth; Secure; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const cookie = asSent(setCookie);
    const refreshToken = cookie.slice(cookie.indexOf(':') + 1);
    expect(refreshToken.length).toBeGreaterThan(20);
    expect(JSON.stringify(answer.body)).not.toContain(refreshToken);

    // Our session record knows whose refresh token it is: the web client's.
    const record = await stack.getItem(keys.session(manager.userId, hashToken(refreshToken)));
    expect(record?.issuedTo).toBe('web');
    expect((await api(stack.apiUrl, 'GET', '/me', { token: answer.body.accessToken })).status).toBe(200);

    // Refresh goes to the web client (a server-client refresh of this token would be refused).
    const refreshed = await withSessionCookie(stack.apiUrl, '/auth/refresh', cookie);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(unverifiedClaims(refreshed.body.accessToken).client_id).toBe(inject('cognito').webClientId);
    expect((await api(stack.apiUrl, 'GET', '/me', { token: refreshed.body.accessToken })).status).toBe(200);

    const signedOut = await withSessionCookie(stack.apiUrl, '/auth/signOut', cookie);
    expect(signedOut.status).toBe(200);
    expect((await withSessionCookie(stack.apiUrl, '/auth/refresh', cookie)).status).toBe(401);
  });

  it('honours only the web client’s tokens our API issued: one redeemed at the hosted UI directly opens nothing', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const visit = await visitProvider({ email: manager.email, password: PASSWORD });
    // Someone with the person's provider password runs the public client's code flow themselves
    // and redeems the code at Cognito, never calling our API (so never meeting its code step).
    const response = await fetch(`${hostedUi.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: inject('cognito').webClientId,
        code: visit.authorizationCode,
        redirect_uri: REDIRECT,
        code_verifier: visit.codeVerifier,
      }),
    });
    expect(response.status).toBe(200);
    const direct = (await response.json()) as { access_token: string };
    expect(unverifiedClaims(direct.access_token).sub).toBe(manager.userId);
    const me = await api(stack.apiUrl, 'GET', '/me', { token: direct.access_token });
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('takes a code once, and only with the verifier whose challenge the browser sent', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const visit = await visitProvider({ email: manager.email, password: PASSWORD });
    const refusedBefore = hostedUi.refusedExchanges();

    const wrongVerifier = await postSocial({ ...visit, codeVerifier: randomBytes(32).toString('base64url') });
    expect(wrongVerifier.status).toBe(401);
    expect(wrongVerifier.body.error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: SOCIAL_SIGN_IN_FAILED,
    });
    expect(cookieOf(wrongVerifier.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
    expect(hostedUi.refusedExchanges()).toBe(refusedBefore + 1);

    expect((await postSocial(visit)).status).toBe(200);
    const again = await postSocial(visit);
    expect(again.status).toBe(401);
    expect(cookieOf(again.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
  });

  it('refuses a pool login that is none of our accounts, and sets no cookie', async () => {
    const email = `stranger-${randomBytes(4).toString('hex')}@example.com`;
    await createSignedInUser(email, PASSWORD);
    const answer = await postSocial(await visitProvider({ email, password: PASSWORD }, 'Facebook'));
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toBe(SOCIAL_SIGN_IN_FAILED);
    expect(answer.setCookies).toEqual([]);
  });

  it('refuses a verifier that is no PKCE verifier before calling the hosted UI', async () => {
    const answer = await postSocial({ authorizationCode: 'abc', codeVerifier: 'short' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 404 where social sign-in is off', async () => {
    const saved = process.env.COGNITO_OAUTH_URL;
    delete process.env.COGNITO_OAUTH_URL;
    try {
      const answer = await postSocial({ authorizationCode: 'abc', codeVerifier: 'a'.repeat(43) });
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe(SOCIAL_SIGN_IN_OFF);
    } finally {
      process.env.COGNITO_OAUTH_URL = saved;
    }
  });
});

describe('social sign-in with an authenticator app', () => {
  async function managerWithApp(): Promise<SignedIn & { secret: string; recoveryCodes: string[] }> {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    return { ...manager, ...(await enrolAuthenticator(stack.apiUrl, manager)) };
  }

  it('asks for the code (the provider is no second factor) and starts the session only with a right one', async () => {
    const manager = await managerWithApp();
    const first = await postSocial(await visitProvider({ email: manager.email, password: PASSWORD }));
    expect(first.status).toBe(401);
    expect(first.body.error).toMatchObject({ code: 'MFA_REQUIRED', message: CODE_REQUIRED });
    expect(cookieOf(first.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
    const pendingSet = cookieOf(first.setCookies, PENDING_SOCIAL_COOKIE_NAME);
    expect(pendingSet).toMatch(/; Path=\/api\/auth; Secure; HttpOnly; SameSite=Strict; Max-Age=300$/);
    const pending = asSent(pendingSet);
    // What waits in the table is keyed by the challenge's hash, with the tokens sealed under it.
    const challenge = pending.slice(pending.indexOf('=') + 1);
    const waiting = await stack.getItem(keys.pendingSocialSignIn(hashToken(challenge)));
    expect(waiting).toMatchObject({ userId: manager.userId, sealedTokens: expect.any(String) });
    expect(waiting).not.toHaveProperty('refreshToken');
    expect(waiting).not.toHaveProperty('accessToken');

    // Without the waiting sign-in's cookie a code finishes nothing.
    const noCookie = await postSocial({ code: codeFor(manager.secret, 1) });
    expect(noCookie.status).toBe(401);
    expect(noCookie.body.error.message).toBe(SOCIAL_SIGN_IN_EXPIRED);

    const wrong = await postSocial(
      { code: '000000' === codeFor(manager.secret) ? '111111' : '000000' },
      pending,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.fields).toEqual({ code: BAD_CODE });
    expect(cookieOf(wrong.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();

    const right = await postSocial({ code: codeFor(manager.secret, 1) }, pending);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.role).toBe('manager');
    expect(unverifiedClaims(right.body.accessToken).client_id).toBe(inject('cognito').webClientId);
    const session = asSent(cookieOf(right.setCookies, SESSION_COOKIE_NAME));
    expect(session.startsWith(`${SESSION_COOKIE_NAME}=${manager.userId}:`)).toBe(true);
    // The token that waited is this session's, and it was never stored readable.
    const refreshToken = session.slice(session.indexOf(':') + 1);
    expect(JSON.stringify(waiting)).not.toContain(refreshToken);
    expect(JSON.stringify(waiting)).not.toContain(right.body.accessToken.split('.')[1]);
    expect(cookieOf(right.setCookies, PENDING_SOCIAL_COOKIE_NAME)).toMatch(/^[^=]+=; .*Max-Age=0$/);
    expect((await withSessionCookie(stack.apiUrl, '/auth/refresh', session)).status).toBe(200);

    // The waiting sign-in is spent: its cookie finishes nothing again, even with a good code.
    const replay = await postSocial({ code: codeFor(manager.secret, 2) }, pending);
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toBe(SOCIAL_SIGN_IN_EXPIRED);
  });

  it('a sign-in still waiting for its code when every session is ended (sign-out elsewhere) ends with them', async () => {
    const manager = await managerWithApp();
    const first = await postSocial(await visitProvider({ email: manager.email, password: PASSWORD }));
    const pending = asSent(cookieOf(first.setCookies, PENDING_SOCIAL_COOKIE_NAME));
    // Sign-out in another browser (or a password reset) ends every session of the account; made a
    // second later than the tokens waiting here, as it would be, rather than waited for.
    await endAllSessions(manager.userId, Date.now() + 2_000);

    const late = await postSocial({ code: codeFor(manager.secret, 1) }, pending);
    expect(late.status).toBe(401);
    expect(late.body.error.message).toBe(SOCIAL_SIGN_IN_EXPIRED);
    expect(cookieOf(late.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
  });

  it('of two codes sent at once one finishes the sign-in; the other is neither checked nor spent', async () => {
    const manager = await managerWithApp();
    const first = await postSocial(await visitProvider({ email: manager.email, password: PASSWORD }));
    const pending = asSent(cookieOf(first.setCookies, PENDING_SOCIAL_COOKIE_NAME));
    const [a, b] = manager.recoveryCodes as [string, string];
    const answers = await Promise.all([postSocial({ code: a }, pending), postSocial({ code: b }, pending)]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 401]);
    const loser = answers[0]?.status === 200 ? b : a;
    // The code that lost the race still works, here at the password door.
    const later = await postJson(`${stack.apiUrl}/auth/signIn`, {
      email: manager.email,
      password: PASSWORD,
      code: loser,
    });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
  });

  it('takes a recovery code instead, once', async () => {
    const manager = await managerWithApp();
    const [recovery] = manager.recoveryCodes;
    const first = await postSocial(await visitProvider({ email: manager.email, password: PASSWORD }));
    const pending = asSent(cookieOf(first.setCookies, PENDING_SOCIAL_COOKIE_NAME));
    expect((await postSocial({ code: recovery }, pending)).status).toBe(200);

    const second = await postSocial(await visitProvider({ email: manager.email, password: PASSWORD }));
    const pendingAgain = asSent(cookieOf(second.setCookies, PENDING_SOCIAL_COOKIE_NAME));
    const reused = await postSocial({ code: recovery }, pendingAgain);
    expect(reused.status).toBe(401);
    expect(reused.body.error.fields).toEqual({ code: BAD_CODE });
  });
});
