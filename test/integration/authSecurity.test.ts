import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueEmailToken } from '../../lambdas/src/data/emailTokens';
import { SIGN_IN_ACCOUNT_LIMIT } from '../../lambdas/src/services/accounts';
import { routes } from '../../shared/src/api/routes';
import { api, linkToken, PASSWORD, registerManager, uniqueEmail } from '../support/accountFlows';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  postJson,
  startIntegrationStack,
} from '../support/integrationStack';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
  // Windows are aligned to the epoch; start well inside one so counts are not split.
  const windowMs = SIGN_IN_ACCOUNT_LIMIT.windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 100));
});
afterAll(async () => {
  await stack?.stop();
});

describe('sign-in rate limits', () => {
  it('limits attempts per account, from any number of clients, even with the right password after', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    // registerManager signed in once already.
    for (let i = 1; i < SIGN_IN_ACCOUNT_LIMIT.limit; i++) {
      const res = await postJson(`${stack.apiUrl}/auth/signIn`, {
        email: manager.email,
        password: `guess-${i}-wrong`,
      });
      expect(res.status).toBe(401);
    }
    const blocked = await postJson(`${stack.apiUrl}/auth/signIn`, {
      email: manager.email,
      password: PASSWORD,
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits attempts per client, across accounts', async () => {
    const access = routes.signIn.access;
    const client = { [CLIENT_IP_HEADER]: '198.51.100.23' };
    for (let i = 0; i < access.rateLimit.limit; i++) {
      const res = await postJson(
        `${stack.apiUrl}/auth/signIn`,
        { email: uniqueEmail('spray'), password: 'x' },
        client,
      );
      expect(res.status).toBe(401);
    }
    const blocked = await postJson(
      `${stack.apiUrl}/auth/signIn`,
      { email: uniqueEmail('spray'), password: 'x' },
      client,
    );
    expect(blocked.status).toBe(429);
  });
});

describe('e-mail link tokens', () => {
  it('expire: a verification link older than its lifetime is refused', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const fourDaysAgo = new Date(Date.now() - 4 * 24 * 3600 * 1000);
    const stale = await issueEmailToken('verifyEmail', manager.userId, fourDaysAgo);
    const res = await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token: stale });
    expect(res.status).toBe(404);
    expect((await api(stack.apiUrl, 'GET', '/me', { token: manager.accessToken })).body.emailVerified).toBe(
      false,
    );
  });

  it('serve one purpose: a reset link cannot verify an address', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: manager.email });
    const resetToken = await linkToken(stack.mailbox, manager.email, '/forgotpassword');
    expect((await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token: resetToken })).status).toBe(404);
    // ...and it is not used up by that attempt.
    const reset = await postJson(`${stack.apiUrl}/auth/resetPassword`, {
      token: resetToken,
      password: 'another passphrase',
    });
    expect(reset.status).toBe(200);
  });
});

describe('secrets stay out of responses and logs', () => {
  it('never prints a password or an e-mail token, and never answers with one', async () => {
    const lines: string[] = [];
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const log = vi.spyOn(console, 'log').mockImplementation((...a) => lines.push(a.join(' ')));
    const error = vi.spyOn(console, 'error').mockImplementation((...a) => lines.push(a.join(' ')));
    process.env.LOG_LEVEL = 'debug';
    const responses: string[] = [];
    try {
      const email = uniqueEmail('secret');
      const password = 'Sup3r-Secret-Passphrase';
      responses.push(
        JSON.stringify(
          await postJson(`${stack.apiUrl}/auth/registerManager`, {
            firstName: 'S',
            lastName: 'Ecret',
            email,
            password,
            company: 'Hush',
          }),
        ),
      );
      const verifyToken = await linkToken(stack.mailbox, email, '/verify');
      responses.push(
        JSON.stringify(await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token: verifyToken })),
      );
      responses.push(
        JSON.stringify(
          await postJson(`${stack.apiUrl}/auth/signIn`, { email, password: 'wrong-password-1' }),
        ),
      );
      await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email });
      const resetToken = await linkToken(stack.mailbox, email, '/forgotpassword');
      const newPassword = 'An0ther-Secret-Passphrase';
      responses.push(
        JSON.stringify(
          await postJson(`${stack.apiUrl}/auth/resetPassword`, { token: resetToken, password: newPassword }),
        ),
      );
      responses.push(
        JSON.stringify(
          await postJson(`${stack.apiUrl}/auth/resetPassword`, { token: resetToken, password: 'x' }),
        ),
      );

      const everything = [...lines, ...responses].join('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const secret of [password, newPassword, 'wrong-password-1', verifyToken, resetToken]) {
        expect(everything).not.toContain(secret);
      }
    } finally {
      process.env.LOG_LEVEL = 'error';
      out.mockRestore();
      err.mockRestore();
      log.mockRestore();
      error.mockRestore();
    }
  });
});
