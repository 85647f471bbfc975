import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '@shared/api/routes';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { db, tableName } from '../../lambdas/src/data/client';
import { issueEmailToken } from '../../lambdas/src/data/emailTokens';
import { keys } from '../../lambdas/src/data/keys';
import { reserveTry } from '../../lambdas/src/data/signInFailures';
import { delayAfter, THROTTLE } from '../../lambdas/src/services/accounts';
import { api, linkToken, PASSWORD, registerManager, uniqueEmail } from '../support/accountFlows';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  postJson,
  startIntegrationStack,
} from '../support/integrationStack';
import { holdClock, releaseClock } from '../support/productClock';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** Moves the last failure of a throttle record into the past, as if its delay had run out. */
async function backdateFailures(scope: 'address' | 'source', id: string, seconds: number, failures?: number) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.signInFailures(scope, id),
      UpdateExpression: `SET lastFailureAt = :at, expiresAt = :exp${failures === undefined ? '' : ', failures = :n'}`,
      ExpressionAttributeValues: {
        ':at': new Date(Date.now() - seconds * 1000).toISOString(),
        ':exp': Math.floor(Date.now() / 1000) + 3600,
        ...(failures === undefined ? {} : { ':n': failures }),
      },
    }),
  );
}

const signInFrom = (ip: string, email: string, password: string) =>
  postJson(`${stack.apiUrl}/auth/signIn`, { email, password }, { [CLIENT_IP_HEADER]: ip });

describe('attack 7: guesses sent all at once', () => {
  it('let through at most the free tries and one more, at one address from 50 sources at once', async () => {
    // No delay runs out while the guesses are in flight, however slow the machine.
    holdClock(new Date());
    onTestFinished(releaseClock);
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signInFrom(`198.51.100.${100 + i}`, manager.email, `wrong-${i}`)),
    );
    const statuses = answers.map((a) => a.status);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(THROTTLE.address.free + 1);
    expect(statuses.filter((s) => s === 429).length).toBe(50 - checked);
    for (const refused of answers.filter((a) => a.status === 429))
      expect(refused.body.error.message).toBe(
        'Too many failed sign-ins. Please wait a moment and try again.',
      );
  });

  it('let through at most the free tries and one more from one source across 50 addresses at once', async () => {
    holdClock(new Date());
    onTestFinished(releaseClock);
    const spray = '198.51.100.99';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => signInFrom(spray, uniqueEmail('parallel'), 'wrong')),
    );
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(THROTTLE.source.free + 1);
    expect(answers.filter((a) => a.status === 429).length).toBe(50 - checked);
  });

  it('never makes a try within the free ones wait, though a parallel one wrote a later time', async () => {
    const id = uniqueEmail('tie');
    const rule = (n: number) => delayAfter(n, THROTTLE.address);
    const started = Date.now();
    // The other try's `now` is a moment after this one's, and it wrote first.
    expect(await reserveTry('address', id, new Date(started + 50), rule)).toEqual({ waitSeconds: 0 });
    expect(await reserveTry('address', id, new Date(started), rule)).toEqual({ waitSeconds: 0 });
  });

  it('gives a right password back its try: the owner signing in between guesses is not counted', async () => {
    holdClock(new Date());
    onTestFinished(releaseClock);
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    for (let i = 0; i < THROTTLE.address.free + 3; i++) {
      expect((await signInFrom('198.51.100.98', manager.email, PASSWORD)).status).toBe(200);
    }
    for (let i = 0; i < THROTTLE.address.free; i++) {
      expect((await signInFrom('198.51.100.97', manager.email, `wrong-${i}`)).status).toBe(401);
    }
  });
});

describe('sign-in throttling: failures, not attempts, with growing delays', () => {
  it('never counts a right password: many sign-ins in a row all succeed', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    for (let i = 0; i < THROTTLE.address.free + 3; i++) {
      expect((await signInFrom('198.51.100.40', manager.email, PASSWORD)).status).toBe(200);
    }
  });

  it('slows guessing at one address with doubling waits, capped at a minute, and the owner gets in after', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const guesser = '198.51.100.41';
    for (let i = 0; i < THROTTLE.address.free + 1; i++) {
      expect((await signInFrom(guesser, manager.email, `guess-${i}`)).status).toBe(401);
    }
    // The owner, from elsewhere, meets the same short wait (no hard lock), with Retry-After.
    const waiting = await signInFrom('198.51.100.42', manager.email, PASSWORD);
    expect(waiting.status).toBe(429);
    const first = Number(waiting.headers.get('retry-after'));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(delayAfter(THROTTLE.address.free + 1, THROTTLE.address));

    // Once the wait has passed, another failure doubles it.
    await backdateFailures('address', manager.email, 120);
    expect((await signInFrom(guesser, manager.email, 'guess-again')).status).toBe(401);
    const second = Number((await signInFrom(guesser, manager.email, 'x')).headers.get('retry-after'));
    expect(second).toBeGreaterThan(first);

    // However many failures pile up, the address never waits more than a minute.
    await backdateFailures('address', manager.email, 0, 10_000);
    const capped = await signInFrom('198.51.100.43', manager.email, PASSWORD);
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('retry-after'))).toBeLessThanOrEqual(THROTTLE.address.maxDelaySeconds);

    // After the wait, the right password works and clears the count.
    await backdateFailures('address', manager.email, THROTTLE.address.maxDelaySeconds + 1);
    expect((await signInFrom('198.51.100.44', manager.email, PASSWORD)).status).toBe(200);
    expect((await signInFrom('198.51.100.44', manager.email, 'one-typo')).status).toBe(401);
  });

  it('slows one source guessing across many addresses much longer, without touching other sources', async () => {
    const spray = '198.51.100.45';
    for (let i = 0; i < THROTTLE.source.free + 1; i++) {
      expect((await signInFrom(spray, uniqueEmail('spray'), 'x')).status).toBe(401);
    }
    expect((await signInFrom(spray, uniqueEmail('spray'), 'x')).status).toBe(429);
    await backdateFailures('source', spray, 0, THROTTLE.source.free + 20);
    const long = await signInFrom(spray, uniqueEmail('spray'), 'x');
    expect(Number(long.headers.get('retry-after'))).toBeGreaterThan(THROTTLE.address.maxDelaySeconds);
    // Someone else, elsewhere, is not affected.
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    expect((await signInFrom('198.51.100.46', manager.email, PASSWORD)).status).toBe(200);
  });

  it('still has a per-client flood guard on attempts', () => {
    expect(routes.signIn.access.rateLimit.limit).toBeGreaterThan(THROTTLE.source.free);
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
      confirmPassword: 'another passphrase',
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
          await postJson(`${stack.apiUrl}/auth/resetPassword`, {
            token: resetToken,
            password: newPassword,
            confirmPassword: newPassword,
          }),
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
