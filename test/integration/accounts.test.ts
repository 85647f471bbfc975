import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditDetails } from '@shared/domain/auditLog';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../lambdas/src/data/client';
import { keys } from '../../lambdas/src/data/keys';
import { SESSION_COOKIE_NAME } from '../../lambdas/src/platform/sessionCookie';
import {
  api,
  inviteAndRegisterEmployee,
  linkToken,
  PASSWORD,
  registerManager,
  sessionCookieOf,
  signIn,
  uniqueEmail,
  withSessionCookie,
} from '../support/accountFlows';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('manager sign-up and e-mail verification', () => {
  it('creates the team and manager, e-mails a single-use /verify link, and verifies once', async () => {
    const email = uniqueEmail('mgr');
    const res = await postJson(`${stack.apiUrl}/auth/registerManager`, {
      firstName: 'Mary',
      lastName: 'Jackson',
      email,
      password: PASSWORD,
      company: 'Langley Learning',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ userId: expect.any(String), role: 'manager' });

    const user = await stack.getItem(keys.user(res.body.userId));
    expect(user).toMatchObject({ role: 'manager', status: 'active', emailVerified: false, email });
    const team = await stack.getItem(keys.team(user?.teamId as string));
    expect(team).toMatchObject({ name: 'Langley Learning', managerId: res.body.userId });
    expect(await stack.getItem(keys.emailClaim(email))).toMatchObject({ userId: res.body.userId });

    // Signing in before verification is allowed (spec), and /me says unverified.
    const session = await signIn(stack.apiUrl, email);
    expect(session.status).toBe(200);
    const me = await api(stack.apiUrl, 'GET', '/me', { token: session.body.accessToken });
    // A new team has no billing yet, and the tour has not been seen.
    expect(me.body).toMatchObject({
      emailVerified: false,
      role: 'manager',
      teamStatus: 'setup',
      finishedWalkthrough: false,
    });
    const tourDone = await api(stack.apiUrl, 'POST', '/me/walkthrough', {
      token: session.body.accessToken,
      body: {},
    });
    expect(tourDone.status).toBe(200);
    expect(
      (await api(stack.apiUrl, 'GET', '/me', { token: session.body.accessToken })).body.finishedWalkthrough,
    ).toBe(true);

    const token = await linkToken(stack.mailbox, email, '/verify');
    const verified = await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token });
    expect(verified.body).toEqual({ role: 'manager', alreadyVerified: false });
    expect(
      (await api(stack.apiUrl, 'GET', '/me', { token: session.body.accessToken })).body.emailVerified,
    ).toBe(true);

    // The same link again (a second click): verified already, said so; not "invalid".
    const again = await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ role: 'manager', alreadyVerified: true });
    // A link nobody was sent tells a stranger nothing: the same refusal as ever.
    const unknown = await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token: 'x'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('This link is invalid or has expired. Please request a new one.');
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const res = await postJson(`${stack.apiUrl}/auth/registerManager`, {
      firstName: 'Copy',
      lastName: 'Cat',
      email: manager.email.toUpperCase(),
      password: PASSWORD,
      company: 'Other',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('An account with this email already exists. Please sign in.');
  });

  it('validates on the server with the shared rules and stores nothing', async () => {
    const email = uniqueEmail('bad');
    const res = await postJson(`${stack.apiUrl}/auth/registerManager`, {
      firstName: ' ',
      lastName: 'X',
      email,
      password: 'short',
      company: '',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({
      firstName: 'First name is required',
      password: 'Password must be at least 8 characters',
      company: 'Company name is required',
    });
    expect(await stack.getItem(keys.emailClaim(email))).toBeUndefined();
  });

  it('resends the verification e-mail to a signed-in, unverified user; the old link still works once', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const before = (await stack.mailbox.to(manager.email)).length;
    const res = await api(stack.apiUrl, 'POST', '/auth/resendVerification', {
      token: manager.accessToken,
      body: {},
    });
    expect(res.status).toBe(200);
    expect((await stack.mailbox.to(manager.email)).length).toBe(before + 1);
  });
});

