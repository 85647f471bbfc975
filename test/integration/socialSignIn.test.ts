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
  BAD_PASSWORD,
  CODE_REQUIRED,
  SOCIAL_SIGN_IN_EXPIRED,
  SOCIAL_SIGN_IN_FAILED,
  SOCIAL_SIGN_IN_OFF,
  socialPasswordRequired,
} from '../../lambdas/src/services/accounts';
import { api, PASSWORD, registerManager, type SignedIn, withSessionCookie } from '../support/accountFlows';
import { codeFor, enrolAuthenticator } from '../support/authenticator';
import { createSignedInUser } from '../support/cognitoUsers';
import {
  type HostedUiStandIn,
  type ProviderIdentity,
  startHostedUiStandIn,
} from '../support/hostedUiStandIn';
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
  // The pool's pre-sign-up trigger, as Cognito runs it on an identity's first sign-in.
  const { handler: preSignUp } = await import('../../lambdas/src/triggers/preSignUp');
  hostedUi = await startHostedUiStandIn({
    cognitoEndpoint: cognito.endpoint,
    webClientId: cognito.webClientId,
    userPoolId: cognito.userPoolId,
    preSignUp: (event) => preSignUp(event as never),
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
  await hostedUi.signInNextAs(user);
  const back = await returnFromProvider(provider);
  return { authorizationCode: back.searchParams.get('code') ?? '', codeVerifier: back.codeVerifier };
}

/** The same for a provider identity taken as Cognito takes it (linked, its own user, or the trigger first). */
async function visitProviderWith(identity: ProviderIdentity, accountPassword = PASSWORD) {
  await hostedUi.signInNextWith(identity, accountPassword);
  const back = await returnFromProvider(identity.provider);
  expect(back.searchParams.get('error_description')).toBeNull();
  return { authorizationCode: back.searchParams.get('code') ?? '', codeVerifier: back.codeVerifier };
}

/** The browser's trip through the hosted UI: where it is sent back, and the verifier it kept. */
async function returnFromProvider(provider: string) {
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
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
  return Object.assign(back, { codeVerifier });
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

/**
 * Issue 24, attack 8: a provider's sign-in joins the account with its address
 * at once only when our account's address is verified and the provider says
 * its address is verified (Google's `email_verified`; Facebook says nothing).
 * Otherwise it opens nothing until the account's password is given, once.
 */
describe('social sign-in on an address not vouched for on both sides', () => {
  const identityOf = (
    email: string,
    provider: ProviderIdentity['provider'],
    emailVerified?: boolean,
  ): ProviderIdentity => ({
    provider,
    id: String(100_000_000 + Math.floor(Math.random() * 900_000_000)),
    email,
    ...(emailVerified === undefined ? {} : { emailVerified }),
  });

  /** The pool user the local Cognito links this identity to (what Cognito's next sign-in yields), if any. */
  async function linkedTo(identity: ProviderIdentity): Promise<string | undefined> {
    const response = await fetch(
      `${inject('cognito').endpoint}/_local/identityLinks/${identity.provider}/${identity.id}`,
    );
    return response.ok ? ((await response.json()) as { username: string }).username : undefined;
  }

  it('attack 8: whoever registered the address first (never verifying it) is not joined to its owner’s Google sign-in', async () => {
    // The attacker registers the victim's address with a password of their own and never opens the link.
    const squatted = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    // The victim signs in with Google, which vouches for the address.
    const victim = identityOf(squatted.email, 'Google', true);

    const answer = await postSocial(await visitProviderWith(victim));
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.body.error).toMatchObject({
      code: 'PASSWORD_REQUIRED',
      message: socialPasswordRequired('Google'),
    });
    expect(cookieOf(answer.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
    expect(await linkedTo(victim)).toBeUndefined();
    const pending = asSent(cookieOf(answer.setCookies, PENDING_SOCIAL_COOKIE_NAME));
    expect(pending).not.toBe('');

    // The victim does not know the attacker's password: nothing opens, nothing is joined.
    const guess = await postSocial({ password: 'not the attacker’s password' }, pending);
    expect(guess.status).toBe(401);
    expect(guess.body.error.fields).toEqual({ password: BAD_PASSWORD });
    expect(cookieOf(guess.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
    expect(await linkedTo(victim)).toBeUndefined();

    // Google again: the same question, never the attacker's account.
    const again = await postSocial(await visitProviderWith(victim));
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('PASSWORD_REQUIRED');
    expect(cookieOf(again.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
    // A code (the other step's input) finishes nothing here either.
    const code = await postSocial(
      { code: '123456' },
      asSent(cookieOf(again.setCookies, PENDING_SOCIAL_COOKIE_NAME)),
    );
    expect(code.status).toBe(401);
    expect(code.body.error.message).toBe(SOCIAL_SIGN_IN_EXPIRED);
  });

  it('attack 8: a Facebook address is never enough on its own, even for a verified account; its password joins them once, then Facebook goes straight in', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const facebook = identityOf(manager.email, 'Facebook');

    const first = await postSocial(await visitProviderWith(facebook));
    expect(first.status, JSON.stringify(first.body)).toBe(401);
    expect(first.body.error).toMatchObject({
      code: 'PASSWORD_REQUIRED',
      message: socialPasswordRequired('Facebook'),
    });
    expect(await linkedTo(facebook)).toBeUndefined();
    const pending = asSent(cookieOf(first.setCookies, PENDING_SOCIAL_COOKIE_NAME));
    // What waits names the account, with the provider's sign-in sealed; no tokens wait.
    const waiting = await stack.getItem(
      keys.pendingSocialSignIn(hashToken(pending.slice(pending.indexOf('=') + 1))),
    );
    expect(waiting).toMatchObject({ userId: manager.userId, step: 'password' });
    expect(JSON.stringify(waiting)).not.toContain(facebook.id);

    const joined = await postSocial({ password: PASSWORD }, pending);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.role).toBe('manager');
    expect(unverifiedClaims(joined.body.accessToken).sub).toBe(manager.userId);
    const session = asSent(cookieOf(joined.setCookies, SESSION_COOKIE_NAME));
    expect(session.startsWith(`${SESSION_COOKIE_NAME}=${manager.userId}:`)).toBe(true);
    expect(cookieOf(joined.setCookies, PENDING_SOCIAL_COOKIE_NAME)).toMatch(/^[^=]+=; .*Max-Age=0$/);
    expect((await withSessionCookie(stack.apiUrl, '/auth/refresh', session)).status).toBe(200);
    expect(await linkedTo(facebook)).toBe(manager.userId);
    // Once: the password step is spent.
    expect((await postSocial({ password: PASSWORD }, pending)).status).toBe(401);

    const next = await postSocial(await visitProviderWith(facebook));
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(unverifiedClaims(next.body.accessToken).sub).toBe(manager.userId);
  });

  it('Google saying the address is unverified asks for the password too (the trigger used to refuse it)', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const unverified = identityOf(manager.email, 'Google', false);
    const answer = await postSocial(await visitProviderWith(unverified));
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('PASSWORD_REQUIRED');
    expect(await linkedTo(unverified)).toBeUndefined();
  });

  it('joins at once when both the account and Google vouch for the address', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const google = identityOf(manager.email, 'Google', true);
    const answer = await postSocial(await visitProviderWith(google));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(unverifiedClaims(answer.body.accessToken).sub).toBe(manager.userId);
    expect(await linkedTo(google)).toBe(manager.userId);
  });

  it('with an authenticator app, joins only after the password and then the code', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret } = await enrolAuthenticator(stack.apiUrl, manager);
    const facebook = identityOf(manager.email, 'Facebook');
    const first = await postSocial(await visitProviderWith(facebook));
    expect(first.body.error.code).toBe('PASSWORD_REQUIRED');

    const password = await postSocial(
      { password: PASSWORD },
      asSent(cookieOf(first.setCookies, PENDING_SOCIAL_COOKIE_NAME)),
    );
    expect(password.status).toBe(401);
    expect(password.body.error).toMatchObject({ code: 'MFA_REQUIRED', message: CODE_REQUIRED });
    expect(cookieOf(password.setCookies, SESSION_COOKIE_NAME)).toBeUndefined();
    expect(await linkedTo(facebook)).toBeUndefined();
    const codeStep = asSent(cookieOf(password.setCookies, PENDING_SOCIAL_COOKIE_NAME));

    const wrong = await postSocial({ code: codeFor(secret) === '000000' ? '111111' : '000000' }, codeStep);
    expect(wrong.body.error.fields).toEqual({ code: BAD_CODE });
    expect(await linkedTo(facebook)).toBeUndefined();

    const right = await postSocial({ code: codeFor(secret, 1) }, codeStep);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(unverifiedClaims(right.body.accessToken).sub).toBe(manager.userId);
    const session = asSent(cookieOf(right.setCookies, SESSION_COOKIE_NAME));
    expect((await withSessionCookie(stack.apiUrl, '/auth/refresh', session)).status).toBe(200);
    expect(await linkedTo(facebook)).toBe(manager.userId);
  });
});
