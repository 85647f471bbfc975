/**
 * The session cookie (docs/security.md "Sessions"), called as the browser calls
 * it: at the web origin under /api, through the local web server's proxy (as
 * CloudFront's /api/* in AWS), with the real handlers behind the gateway.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixedLog } from '../../infra/local/processes';
import { startWebServer } from '../../infra/local/webServer';
import {
  REFRESH_TOKEN_VALIDITY_SECONDS,
  SESSION_COOKIE_NAME,
} from '../../lambdas/src/platform/sessionCookie';
import { PASSWORD, registerManager, type SignedIn } from '../support/accountFlows';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  newClientIp,
  startIntegrationStack,
} from '../support/integrationStack';

let stack: IntegrationStack;
let web: { url: string; stop: () => Promise<void> };
let distDir: string;

beforeAll(async () => {
  stack = await startIntegrationStack();
  distDir = mkdtempSync(join(tmpdir(), 'lb-session-cookie-'));
  mkdirSync(distDir, { recursive: true });
  writeFileSync(join(distDir, 'app.html'), '<!doctype html><title>app shell</title>');
  web = await startWebServer({
    port: 0,
    distDir,
    runtimeConfig: {},
    gatewayUrl: stack.apiUrl,
    csp: { connect: [], img: [], frame: [] },
    log: prefixedLog('web', true),
  });
});
afterAll(async () => {
  await web?.stop();
  await stack?.stop();
  if (distDir) rmSync(distDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: any;
  setCookies: string[];
}

/** A POST to the app's own origin, as the browser's fetch sends it. */
async function post(
  path: string,
  options: { body?: string; cookie?: string; contentType?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${web.url}/api${path}`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      [CLIENT_IP_HEADER]: newClientIp(),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.body ?? '{}',
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    setCookies: response.headers.getSetCookie(),
  };
}

async function signInThroughTheApp(user: SignedIn): Promise<Answer & { cookie: string }> {
  const answer = await post('/auth/signIn', {
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const cookie = answer.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`))?.split(';')[0] ?? '';
  return { ...answer, cookie };
}

/** The Set-Cookie attributes, lower-cased names: `{ path: '/api/auth', httponly: true, ... }`. */
function attributesOf(setCookie: string): Record<string, string | true> {
  const [, ...parts] = setCookie.split(';').map((part) => part.trim());
  return Object.fromEntries(
    parts.map((part) => {
      const [name, value] = part.split('=');
      return [name?.toLowerCase() ?? '', value ?? true];
    }),
  );
}