describe('invitations and employee sign-up', () => {
  it('needs a verified manager, skips registered people, and sends an invitation with the /registerEmployee link', async () => {
    const unverified = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const refused = await api(stack.apiUrl, 'POST', '/invitations', {
      token: unverified.accessToken,
      body: { emails: uniqueEmail('x'), budget: 25 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('EMAIL_NOT_VERIFIED');

    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const a = uniqueEmail('a');
    const b = uniqueEmail('b');
    const res = await api(stack.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: ` ${a}, ,${b.toUpperCase()},${manager.email}, not-an-email `, budget: '$40' },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { email: a, result: 'invited', budgetCents: 4000, emailed: true },
      { email: b, result: 'invited', budgetCents: 4000, emailed: true },
      { email: manager.email, result: 'alreadyRegistered' },
      { email: 'not-an-email', result: 'invalidEmail' },
    ]);
    expect(await stack.getItem(keys.invitation(a))).toMatchObject({ budgetCents: 4000 });
    const [mail] = await stack.mailbox.to(a);
    expect(mail?.body.text).toContain('/registerEmployee?email=');
    expect(mail?.body.text).toContain('a monthly learning budget of $40.00 to spend on');
  });

  it('words the invitation for a $0 budget as not set yet, not as $0.00 a month', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const invited = uniqueEmail('zero');
    const res = await api(stack.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: invited, budget: '0' },
    });
    expect(res.body.results).toEqual([{ email: invited, result: 'invited', budgetCents: 0, emailed: true }]);
    expect(await stack.getItem(keys.invitation(invited))).toMatchObject({ budgetCents: 0 });
    const [mail] = await stack.mailbox.to(invited);
    expect(mail?.body.text).toContain(
      'You will get a virtual prepaid card to spend on books, audiobooks, courses and assessments. Your monthly learning budget is not set yet; Mary Manager will set it.',
    );
    expect(mail?.body.text).not.toContain('$0.00');
    expect(mail?.body.text).toContain('/registerEmployee?email=');
  });

  it('inviting again says which budget the new one replaced, and the e-mail says it replaces the earlier one', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const alex = uniqueEmail('alex');
    const inviteAlex = (budget: number) =>
      api(stack.apiUrl, 'POST', '/invitations', {
        token: manager.accessToken,
        body: { emails: alex, budget },
      });
    expect((await inviteAlex(40)).body.results).toEqual([
      { email: alex, result: 'invited', budgetCents: 4000, emailed: true },
    ]);
    const again = await inviteAlex(60);
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual([
      { email: alex, result: 'reinvited', budgetCents: 6000, previousBudgetCents: 4000, emailed: true },
    ]);
    expect(await stack.getItem(keys.invitation(alex))).toMatchObject({ budgetCents: 6000 });
    const log = await api(stack.apiUrl, 'GET', '/team/audit?kind=people', { token: manager.accessToken });
    expect(auditDetails(log.body.events[0])).toBe(`${alex} (budget $40.00 → $60.00)`);
    expect((await inviteAlex(60)).body.results).toEqual([
      { email: alex, result: 'reinvited', budgetCents: 6000, previousBudgetCents: 6000, emailed: true },
    ]);

    const [first, second, third] = await stack.mailbox.to(alex);
    expect(first?.subject).toBe('Mary Manager invited you to Learning Budget');
    expect(first?.body.text).not.toContain('replaces');
    expect(second?.subject).toBe('Mary Manager updated your invitation to Learning Budget');
    expect(second?.body.text).toContain(
      'This invitation replaces the one Mary Manager sent you before: your monthly budget is now $60.00 instead of $40.00.',
    );
    expect(second?.body.text).toContain('/registerEmployee?email=');
    expect(third?.body.text).toContain(
      'This invitation replaces the one Mary Manager sent you before; nothing else changed.',
    );
  });

  it('makes the invited person an active member of the team and consumes the invitation', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager, 30);
    const record = await stack.getItem(keys.user(employee.userId));
    const managerRecord = await stack.getItem(keys.user(manager.userId));
    expect(record).toMatchObject({
      role: 'employee',
      status: 'active',
      teamId: managerRecord?.teamId,
      budgetCents: 3000,
      zip: '94110',
    });
    expect(await stack.getItem(keys.invitation(employee.email))).toBeUndefined();
    // Registered now: cannot sign up again (not even with the link), nor be invited again.
    const again = await postJson(`${stack.apiUrl}/auth/registerEmployee`, {
      firstName: 'E',
      lastName: 'E',
      email: employee.email,
      password: PASSWORD,
      zip: '94110',
      token: await linkToken(stack.mailbox, employee.email, '/registerEmployee'),
    });
    expect(again.status).toBe(409);
    const reinvite = await api(stack.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: employee.email },
    });
    expect(reinvite.body.results).toEqual([{ email: employee.email, result: 'alreadyRegistered' }]);
  });

  it('leaves another team’s pending invitation alone until it is stale', async () => {
    const first = await registerManager(stack.apiUrl, stack.mailbox);
    const second = await registerManager(stack.apiUrl, stack.mailbox);
    const person = uniqueEmail('sought');
    const invite = (manager: typeof first, budget: number) =>
      api(stack.apiUrl, 'POST', '/invitations', {
        token: manager.accessToken,
        body: { emails: person, budget },
      });

    expect((await invite(first, 30)).body.results).toEqual([
      { email: person, result: 'invited', budgetCents: 3000, emailed: true },
    ]);
    const firstTeam = (await stack.getItem(keys.invitation(person)))?.teamId;
    expect((await invite(second, 90)).body.results).toEqual([
      { email: person, result: 'invitedByAnotherTeam' },
    ]);
    expect(await stack.getItem(keys.invitation(person))).toMatchObject({
      teamId: firstTeam,
      budgetCents: 3000,
    });
    expect(await stack.mailbox.to(person)).toHaveLength(1);
    expect((await invite(first, 40)).body.results).toEqual([
      { email: person, result: 'reinvited', budgetCents: 4000, previousBudgetCents: 3000, emailed: true },
    ]);

    // Thirty-one days on, the first team's invitation is stale and the newer one wins.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invitation(person),
        UpdateExpression: 'SET invitedAt = :old',
        ExpressionAttributeValues: { ':old': new Date(Date.now() - 31 * 86_400_000).toISOString() },
      }),
    );
    // Taken over from another team: for this team a new invitation, no earlier budget of its own.
    expect((await invite(second, 90)).body.results).toEqual([
      { email: person, result: 'invited', budgetCents: 9000, emailed: true },
    ]);
    const taken = await stack.getItem(keys.invitation(person));
    expect(taken).toMatchObject({ budgetCents: 9000 });
    expect(taken?.teamId).not.toBe(firstTeam);
  });

  it('refuses sign-up without an invitation link, whether or not the address is invited', async () => {
    const res = await postJson(`${stack.apiUrl}/auth/registerEmployee`, {
      firstName: 'No',
      lastName: 'Invite',
      email: uniqueEmail('uninvited'),
      password: PASSWORD,
      zip: '10001',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      token: 'Open the link in your invitation email to join your team',
    });
  });

  it('lets one invitation make exactly one member, even when two sign-ups race', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const email = uniqueEmail('race');
    await api(stack.apiUrl, 'POST', '/invitations', { token: manager.accessToken, body: { emails: email } });
    const token = await linkToken(stack.mailbox, email, '/registerEmployee');
    const attempt = () =>
      postJson(`${stack.apiUrl}/auth/registerEmployee`, {
        firstName: 'R',
        lastName: 'Acer',
        email,
        password: PASSWORD,
        zip: '10001',
        token,
      });
    const results = await Promise.all([attempt(), attempt(), attempt()]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
  });

  it("e-mails the manager when an uninvited person clicks 'Invite your manager to the product'", async () => {
    const boss = uniqueEmail('boss');
    const res = await postJson(`${stack.apiUrl}/auth/inviteManager`, {
      managerEmail: boss,
      fromName: 'Ada',
      fromEmail: 'ada@example.com',
    });
    expect(res.status).toBe(200);
    const [mail] = await stack.mailbox.to(boss);
    expect(mail?.body.text).toContain('/registerManager');
    // Only the name: the address they typed is free text we do not pass on.
    expect(mail?.body.text).toContain('Ada would like your team to use Learning Budget.');
    expect(mail?.body.text).not.toContain('ada@example.com');
  });
});

