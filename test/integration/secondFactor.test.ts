/**
 * The second factor and step-up (docs/security.md "Second factor"): an
 * authenticator app enrolled over the API is asked for at every sign-in, each
 * code and each recovery code works once, and money-moving manager actions
 * need a factor proven in the last few minutes.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { db, queryAll, tableName } from '../../lambdas/src/data/client';
import { keys } from '../../lambdas/src/data/keys';
import { STEP_UP_THRESHOLD_CENTS } from '../../lambdas/src/platform/freshFactor';
import { BAD_CODE, BAD_PASSWORD, THROTTLE } from '../../lambdas/src/services/accounts';
import {
  api,
  inviteAndRegisterEmployee,
  PASSWORD,
  registerManager,
  type SignedIn,
  sessionCookieOf,
  signIn,
  withSessionCookie,
} from '../support/accountFlows';
import { codeFor, enrolAuthenticator, forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';
import { holdClock, releaseClock } from '../support/productClock';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

const enrol = (user: SignedIn) => enrolAuthenticator(stack.apiUrl, user);

/** As if the factor proven at sign-in were older than the freshness window. */
const signInWithCode = (email: string, code: string, password = PASSWORD) =>
  postJson(`${stack.apiUrl}/auth/signIn`, { email, password, code });

describe('enrolling an authenticator app', () => {
  it('shows the secret once (QR code and key), turns on with a right code only, and gives ten recovery codes', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const token = manager.accessToken;
    expect((await api(stack.apiUrl, 'GET', '/me/secondFactor', { token })).body).toEqual({
      totpEnabled: false,
      recoveryCodesLeft: 0,
      stepUpNeeded: false,
    });
    const started = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { password: PASSWORD },
    });
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauthUri).toContain(`secret=${started.body.secret}`);
    expect(started.body.otpauthUri).toContain('issuer=Learning%20Budget');
    expect(started.body.qrCode).toMatch(/^data:image\/png;base64,/);

    const wrong = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
      token,
      body: { code: '000000' === codeFor(started.body.secret) ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.code).toBeDefined();

    const confirmed = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
      token,
      body: { code: codeFor(started.body.secret) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);

    const status = await api(stack.apiUrl, 'GET', '/me/secondFactor', { token });
    expect(status.body).toEqual({ totpEnabled: true, recoveryCodesLeft: 10, stepUpNeeded: false });
    expect(JSON.stringify(status.body)).not.toContain(started.body.secret);
    // Not twice: a second secret is never handed out while one is in force.
    expect(
      (await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', { token, body: { password: PASSWORD } }))
        .status,
    ).toBe(409);
  });
});

