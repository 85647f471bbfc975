/** Account flows over real HTTP, following the links in the e-mails, as a person would. */
import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import { SESSION_COOKIE_NAME } from '../../lambdas/src/platform/sessionCookie';
import { CLIENT_IP_HEADER, Mailbox, newClientIp, postJson } from './integrationStack';

export const PASSWORD = 'learning-is-fun';

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The token in the newest e-mail to `to` whose link goes to `path`. */
export async function linkToken(
  mailbox: Mailbox,
  to: string,
  path: '/verify' | '/forgotpassword' | '/registerEmployee',
): Promise<string> {
  // A hang guard just under the integration test timeout (120 s), not a count of tries a busy
  // machine could use up: the e-mail is sent before the request that causes it answers.
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline) {
    const mails = await mailbox.to(to);
    for (const mail of mails.reverse()) {
      // The token may follow other parameters (the invitation link: `?email=...&token=...`).
      const match = new RegExp(`https?://[^\\s]+${path}\\?(?:[^\\s]*&)?token=([A-Za-z0-9_-]+)`).exec(
        mail.body.text ?? '',
      );
      if (match?.[1]) return match[1];
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${path} link in the mail to ${to}`);
}

export interface SignedIn {
  userId: string;
  email: string;
  accessToken: string;
  /** The session cookie as a browser sends it back (`name=value`): it holds the refresh token. */
  sessionCookie: string;
  teamId?: string;
}

/** The session cookie an answer set, as a `Cookie` header would send it back; '' when none was set. */
export function sessionCookieOf(headers: Headers): string {
  const cookie = headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
  return cookie?.split(';')[0] ?? '';
}

/** POST /auth/refresh or /auth/signOut as the browser sends it: no body but `{}`, the cookie along. */
export async function withSessionCookie(
  apiUrl: string,
  path: '/auth/refresh' | '/auth/signOut',
  cookie: string,
) {
  return postJson(`${apiUrl}${path}`, {}, cookie ? { cookie } : {});
}

export async function signIn(apiUrl: string, email: string, password = PASSWORD) {
  return postJson(`${apiUrl}/auth/signIn`, { email, password });
}

export async function registerManager(
  apiUrl: string,
  mailbox: Mailbox,
  options: { verify?: boolean; email?: string } = {},
): Promise<SignedIn> {
  const email = options.email ?? uniqueEmail('manager');
  const res = await postJson(`${apiUrl}/auth/registerManager`, {
    firstName: 'Mary',
    lastName: 'Manager',
    email,
    password: PASSWORD,
    company: 'Acme Learning',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (options.verify !== false) {
    const token = await linkToken(mailbox, email, '/verify');
    const verified = await postJson(`${apiUrl}/auth/verifyEmail`, { token });
    expect(verified.status).toBe(200);
  }
  const session = await signIn(apiUrl, email);
  expect(session.status).toBe(200);
  return { userId: res.body.userId, email, ...session.body, sessionCookie: sessionCookieOf(session.headers) };
}

/**
 * The invited person signs up with the link in their invitation e-mail, as a
 * person would: the address alone is not enough (issue 24, attack 3). The
 * mailbox defaults to the integration stack's; with `mailbox` given, the
 * employee also verifies their e-mail through the link.
 */
export async function inviteAndRegisterEmployee(
  apiUrl: string,
  manager: SignedIn,
  budget: string | number = 25,
  options: { mailbox?: Mailbox; firstName?: string; lastName?: string } = {},
): Promise<SignedIn> {
  const email = uniqueEmail('employee');
  const mailbox = options.mailbox ?? new Mailbox(inject('sesEndpoint'));
  const invited = await postJson(
    `${apiUrl}/invitations`,
    { emails: email, budget },
    { authorization: `Bearer ${manager.accessToken}` },
  );
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const res = await postJson(`${apiUrl}/auth/registerEmployee`, {
    firstName: options.firstName ?? 'Eddie',
    lastName: options.lastName ?? 'Employee',
    email,
    password: PASSWORD,
    zip: '94110',
    token: await linkToken(mailbox, email, '/registerEmployee'),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (options.mailbox) {
    const token = await linkToken(options.mailbox, email, '/verify');
    expect((await postJson(`${apiUrl}/auth/verifyEmail`, { token })).status).toBe(200);
  }
  const session = await signIn(apiUrl, email);
  expect(session.status).toBe(200);
  return { userId: res.body.userId, email, ...session.body, sessionCookie: sessionCookieOf(session.headers) };
}

export function bearer(user: SignedIn): Record<string, string> {
  return { authorization: `Bearer ${user.accessToken}` };
}

export async function api(
  apiUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; idempotencyKey?: string; cookie?: string } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      [CLIENT_IP_HEADER]: newClientIp(),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  // File routes (CSV, and PDFs, which are 7-bit ASCII) answer with text; everything else is JSON.
  const isText = /^(text\/|application\/pdf)/.test(response.headers.get('content-type') ?? '');
  return { status: response.status, body: text ? (isText ? text : JSON.parse(text)) : undefined };
}