function clearsTheCookie(answer: Answer): boolean {
  const cleared = answer.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=;`));
  return cleared !== undefined && attributesOf(cleared)['max-age'] === '0';
}

describe('the session cookie', () => {
  it('is set by sign-in (HttpOnly, Secure, SameSite=Strict, Path=/api/auth, the refresh token’s life); the body has no refresh token', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const answer = await signInThroughTheApp(manager);
    expect(Object.keys(answer.body).sort()).toEqual(['accessToken', 'expiresIn', 'role']);
    expect(JSON.stringify(answer.body)).not.toContain(answer.cookie.split(':')[1]);

    const [setCookie, ...others] = answer.setCookies;
    expect(others).toEqual([]);
    expect(setCookie?.startsWith(`${SESSION_COOKIE_NAME}=${manager.userId}:`)).toBe(true);
    expect(attributesOf(setCookie ?? '')).toEqual({
      path: '/api/auth',
      secure: true,
      httponly: true,
      samesite: 'Strict',
      'max-age': String(REFRESH_TOKEN_VALIDITY_SECONDS),
    });
    // The user pool client's refresh-token validity (30 days; test/infra asserts the template).
    expect(REFRESH_TOKEN_VALIDITY_SECONDS).toBe(30 * 24 * 3600);
  });

  it('refreshes with the cookie alone, and refuses a refresh token sent in the body', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { cookie } = await signInThroughTheApp(manager);

    const refreshed = await post('/auth/refresh', { cookie });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(Object.keys(refreshed.body).sort()).toEqual(['accessToken', 'expiresIn', 'me', 'role']);
    const me = await fetch(`${web.url}/api/me`, {
      headers: { authorization: `Bearer ${refreshed.body.accessToken}`, [CLIENT_IP_HEADER]: newClientIp() },
    });
    expect(me.status).toBe(200);
    // The answer carries GET /me's for the cookie's holder (a reload restores in one round trip).
    expect(refreshed.body.me).toEqual(await me.json());
    expect(refreshed.body.me.userId).toBe(manager.userId);

    // The very token, as the old API took it: without the cookie it is nobody's session.
    const refreshToken = cookie.slice(cookie.indexOf(':') + 1);
    const bodyOnly = await post('/auth/refresh', {
      body: JSON.stringify({ email: manager.email, refreshToken, userId: manager.userId }),
    });
    expect(bodyOnly.status).toBe(401);
    expect(bodyOnly.body.error.code).toBe('UNAUTHENTICATED');
    expect(clearsTheCookie(bodyOnly)).toBe(true);
  });

  it('refuses refresh and sign-out not sent as JSON (what a cross-site form sends), and the session lives on', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { cookie } = await signInThroughTheApp(manager);
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      for (const path of ['/auth/refresh', '/auth/signOut']) {
        const answer = await post(path, { cookie, contentType, body: '' });
        expect(answer.status, `${path} ${contentType}`).toBe(400);
        expect(answer.body.error.code).toBe('MALFORMED_REQUEST');
        expect(answer.setCookies).toEqual([]);
      }
    }
    expect((await post('/auth/refresh', { cookie })).status).toBe(200);
  });

  it('sign-out clears the cookie and ends every session: neither that cookie nor another session’s refreshes', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const here = await signInThroughTheApp(manager);
    const elsewhere = await signInThroughTheApp(manager);
    expect(here.cookie).not.toBe(elsewhere.cookie);

    const out = await post('/auth/signOut', { cookie: here.cookie });
    expect(out.status).toBe(200);
    expect(clearsTheCookie(out)).toBe(true);
    expect(attributesOf(out.setCookies[0] ?? '')).toMatchObject({
      path: '/api/auth',
      secure: true,
      httponly: true,
    });

    const again = await post('/auth/refresh', { cookie: here.cookie });
    expect(again.status).toBe(401);
    expect(clearsTheCookie(again)).toBe(true);
    expect((await post('/auth/refresh', { cookie: elsewhere.cookie })).status).toBe(401);
    // Without any cookie, sign-out still answers (and clears): nothing to end.
    const bare = await post('/auth/signOut');
    expect(bare.status).toBe(200);
    expect(clearsTheCookie(bare)).toBe(true);
  });

  it('a cookie naming someone else’s user id with one’s own token refreshes nothing', async () => {
    const victim = await registerManager(stack.apiUrl, stack.mailbox);
    const attacker = await registerManager(stack.apiUrl, stack.mailbox);
    const own = (await signInThroughTheApp(attacker)).cookie;
    const token = own.slice(own.indexOf(':') + 1);
    const swapped = `${SESSION_COOKIE_NAME}=${victim.userId}:${token}`;
    const refused = await post('/auth/refresh', { cookie: swapped });
    expect(refused.status).toBe(401);
    // Nothing of the victim's profile rides on the refusal (the answer carries /me's only when it renews).
    expect(Object.keys(refused.body)).toEqual(['error']);
    expect(JSON.stringify(refused.body)).not.toContain(victim.email);
    expect((await post('/auth/refresh', { cookie: `${SESSION_COOKIE_NAME}=garbage` })).status).toBe(401);
    const victims = await post('/auth/refresh', { cookie: victim.sessionCookie });
    expect(victims.status).toBe(200);
    expect(victims.body.me.userId).toBe(victim.userId);
  });
});

describe('the web server’s /api/*, as CloudFront’s', () => {
  it('takes the prefix off and passes the answer through; /api itself is the app, not the API', async () => {
    const unknown = await fetch(`${web.url}/api/no-such-route?x=1`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Not Found' });
    const bare = await fetch(`${web.url}/api`);
    expect(bare.status).toBe(200);
    expect(await bare.text()).toContain('app shell');
    // A signed-in route answers as the gateway does (its authorizer's 401).
    const me = await fetch(`${web.url}/api/me`);
    expect(me.status).toBe(401);
  });
});