describe('sign-in and sessions', () => {
  it('refuses a wrong password, an unknown e-mail and a deleted account with the same message', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const wrong = await signIn(stack.apiUrl, manager.email, 'not-the-password');
    const unknown = await signIn(stack.apiUrl, uniqueEmail('ghost'));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe('Incorrect email or password.');
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
  });

  it('records lastLogin', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const record = await stack.getItem(keys.user(manager.userId));
    expect(Date.parse(String(record?.lastLogin))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refreshes a live session and refuses a refresh token we did not issue', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const ok = await withSessionCookie(stack.apiUrl, '/auth/refresh', manager.sessionCookie);
    expect(ok.status).toBe(200);
    expect(ok.body.accessToken).toEqual(expect.any(String));
    const forged = `${SESSION_COOKIE_NAME}=${manager.userId}:forged-token`;
    const bad = await withSessionCookie(stack.apiUrl, '/auth/refresh', forged);
    expect(bad.status).toBe(401);
  });
});

describe('sign-out', () => {
  it('ends every session of the account: every refresh token stops working', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const other = sessionCookieOf((await signIn(stack.apiUrl, manager.email)).headers);
    const out = await withSessionCookie(stack.apiUrl, '/auth/signOut', manager.sessionCookie);
    expect(out.status).toBe(200);
    const refused = await withSessionCookie(stack.apiUrl, '/auth/refresh', manager.sessionCookie);
    expect(refused.status).toBe(401);
    const elsewhere = await withSessionCookie(stack.apiUrl, '/auth/refresh', other);
    // (Access tokens issued before the sign-out's second are refused too: loadActor, sessionsValidAfter.)
    expect(elsewhere.status).toBe(401);
    // Signing in again starts afresh.
    expect((await signIn(stack.apiUrl, manager.email)).status).toBe(200);
  });

  it('needs a live session: a stranger knowing the e-mail cannot sign anyone out', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const guessed = `${SESSION_COOKIE_NAME}=${manager.userId}:not-a-real-token`;
    expect((await withSessionCookie(stack.apiUrl, '/auth/signOut', guessed)).status).toBe(200);
    expect((await withSessionCookie(stack.apiUrl, '/auth/signOut', '')).status).toBe(200);
    expect((await api(stack.apiUrl, 'GET', '/me', { token: manager.accessToken })).status).toBe(200);
    expect((await withSessionCookie(stack.apiUrl, '/auth/refresh', manager.sessionCookie)).status).toBe(200);
  });
});