describe('attack 1: a stolen access token alone cannot add, turn off or renew a factor', () => {
  const wrongCodeFor = (secret: string) => (codeFor(secret) === '000000' ? '111111' : '000000');
  const mailTo = async (email: string, subject: string) =>
    (await stack.mailbox.to(email)).filter((m) => m.subject === subject);

  it('refuses to start enrolling without the password, and a wrong one counts as a failed sign-in', async () => {
    holdClock(new Date());
    onTestFinished(releaseClock);
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const token = manager.accessToken;
    const bare = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', { token, body: {} });
    expect(bare.status).toBe(400);
    expect(bare.body.error.fields).toEqual({ password: 'Enter your password.' });
    expect(bare.body.secret).toBeUndefined();
    // The free tries, then a wait: the same throttle as sign-in (not one more guess).
    for (let i = 0; i < THROTTLE.address.free; i++) {
      const guess = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
        token,
        body: { password: `guess-${i}` },
      });
      expect(guess.body.error.fields).toEqual({ password: BAD_PASSWORD });
    }
    expect((await signIn(stack.apiUrl, manager.email, 'one-more-guess')).status).toBe(401);
    const waiting = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { password: PASSWORD },
    });
    expect(waiting.status).toBe(429);
    expect((await api(stack.apiUrl, 'GET', '/me/secondFactor', { token })).body.totpEnabled).toBe(false);
  });

  it('confirming enrolment is not a step-up, wrong codes count, and the account is told', async () => {
    holdClock(new Date());
    onTestFinished(releaseClock);
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    await forgetStepUps(manager.userId);
    const token = manager.accessToken;
    const started = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { password: PASSWORD },
    });
    expect(started.status).toBe(200);
    for (let i = 0; i <= THROTTLE.address.free; i++) {
      const wrong = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
        token,
        body: { code: wrongCodeFor(started.body.secret) },
      });
      expect(wrong.status).toBe(400);
    }
    // Past the free tries, even the right code waits its turn, as at sign-in.
    const waiting = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
      token,
      body: { code: codeFor(started.body.secret) },
    });
    expect(waiting.status).toBe(429);
    releaseClock();
    holdClock(new Date(Date.now() + 10 * 60_000));
    const confirmed = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
      token,
      body: { code: codeFor(started.body.secret) },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    // The code proved the app was set up, not who set it up: money still asks.
    const redeem = await api(stack.apiUrl, 'POST', '/funds/redeem', {
      token,
      idempotencyKey: randomUUID(),
      body: { deletedUserIds: ['nobody-deleted'] },
    });
    expect(redeem.body.error.code).toBe('STEP_UP_REQUIRED');
    const [notice] = await mailTo(manager.email, 'An authenticator app was added to your account');
    expect(notice?.body.text).toContain('If this was not you, reset your password now');
  });

  it('turning off and new recovery codes need the password besides the code, and each is e-mailed', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret, recoveryCodes } = await enrol(manager);
    const token = manager.accessToken;
    // Even a right code (say, phished) is not enough with the token alone.
    const renew = await api(stack.apiUrl, 'POST', '/me/secondFactor/recoveryCodes', {
      token,
      body: { code: recoveryCodes[0] },
    });
    expect(renew.status).toBe(400);
    expect(renew.body.error.fields).toEqual({ password: 'Enter your password.' });
    const off = await api(stack.apiUrl, 'POST', '/auth/secondFactor/turnOff', {
      token,
      cookie: manager.sessionCookie,
      body: { code: recoveryCodes[1], password: 'not-the-password' },
    });
    expect(off.status).toBe(400);
    expect(off.body.error.fields).toEqual({ password: BAD_PASSWORD });
    expect((await api(stack.apiUrl, 'GET', '/me/secondFactor', { token })).body).toEqual({
      totpEnabled: true,
      recoveryCodesLeft: 10,
      stepUpNeeded: false,
    });

    const renewed = await api(stack.apiUrl, 'POST', '/me/secondFactor/recoveryCodes', {
      token,
      body: { code: codeFor(secret, 1), password: PASSWORD },
    });
    expect(renewed.status).toBe(200);
    expect(await mailTo(manager.email, 'New recovery codes were made for your account')).toHaveLength(1);
    const turnedOff = await api(stack.apiUrl, 'POST', '/auth/secondFactor/turnOff', {
      token,
      cookie: manager.sessionCookie,
      body: { code: renewed.body.recoveryCodes[0], password: PASSWORD },
    });
    expect(turnedOff.status).toBe(200);
    expect(await mailTo(manager.email, 'Two-step sign-in was turned off for your account')).toHaveLength(1);
  });

  it('without a password, a code e-mailed to the verified address proves it, once', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const token = manager.accessToken;
    const emailedCode = async () => {
      expect((await api(stack.apiUrl, 'POST', '/me/identityCode', { token, body: {} })).status).toBe(200);
      const mails = (await stack.mailbox.to(manager.email)).filter((m) =>
        /^Your .* code: \d{8}$/.test(m.subject),
      );
      return /\d{8}/.exec(mails.at(-1)?.subject ?? '')?.[0] ?? '';
    };
    const first = await emailedCode();
    const second = await emailedCode();
    expect(second).toMatch(/^\d{8}$/);
    // Only the newest works.
    const older = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { emailCode: first },
    });
    if (first !== second) {
      expect(older.status).toBe(400);
      expect(older.body.error.fields.emailCode).toContain('not right or has expired');
    }
    const started = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { emailCode: second },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    // Used up.
    const again = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { emailCode: second },
    });
    expect(again.status).toBe(400);
  });

  it('sends no code to an address that is not verified', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const refused = await api(stack.apiUrl, 'POST', '/me/identityCode', {
      token: manager.accessToken,
      body: {},
    });
    expect(refused.status).toBe(409);
  });
});

