/**
 * Changing the password while signed in (POST /auth/changePassword): the
 * current password is the proof, the new one is checked as on sign-up and
 * reset, and every other session ends while the caller's goes on.
 */

import {
  CURRENT_PASSWORD_REQUIRED,
  CURRENT_PASSWORD_WRONG,
  PASSWORD_UNCHANGED,
  PASSWORDS_DIFFER,
} from '@shared/schemas/auth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryAll } from '../../lambdas/src/data/client';
import {
  api,
  PASSWORD,
  registerManager,
  sessionCookieOf,
  signIn,
  withSessionCookie,
} from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('changing the password while signed in', () => {
  it('needs the current password, refuses bad new ones, then ends every other session and spares this one', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const elsewhere = await signIn(stack.apiUrl, manager.email);
    expect(elsewhere.status).toBe(200);
    const change = (body: Record<string, unknown>) =>
      api(stack.apiUrl, 'POST', '/auth/changePassword', {
        token: manager.accessToken,
        cookie: manager.sessionCookie,
        body,
      });
    const fresh = 'a fresher secret';

    const refusals: [Record<string, unknown>, Record<string, string>][] = [
      [
        { currentPassword: '', password: fresh, confirmPassword: fresh },
        { currentPassword: CURRENT_PASSWORD_REQUIRED },
      ],
      [
        { currentPassword: 'not my password', password: fresh, confirmPassword: fresh },
        { currentPassword: CURRENT_PASSWORD_WRONG },
      ],
      [
        { currentPassword: PASSWORD, password: fresh, confirmPassword: `${fresh}!` },
        { confirmPassword: PASSWORDS_DIFFER },
      ],
      [
        { currentPassword: PASSWORD, password: 'short', confirmPassword: 'short' },
        { password: 'Password must be at least 8 characters' },
      ],
      [
        { currentPassword: PASSWORD, password: PASSWORD, confirmPassword: PASSWORD },
        { password: PASSWORD_UNCHANGED },
      ],
    ];
    for (const [body, fields] of refusals) {
      const refused = await change(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.fields).toEqual(fields);
    }
    // Nothing changed: the old password still signs in.
    expect((await signIn(stack.apiUrl, manager.email)).status).toBe(200);

    // Sessions end at whole seconds (tokens' `iat`): let the clock leave the second of the last sign-in.
    const lastIssuedSecond = Math.floor(Date.now() / 1000);
    await vi.waitUntil(() => Math.floor(Date.now() / 1000) > lastIssuedSecond, {
      timeout: 5_000,
      interval: 20,
    });
    const changed = await change({ currentPassword: PASSWORD, password: fresh, confirmPassword: fresh });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    expect((await signIn(stack.apiUrl, manager.email)).status).toBe(401);
    expect((await signIn(stack.apiUrl, manager.email, fresh)).status).toBe(200);
    // The other session is over: its access token and its refresh are refused.
    expect((await api(stack.apiUrl, 'GET', '/me', { token: elsewhere.body.accessToken })).status).toBe(401);
    expect(
      (await withSessionCookie(stack.apiUrl, '/auth/refresh', sessionCookieOf(elsewhere.headers))).status,
    ).toBe(401);
    // This one goes on: the app refreshes past the cut-off.
    const refreshed = await withSessionCookie(stack.apiUrl, '/auth/refresh', manager.sessionCookie);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const me = await api(stack.apiUrl, 'GET', '/me', { token: refreshed.body.accessToken });
    expect(me.status).toBe(200);
    // Audited on the team's log, once.
    const audit = await queryAll<{ action: string; actorId: string; targetId: string }>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `TEAM#${me.body.teamId}`, ':prefix': 'AUDIT#' },
    });
    expect(
      audit
        .filter((a) => a.action === 'account.passwordChanged')
        .map(({ actorId, targetId }) => ({ actorId, targetId })),
    ).toEqual([{ actorId: manager.userId, targetId: manager.userId }]);
  });

  it('counts a wrong current password towards the sign-in throttle, so it is no side door for guessing', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await api(stack.apiUrl, 'POST', '/auth/changePassword', {
        token: manager.accessToken,
        cookie: manager.sessionCookie,
        body: {
          currentPassword: `guess ${i}`,
          password: 'a fresher secret',
          confirmPassword: 'a fresher secret',
        },
      });
      answers.push(res.status);
    }
    // Five free failures per address, then a wait (429) that grows: docs/security.md.
    expect(answers.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(answers).toContain(429);
  });
});