describe('social sign-in (the pre-sign-up trigger’s decision)', () => {
  it('links a verified provider e-mail to the existing verified account, refuses unknown and deleted ones', async () => {
    const { decideSocialSignUp, NO_ACCOUNT_FOR_SOCIAL } = await import(
      '../../lambdas/src/services/accounts/socialSignIn'
    );
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    expect(await decideSocialSignUp({ email: manager.email.toUpperCase(), email_verified: 'true' })).toEqual({
      action: 'link',
      email: manager.email,
    });
    expect(await decideSocialSignUp({ email: uniqueEmail('stranger'), email_verified: 'true' })).toEqual({
      action: 'refuse',
      message: NO_ACCOUNT_FOR_SOCIAL,
    });
    expect((await decideSocialSignUp({})).action).toBe('refuse');
    await api(stack.apiUrl, 'DELETE', `/users/${manager.userId}`, { token: manager.accessToken });
    expect((await decideSocialSignUp({ email: manager.email, email_verified: 'true' })).action).toBe(
      'refuse',
    );
  });

  it('attack 8: links only when both the account’s address and the provider’s are verified; otherwise the password is asked', async () => {
    const { decideSocialSignUp } = await import('../../lambdas/src/services/accounts/socialSignIn');
    const { handler } = await import('../../lambdas/src/triggers/preSignUp');
    const verified = await registerManager(stack.apiUrl, stack.mailbox);
    const squatted = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const ask = (email: string) => ({ action: 'askPassword', email });
    // Registered first, never verified: the owner's Google sign-in does not join it.
    expect(await decideSocialSignUp({ email: squatted.email, email_verified: 'true' })).toEqual(
      ask(squatted.email),
    );
    // Facebook says nothing about the address; Google may say it is not verified.
    expect(await decideSocialSignUp({ email: verified.email })).toEqual(ask(verified.email));
    expect(await decideSocialSignUp({ email: verified.email, email_verified: 'false' })).toEqual(
      ask(verified.email),
    );
    expect(await decideSocialSignUp({ email: verified.email, email_verified: 'True ' })).toEqual(
      ask(verified.email),
    );
    // The trigger then links nothing (no call to the pool) and lets Cognito keep the sign-in apart.
    const event = {
      triggerSource: 'PreSignUp_ExternalProvider',
      userName: 'Facebook_1',
      userPoolId: 'us-east-1_nowhere',
      request: { userAttributes: { email: verified.email } },
      response: {},
    };
    expect(await handler(event as never)).toBe(event);
  });

  it('lets our own e-mail sign-ups pass the trigger untouched', async () => {
    const { handler } = await import('../../lambdas/src/triggers/preSignUp');
    const event = {
      triggerSource: 'PreSignUp_SignUp',
      userName: 'x',
      request: { userAttributes: {} },
      response: {},
    };
    expect(await handler(event as never)).toBe(event);
    await expect(
      handler({
        ...event,
        triggerSource: 'PreSignUp_ExternalProvider',
        userName: 'Google_1',
        request: { userAttributes: { email: uniqueEmail('nobody'), email_verified: 'true' } },
      } as never),
    ).rejects.toThrow('There is no account for this email yet');
  });
});