describe('attack 11: factor secrets readable by every function with table read', () => {
  it('the table holds the secret sealed, pending and in force, and codes still work', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const started = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token: manager.accessToken,
      body: { password: PASSWORD },
    });
    const secret = started.body.secret as string;
    const pending = await stack.getItem(keys.secondFactor(manager.userId));
    expect(JSON.stringify(pending)).not.toContain(secret);
    await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
      token: manager.accessToken,
      body: { code: codeFor(secret) },
    });
    const stored = await stack.getItem(keys.secondFactor(manager.userId));
    expect(stored?.totpSecret).toMatch(/^fk1\./);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect((await signInWithCode(manager.email, codeFor(secret, 1))).status).toBe(200);
  });

  it('a secret stored in the clear before sealing still works, and is sealed on its first use', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret } = await enrol(manager);
    // As a record written before sealing existed would read.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.secondFactor(manager.userId),
        // Its codes unused, so this test may sign in twice within the app's window.
        UpdateExpression: 'SET totpSecret = :plain REMOVE lastTotpStep',
        ExpressionAttributeValues: { ':plain': secret },
      }),
    );
    expect((await signInWithCode(manager.email, codeFor(secret))).status).toBe(200);
    const stored = await stack.getItem(keys.secondFactor(manager.userId));
    expect(stored?.totpSecret).toMatch(/^fk1\./);
    expect((await signInWithCode(manager.email, codeFor(secret, 1))).status).toBe(200);
  });
});

describe('attack 12: a code of multi-byte or direction-control characters', () => {
  it('is refused with 400 on every code route, and the enrolment it was sent to stays pending', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const token = manager.accessToken;
    const started = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp', {
      token,
      body: { password: PASSWORD },
    });
    expect(started.status).toBe(200);
    // Six characters, more than six bytes: the constant-time comparison once threw on these (500).
    const hostile = [
      'é12345',
      '\u202e12345',
      '１２３４５６',
      '12345\u200f',
      '\u0000\u0000\u0000\u0000\u0000\u0000',
    ];
    const routes: [string, Record<string, unknown>][] = [
      ['/me/secondFactor/totp/confirm', {}],
      ['/auth/secondFactor/turnOff', {}],
      ['/me/secondFactor/recoveryCodes', {}],
      ['/auth/stepUp', {}],
    ];
    for (const code of hostile) {
      for (const [path, body] of routes) {
        const res = await api(stack.apiUrl, 'POST', path, { token, body: { ...body, code } });
        expect({ path, code, status: res.status }).toEqual({ path, code, status: 400 });
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
      }
    }
    expect((await api(stack.apiUrl, 'GET', '/me/secondFactor', { token })).body.totpEnabled).toBe(false);
    const confirmed = await api(stack.apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
      token,
      body: { code: codeFor(started.body.secret) },
    });
    expect(confirmed.status).toBe(200);
  });
});

describe('signing in with a second factor', () => {
  it('asks for the code only once the password is right, and lets in with it', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret } = await enrol(manager);

    const passwordOnly = await signIn(stack.apiUrl, manager.email);
    expect(passwordOnly.status).toBe(401);
    expect(passwordOnly.body.error.code).toBe('MFA_REQUIRED');
    expect(passwordOnly.body.accessToken).toBeUndefined();

    // A wrong password says nothing about a second factor.
    const wrongPassword = await signInWithCode(manager.email, codeFor(secret, 1), 'not-the-password');
    expect(wrongPassword.body.error.code).toBe('UNAUTHENTICATED');
    expect(wrongPassword.body.error.message).toBe('Incorrect email or password.');

    const wrongCode = await signInWithCode(
      manager.email,
      '123456' === codeFor(secret, 1) ? '654321' : '123456',
    );
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body.error.fields).toEqual({ code: BAD_CODE });

    const code = codeFor(secret, 1);
    const ok = await signInWithCode(manager.email, code);
    expect(ok.status).toBe(200);
    expect((await api(stack.apiUrl, 'GET', '/me', { token: ok.body.accessToken })).status).toBe(200);
    // A code is good once: someone who saw it cannot sign in with it again.
    expect((await signInWithCode(manager.email, code)).status).toBe(401);
  });

  it('takes each recovery code once, in any case and spacing', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { recoveryCodes } = await enrol(manager);
    const [first, second] = recoveryCodes as [string, string];
    expect((await signInWithCode(manager.email, first)).status).toBe(200);
    expect((await signInWithCode(manager.email, first)).status).toBe(401);
    expect((await signInWithCode(manager.email, ` ${second.toUpperCase().replace(/-/g, ' ')} `)).status).toBe(
      200,
    );
    const status = await api(stack.apiUrl, 'GET', '/me/secondFactor', { token: manager.accessToken });
    expect(status.body.recoveryCodesLeft).toBe(8);
  });

  it('new recovery codes (with a current code) replace the old ones', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret, recoveryCodes } = await enrol(manager);
    const fresh = await api(stack.apiUrl, 'POST', '/me/secondFactor/recoveryCodes', {
      token: manager.accessToken,
      body: { code: codeFor(secret, 1), password: PASSWORD },
    });
    expect(fresh.status).toBe(200);
    expect((await signInWithCode(manager.email, recoveryCodes[0] as string)).status).toBe(401);
    expect((await signInWithCode(manager.email, fresh.body.recoveryCodes[0])).status).toBe(200);
  });

  it('an employee who enrolled is asked too', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager, 25, { mailbox: stack.mailbox });
    const { secret } = await enrol(employee);
    expect((await signIn(stack.apiUrl, employee.email)).body.error.code).toBe('MFA_REQUIRED');
    expect((await signInWithCode(employee.email, codeFor(secret, 1))).status).toBe(200);
  });
});