describe('password recovery', () => {
  it('answers the same for unknown addresses and sends no e-mail', async () => {
    const nobody = uniqueEmail('nobody');
    const res = await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: nobody });
    expect(res.status).toBe(200);
    expect(await stack.mailbox.to(nobody)).toHaveLength(0);
  });

  it("uses the spec's message for a malformed address", async () => {
    const res = await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: 'nope' });
    expect(res.body.error.fields.email).toBe('Valid email is required!');
  });

  it('resets with the e-mailed single-use link and ends every other session', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const other = await signIn(stack.apiUrl, manager.email);
    await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: manager.email });
    const token = await linkToken(stack.mailbox, manager.email, '/forgotpassword');

    const weak = await postJson(`${stack.apiUrl}/auth/resetPassword`, {
      token,
      password: 'short',
      confirmPassword: 'short',
    });
    expect(weak.status).toBe(400);
    // spec §5 "Reset": the two entries must match, on the server too; the link is not used up.
    const mismatched = await postJson(`${stack.apiUrl}/auth/resetPassword`, {
      token,
      password: 'a brand new secret',
      confirmPassword: 'a brand new secreT',
    });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error.fields).toEqual({ confirmPassword: 'Passwords do not match!' });
    expect((await signIn(stack.apiUrl, manager.email)).status).toBe(200);

    // Sessions end at whole seconds (tokens' `iat`), so a reset in the very second a token was issued
    // spares it (docs/security.md, Sessions). Wait for the clock to leave that second, not a fixed time.
    const lastIssuedSecond = Math.floor(Date.now() / 1000);
    await vi.waitUntil(() => Math.floor(Date.now() / 1000) > lastIssuedSecond, {
      timeout: 5_000,
      interval: 20,
    });
    const reset = await postJson(`${stack.apiUrl}/auth/resetPassword`, {
      token,
      password: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(reset.status).toBe(200);
    expect(
      (
        await postJson(`${stack.apiUrl}/auth/resetPassword`, {
          token,
          password: 'another one!',
          confirmPassword: 'another one!',
        })
      ).status,
    ).toBe(404);

    expect((await signIn(stack.apiUrl, manager.email)).status).toBe(401);
    expect((await signIn(stack.apiUrl, manager.email, 'a brand new secret')).status).toBe(200);
    // The sessions from before the reset are over: API calls and refreshes are refused.
    expect((await api(stack.apiUrl, 'GET', '/me', { token: other.body.accessToken })).status).toBe(401);
    const refresh = await withSessionCookie(stack.apiUrl, '/auth/refresh', sessionCookieOf(other.headers));
    expect(refresh.status).toBe(401);
  });

  it('ends an older reset link when a newer one is sent, and every link when the password changes', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const reset = (token: string, password: string) =>
      postJson(`${stack.apiUrl}/auth/resetPassword`, { token, password, confirmPassword: password });
    await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: manager.email });
    const older = await linkToken(stack.mailbox, manager.email, '/forgotpassword');
    await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: manager.email });
    const newer = await linkToken(stack.mailbox, manager.email, '/forgotpassword');
    expect(newer).not.toBe(older);
    const refused = await reset(older, 'an older link secret');
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe('This link is invalid or has expired. Please request a new one.');

    // A link sent, then the password changed while signed in: the link would undo the change.
    const signedIn = await signIn(stack.apiUrl, manager.email);
    const changed = await api(stack.apiUrl, 'POST', '/auth/changePassword', {
      token: signedIn.body.accessToken,
      body: {
        currentPassword: PASSWORD,
        password: 'changed while signed in',
        confirmPassword: 'changed while signed in',
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await reset(newer, 'a late link secret')).status).toBe(404);
    expect((await signIn(stack.apiUrl, manager.email, 'changed while signed in')).status).toBe(200);
  });

  it('refuses an expired or unknown link', async () => {
    const res = await postJson(`${stack.apiUrl}/auth/resetPassword`, {
      token: 'x'.repeat(43),
      password: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('This link is invalid or has expired. Please request a new one.');
  });
});