describe('turning the authenticator app off', () => {
  it('needs a right code, removes the secret and recovery codes, is audited, and ends every other session', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret, recoveryCodes } = await enrol(manager);
    // A second session, elsewhere.
    const elsewhere = await signInWithCode(manager.email, codeFor(secret, 1));
    expect(elsewhere.status).toBe(200);
    const elsewhereCookie = sessionCookieOf(elsewhere.headers);
    const turnOff = (code: string) =>
      api(stack.apiUrl, 'POST', '/auth/secondFactor/turnOff', {
        token: manager.accessToken,
        cookie: manager.sessionCookie,
        body: { code, password: PASSWORD },
      });

    const wrong = await turnOff('aaaa-bbbb-cccc');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ code: BAD_CODE });
    expect((await signIn(stack.apiUrl, manager.email)).body.error.code).toBe('MFA_REQUIRED');

    expect((await turnOff(recoveryCodes[0] as string)).status).toBe(200);
    // The secret and every recovery code are gone.
    const stored = await stack.getItem(keys.secondFactor(manager.userId));
    expect(stored?.totpSecret).toBeUndefined();
    expect(stored?.recoveryCodeHashes).toBeUndefined();
    // This session goes on (the app refreshes past the cut-off); the other one is over.
    const refreshed = await withSessionCookie(stack.apiUrl, '/auth/refresh', manager.sessionCookie);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const token = refreshed.body.accessToken;
    expect((await api(stack.apiUrl, 'GET', '/me/secondFactor', { token })).body).toEqual({
      totpEnabled: false,
      recoveryCodesLeft: 0,
      stepUpNeeded: false,
    });
    expect((await withSessionCookie(stack.apiUrl, '/auth/refresh', elsewhereCookie)).status).toBe(401);
    // Audited on the team's log.
    const me = await api(stack.apiUrl, 'GET', '/me', { token });
    const audit = await queryAll<{ action: string; actorId: string }>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `TEAM#${me.body.teamId}`, ':prefix': 'AUDIT#' },
    });
    expect(audit.filter((a) => a.action === 'account.secondFactorOff')).toEqual([
      expect.objectContaining({ actorId: manager.userId }),
    ]);
    // The password alone signs in again; turning it off twice is refused.
    expect((await signIn(stack.apiUrl, manager.email)).status).toBe(200);
    const again = await api(stack.apiUrl, 'POST', '/auth/secondFactor/turnOff', {
      token,
      cookie: manager.sessionCookie,
      body: { code: codeFor(secret, 2), password: PASSWORD },
    });
    expect(again.status).toBe(409);
  });

  it('takes a current code from the app too, and an employee may turn theirs off', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager, 25, { mailbox: stack.mailbox });
    const { secret } = await enrol(employee);
    const off = await api(stack.apiUrl, 'POST', '/auth/secondFactor/turnOff', {
      token: employee.accessToken,
      cookie: employee.sessionCookie,
      body: { code: codeFor(secret, 1), password: PASSWORD },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await signIn(stack.apiUrl, employee.email)).status).toBe(200);
  });
});