describe('profiles', () => {
  it("lets a manager set an employee's next-cycle budget and names, audited; this cycle's budget stays", async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager, 25);
    const res = await api(stack.apiUrl, 'PUT', `/users/${employee.userId}`, {
      token: manager.accessToken,
      body: { firstName: 'Edna', lastName: 'Employee', jobRole: 'Engineering', budget: '$50' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Edna',
      jobRole: 'Engineering',
      budgetCents: 2500,
      nextBudgetCents: 5000,
    });
    const teamId = (await stack.getItem(keys.user(manager.userId)))?.teamId as string;
    const { listAudit } = await import('../../lambdas/src/data/audit');
    const audit = await listAudit(teamId);
    expect(audit.find((e) => e.action === 'employee.updated')).toMatchObject({
      actorId: manager.userId,
      targetId: employee.userId,
      after: expect.objectContaining({ nextBudgetCents: 5000 }),
    });
  });

  it('refuses a budget from an employee, and a fractional budget from anyone', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager);
    const own = await api(stack.apiUrl, 'PUT', `/users/${employee.userId}`, {
      token: employee.accessToken,
      body: { firstName: 'E', lastName: 'E', budget: 500 },
    });
    expect(own.status).toBe(403);
    const fractional = await api(stack.apiUrl, 'PUT', `/users/${employee.userId}`, {
      token: manager.accessToken,
      body: { firstName: 'E', lastName: 'E', budget: '25.50' },
    });
    expect(fractional.status).toBe(400);
    expect(fractional.body.error.fields.budget).toBe('Budget must be a whole number of dollars');
  });

  it('hides other teams and teammates behind 404', async () => {
    const managerA = await registerManager(stack.apiUrl, stack.mailbox);
    const managerB = await registerManager(stack.apiUrl, stack.mailbox);
    const employeeA = await inviteAndRegisterEmployee(stack.apiUrl, managerA);
    const employeeA2 = await inviteAndRegisterEmployee(stack.apiUrl, managerA);
    expect(
      (await api(stack.apiUrl, 'GET', `/users/${employeeA.userId}`, { token: managerB.accessToken })).status,
    ).toBe(404);
    expect(
      (await api(stack.apiUrl, 'GET', `/users/${employeeA2.userId}`, { token: employeeA.accessToken }))
        .status,
    ).toBe(404);
    expect(
      (await api(stack.apiUrl, 'GET', `/users/${managerA.userId}`, { token: employeeA.accessToken })).status,
    ).toBe(404);
    expect(
      (await api(stack.apiUrl, 'GET', `/users/${employeeA.userId}`, { token: managerA.accessToken })).status,
    ).toBe(200);
  });

  it('soft-deletes: the person can no longer sign in or call the API; a manager with employees cannot leave', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager);
    const managerLeaves = await api(stack.apiUrl, 'DELETE', `/users/${manager.userId}`, {
      token: manager.accessToken,
    });
    expect(managerLeaves.status).toBe(422);

    const res = await api(stack.apiUrl, 'DELETE', `/users/${employee.userId}`, {
      token: manager.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('deleted');
    expect(await stack.getItem(keys.user(employee.userId))).toMatchObject({ status: 'deleted' });
    expect((await api(stack.apiUrl, 'GET', '/me', { token: employee.accessToken })).status).toBe(401);
    expect((await signIn(stack.apiUrl, employee.email)).status).toBe(401);

    // With no active employees left, the manager may delete their own account.
    expect(
      (await api(stack.apiUrl, 'DELETE', `/users/${manager.userId}`, { token: manager.accessToken })).status,
    ).toBe(200);
  });
});