describe('step-up: money-moving manager actions need a fresh factor', () => {
  const redeem = (token: string, idempotencyKey = randomUUID()) =>
    api(stack.apiUrl, 'POST', '/funds/redeem', {
      token,
      idempotencyKey,
      body: { deletedUserIds: ['nobody-deleted'] },
    });

  it('refuses redeem once the sign-in factor is stale, until a code is proven; then the same request goes on', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const { secret, recoveryCodes } = await enrol(manager);
    const session = await signInWithCode(manager.email, codeFor(secret, 1));
    const token = session.body.accessToken as string;
    // Just signed in with the code: fresh. (The business answer: nobody to redeem.)
    expect((await redeem(token)).status).toBe(404);

    await forgetStepUps(manager.userId);
    const key = randomUUID();
    const refused = await redeem(token, key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('STEP_UP_REQUIRED');

    // With an authenticator, the password is not enough.
    const byPassword = await api(stack.apiUrl, 'POST', '/auth/stepUp', {
      token,
      body: { password: PASSWORD },
    });
    expect(byPassword.status).toBe(400);
    const wrong = await api(stack.apiUrl, 'POST', '/auth/stepUp', { token, body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    // The words sign-in uses for a wrong code, from the same place.
    expect(wrong.body.error.fields).toEqual({ code: BAD_CODE });
    // Every code of the app near now is spent (one per 30 s step): a recovery code proves it too.
    const proved = await api(stack.apiUrl, 'POST', '/auth/stepUp', {
      token,
      body: { code: recoveryCodes[0] },
    });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    // The retry with the same Idempotency-Key is not stuck on the refused first try.
    expect((await redeem(token, key)).status).toBe(404);
  });

  it('a manager without an authenticator steps up with the password', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    await forgetStepUps(manager.userId);
    const token = manager.accessToken;
    expect((await redeem(token)).body.error.code).toBe('STEP_UP_REQUIRED');
    const wrong = await api(stack.apiUrl, 'POST', '/auth/stepUp', { token, body: { password: 'nope-nope' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ password: BAD_PASSWORD });
    expect(
      (await api(stack.apiUrl, 'POST', '/auth/stepUp', { token, body: { password: PASSWORD } })).status,
    ).toBe(200);
    expect((await redeem(token)).status).toBe(404);
  });

  it('a refreshed token (a reload) keeps the sign-in factor as fresh as it was', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const refreshed = await withSessionCookie(stack.apiUrl, '/auth/refresh', manager.sessionCookie);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.accessToken).not.toBe(manager.accessToken);
    expect((await redeem(refreshed.body.accessToken)).status).toBe(404);
  });

  it('is per access token: proving it in one session does not free another', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const other = await signIn(stack.apiUrl, manager.email);
    await forgetStepUps(manager.userId);
    await api(stack.apiUrl, 'POST', '/auth/stepUp', {
      token: manager.accessToken,
      body: { password: PASSWORD },
    });
    expect((await redeem(manager.accessToken)).status).toBe(404);
    expect((await redeem(other.body.accessToken)).body.error.code).toBe('STEP_UP_REQUIRED');
  });

  it('asks for deposits above the threshold only, and card changes always', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    await forgetStepUps(manager.userId);
    const deposit = (dollars: number) =>
      api(stack.apiUrl, 'POST', '/funds/deposit', {
        token: manager.accessToken,
        idempotencyKey: randomUUID(),
        body: { userIds: ['someone'], amount: dollars },
      });
    const small = await deposit(STEP_UP_THRESHOLD_CENTS / 100);
    expect(small.body?.error?.code).not.toBe('STEP_UP_REQUIRED');
    const large = await deposit(STEP_UP_THRESHOLD_CENTS / 100 + 1);
    expect(large.body.error.code).toBe('STEP_UP_REQUIRED');
    const addCard = await api(stack.apiUrl, 'POST', '/billing/cards', {
      token: manager.accessToken,
      idempotencyKey: randomUUID(),
      body: { token: 'tok_visa' },
    });
    expect(addCard.body.error.code).toBe('STEP_UP_REQUIRED');
    const deleteCard = await api(stack.apiUrl, 'DELETE', '/billing/cards/card_x', {
      token: manager.accessToken,
    });
    expect(deleteCard.body.error.code).toBe('STEP_UP_REQUIRED');
    // Attack 6: every charge goes to the primary card, so choosing it is a card change too.
    const primary = await api(stack.apiUrl, 'PUT', '/billing/customer', {
      token: manager.accessToken,
      body: { defaultCardId: 'card_x' },
    });
    expect(primary.body.error.code).toBe('STEP_UP_REQUIRED');
  });

  it('never asks an employee (they move no team money)', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager, 25, { mailbox: stack.mailbox });
    await forgetStepUps(employee.userId);
    expect((await redeem(employee.accessToken)).status).toBe(403);
    expect((await redeem(employee.accessToken)).body.error.code).toBe('FORBIDDEN');
  });
});
