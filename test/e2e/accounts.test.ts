/**
 * Accounts in a real browser through the whole local stack (issue #3): a
 * manager signs up and verifies by the e-mailed link; an invited employee
 * joins through the invitation's link, or asks for one with 'Enter your
 * email' (issue 24, attack 3); a wrong password is refused; a password is reset by e-mail;
 * the route guard turns an employee away from a manager page; logout.
 *
 * All browser traffic is one client for the per-client rate limits (sign-up
 * 10/hour, sign-in 20/10 min, forgot password 5/10 min), so each test makes
 * only the calls it needs. Each test has its own browser profile, so sessions
 * (the session cookie) do not leak between tests.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE_NAME } from '../../lambdas/src/platform/sessionCookie';
import { closeTourIfDue, launchBrowser, seriousViolations, shootAtWidths } from '../support/browser';
import { Mailbox } from '../support/integrationStack';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

const DEMO_MANAGER = { email: 'manager@demo.test', password: 'demo-manager-pass' };
const DEMO_EMPLOYEE = { email: 'employee@demo.test', password: 'demo-employee-pass' };

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** A fresh browser profile (empty localStorage) and a page on `path`. */
async function open(path: string): Promise<Page> {
  browser = await launchBrowser();
  const page = await browser.context.newPage();
  await page.goto(`${env.webUrl}${path}`);
  return page;
}

let counter = 0;
function uniqueEmail(who: string): string {
  counter += 1;
  return `${who}.${Date.now().toString(36)}${counter}@e2e-accounts.test`;
}

/**
 * The path and query of the newest e-mailed link to `path` (e.g. '/verify')
 * sent to `address`, waiting for the mail to arrive.
 */
async function mailedLink(address: string, path: string): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s/]+(${path.replace('/', '\\/')}\\?[^\\s]+)`);
  // Bounded just under the e2e test timeout (60 s), not by a shorter one a busy machine could miss.
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    const mails = (await mailbox.to(address)).sort((a, b) => b.at - a.at);
    for (const mail of mails) {
      const match = pattern.exec(mail.body.text ?? '');
      if (match?.[1]) return match[1];
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail with a ${path} link reached ${address}`);
}

async function api(path: string, body: unknown, token?: string): Promise<any> {
  const response = await fetch(`${env.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

async function sessionHint(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('lb.session'));
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Work Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
}

describe('manager sign-up (/register -> /registerManager -> /verifyEmail -> /verify)', () => {
  it('creates the team, signs in, and the e-mailed link verifies and leads to /setupAccount', async () => {
    const email = uniqueEmail('manager');
    const page = await open('/register');
    await page.getByRole('link', { name: /Create New Team/ }).click();
    await page.waitForURL(`${env.webUrl}/registerManager`);

    const button = page.getByRole('button', { name: 'Create Team' });
    expect(await button.isDisabled()).toBe(true);
    await page.getByText('Must include at least 8 characters').waitFor();
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Work Email').fill(email);
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Password').fill('compilers-1952');
    expect(await button.isDisabled()).toBe(false);
    await page.getByLabel('Company Name').fill('Eckert-Mauchly');
    // First with a taken address: the attempt fails and says so.
    await page.getByLabel('Work Email').fill(DEMO_MANAGER.email);
    await button.click();
    await page.getByText('Registration Failed!').waitFor();
    await page.getByLabel('Work Email').fill(email);
    await button.click();

    await page.waitForURL(`${env.webUrl}/verifyEmail`);
    await page.getByText('Confirm Email').waitFor();
    // The later sign-up worked: the earlier attempt's failure is gone, not left beside its success.
    expect(await page.getByText('Registration Failed!').count()).toBe(0);
    await page.getByText('Please check your email and verify.').waitFor();
    await page.getByRole('heading', { name: 'Verify Email Address' }).waitFor();
    await page.getByRole('button', { name: 'Resend verification email' }).waitFor();
    expect(await sessionHint(page)).toBe('{"role":"manager"}');

    const link = await mailedLink(email, '/verify');
    await page.goto(`${env.webUrl}${link}`);
    await page.waitForURL(`${env.webUrl}/setupAccount`);
    await page.getByRole('heading', { name: 'Set Up Your Account' }).waitFor();

    // The same link opened again: already verified, and a way on (not "could not verify").
    await page.goto(`${env.webUrl}${link}`);
    await page.getByRole('heading', { name: 'Your email is already verified' }).waitFor();
    expect(await page.getByText('We could not verify your email').count()).toBe(0);
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL(new RegExp(`${env.webUrl}/(dashboard|setupAccount)`));
  });
});

describe('employee sign-up with an invitation (/registerEmployee)', () => {
  let managerToken: string | undefined;
  /** Invites `email` as the demo manager (signed in once for the file's invitations). */
  async function invite(email: string, budget: number) {
    managerToken ??= (await api('/auth/signIn', DEMO_MANAGER)).accessToken as string;
    return api('/invitations', { emails: email, budget }, managerToken);
  }

  /** The /registerEmployee link (path and query) in the one e-mail to `address` whose subject matches. */
  async function invitationLink(address: string, subject: RegExp): Promise<string> {
    const deadline = Date.now() + 50_000;
    while (Date.now() < deadline) {
      const mail = (await mailbox.to(address)).find((m) => subject.test(m.subject));
      const match = /https?:\/\/[^\s/]+(\/registerEmployee\?\S+)/.exec(mail?.body.text ?? '');
      if (match?.[1]) return match[1];
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no e-mail '${subject}' with a /registerEmployee link reached ${address}`);
  }

  async function fillSignUp(page: Page) {
    await page.getByLabel('First Name').fill('Alan');
    await page.getByLabel('Last Name').fill('Turing');
    await page.getByLabel('Password').fill('enigma-machine');
    await page.getByLabel('Zip Code').fill('94110');
    await page.getByRole('button', { name: 'Join Team' }).click();
  }

  it("attack 3: the invitation e-mail's link opens the sign-up form with the address filled in; joins, verifies, lands on /shop", async () => {
    const email = uniqueEmail('employee');
    const invited = await invite(email, 30);
    expect(invited.results).toEqual([{ email, result: 'invited', budgetCents: 3000, emailed: true }]);

    // The link carries the address and the invitation's secret: straight to the form.
    const link = await invitationLink(email, /invited you to Learning Budget/);
    expect(link).toMatch(/^\/registerEmployee\?email=[^&]+&token=[A-Za-z0-9_-]{40,}$/);
    const page = await open(link);
    await page.getByRole('heading', { name: 'Join an Existing Team' }).waitFor();
    await page.getByText("You're invited! Create your account to get your learning card.").waitFor();
    const workEmail = page.getByLabel('Work Email');
    expect(await workEmail.inputValue()).toBe(email);
    expect(await workEmail.getAttribute('readonly')).not.toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'invitation-link-signup');

    await fillSignUp(page);
    await page.waitForURL(`${env.webUrl}/verifyEmail`);
    await page.getByText('Please check your email and verify.').waitFor();
    expect(await sessionHint(page)).toBe('{"role":"employee"}');

    await page.goto(`${env.webUrl}${await mailedLink(email, '/verify')}`);
    await page.waitForURL(`${env.webUrl}/shop`);
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
  });

  it("attack 3: 'Enter your email' says the same words for a stranger's and an invited address, beside 'Enter new Email' and 'Invite your manager to the product'; only the invited get a link", async () => {
    const invitedEmail = uniqueEmail('asker');
    const stranger = uniqueEmail('stranger');
    await invite(invitedEmail, 25);
    const page = await open('/registerEmployee');
    const card = page.locator('.auth-card');

    async function ask(address: string): Promise<string> {
      await page.getByLabel('Enter your email').fill(address);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await page.getByText('If you were invited, a link is on its way to that address.').waitFor();
      // Focus moves to the new card's heading, for keyboard and screen-reader users.
      await page.getByRole('heading', { name: 'Check your email' }).and(page.locator(':focus')).waitFor();
      return ((await card.textContent()) ?? '').replace(address, '<address>');
    }

    const toStranger = await ask(stranger);
    await page.getByRole('button', { name: 'Invite your manager to the product' }).click();
    await page.getByLabel("Your manager's email").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'invitation-link-sent');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

    // 'Enter new Email' clears the check; an invited address gets the very same card.
    await page.getByRole('button', { name: 'Enter new Email' }).click();
    expect(await page.getByLabel('Enter your email').inputValue()).toBe('');
    const toInvited = await ask(invitedEmail);
    await page.getByRole('button', { name: 'Invite your manager to the product' }).click();
    await page.getByLabel("Your manager's email").waitFor();
    expect(toInvited).toBe(toStranger);

    // Only the mailbox knows: the invited address got its link, which opens the form.
    const link = await invitationLink(invitedEmail, /Your link to join Northwind Learning/);
    expect(await mailbox.to(stranger)).toEqual([]);
    await page.goto(`${env.webUrl}${link}`);
    await page.getByText("You're invited! Create your account to get your learning card.").waitFor();
    expect(await page.getByLabel('Work Email').inputValue()).toBe(invitedEmail);
  });

  it("a link the manager's newer invitation replaced comes back to 'Enter your email' with the address kept, and says why", async () => {
    const email = uniqueEmail('reinvited');
    await invite(email, 30);
    const older = await invitationLink(email, /invited you to Learning Budget/);
    await invite(email, 45);
    await invitationLink(email, /updated your invitation/);

    const page = await open(older);
    await fillSignUp(page);
    await page
      .getByRole('alert')
      .filter({ hasText: 'This invitation link has expired or was replaced by a newer one.' })
      .waitFor();
    const step1 = page.getByLabel('Enter your email');
    expect(await step1.inputValue()).toBe(email);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'invitation-link-refused');
    // Nothing was made with the old link: the address can still be signed up with a new one.
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const fresh = await invitationLink(email, /Your link to join/);
    await page.goto(`${env.webUrl}${fresh}`);
    await fillSignUp(page);
    await page.waitForURL(`${env.webUrl}/verifyEmail`);
  });
});

/** Whether two on-screen boxes share any pixel. */
function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
type Box = { x: number; y: number; width: number; height: number };

async function box(locator: ReturnType<Page['locator']>): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
}

describe('sign-in (/login)', () => {
  it('shows a repeated failure once, beside the form rather than over it on a phone, and a later sign-in takes it away', async () => {
    browser = await launchBrowser({ width: 375, height: 740 });
    const page = await browser.context.newPage();
    await page.goto(`${env.webUrl}/login`);
    // On a phone the notices have a place kept for them: the form stays where the finger left it.
    const submit = page.getByRole('button', { name: 'Sign In' });
    await submit.waitFor();
    const formAt = (await box(submit)).y;
    await signIn(page, DEMO_EMPLOYEE.email, 'not-the-password');
    await page.getByText('Login Failed!').waitFor();
    expect((await box(submit)).y).toBe(formAt);
    await page.locator('.pub-toast').evaluate((toast) => toast.setAttribute('data-first', ''));
    await page.getByLabel('Password', { exact: true }).press('Enter');
    // The second answer's notice replaced the first: still one, not a stack.
    await page.locator('.pub-toast:not([data-first])').waitFor();
    expect(await page.getByText('Login Failed!').count()).toBe(1);

    const notice = await box(page.locator('.pub-toast'));
    for (const part of [
      page.getByRole('heading', { name: 'Sign In' }),
      page.getByLabel('Work Email'),
      page.getByLabel('Password', { exact: true }),
      page.getByRole('button', { name: 'Sign In' }),
    ]) {
      expect(overlaps(notice, await box(part))).toBe(false);
    }
    expect((await box(submit)).y).toBe(formAt);
    await page.getByRole('button', { name: 'Dismiss notification' }).click();
    await page.locator('.pub-toast').waitFor({ state: 'detached' });
    expect((await box(submit)).y).toBe(formAt);

    await page.getByLabel('Password', { exact: true }).fill(DEMO_EMPLOYEE.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    expect(await page.getByText('Login Failed!').count()).toBe(0);
  });

  it("shows 'Login Failed!' with the server's message for a wrong password and stays on /login", async () => {
    const page = await open('/login');
    await signIn(page, DEMO_MANAGER.email, 'not-the-password');
    await page.getByText('Login Failed!').waitFor();
    await page.getByText('Incorrect email or password.').waitFor();
    expect(page.url()).toBe(`${env.webUrl}/login`);
    expect(await sessionHint(page)).toBeNull();
  });
});

describe('password recovery (/forgotpassword)', () => {
  it('e-mails a reset link; the new password works for signing in', async () => {
    const email = uniqueEmail('reset');
    await api('/auth/registerManager', {
      firstName: 'Margaret',
      lastName: 'Hamilton',
      email,
      password: 'old-password-1',
      company: 'Apollo Guidance',
    });

    const page = await open('/forgotpassword');
    await page.getByRole('heading', { name: 'Password Recovery' }).waitFor();
    await page.getByLabel('Work Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send Instructions' }).click();
    await page.getByText('Valid email is required!').waitFor();
    await page.getByLabel('Work Email').fill(email);
    await page.getByRole('button', { name: 'Send Instructions' }).click();
    await page.getByText('We sent you an email with the instructions').waitFor();

    await page.goto(`${env.webUrl}${await mailedLink(email, '/forgotpassword')}`);
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('New Password').fill('new-password-2');
    await page.getByLabel('Confirm Password').fill('new-password-3');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Passwords do not match!').waitFor();
    await page.getByLabel('Confirm Password').fill('new-password-2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password update request is sent').waitFor();

    await page.locator('#main').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    await signIn(page, email, 'new-password-2');
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // Never verified: the dashboard asks for it.
    await page.getByText('Please verify your email address').waitFor();
  });
});

describe('route guards and logout', () => {
  it('sends the demo employee from /dashboard/employees to /, and logout goes to /login', async () => {
    const page = await open('/login');
    await signIn(page, DEMO_EMPLOYEE.email, DEMO_EMPLOYEE.password);
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await closeTourIfDue(page);
    expect(await sessionHint(page)).toBe('{"role":"employee"}');
    // Verified: no banner. Manager-only menu entries are not offered.
    expect(await page.getByText('Please verify your email address').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Employees' }).count()).toBe(0);

    // Typing the address: a full page load restores the session, then the guard decides.
    await page.goto(`${env.webUrl}/dashboard/employees`);
    await page.waitForURL(`${env.webUrl}/`);

    await page.goto(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    await page.getByText('Logout Success!').waitFor();
    expect(await sessionHint(page)).toBeNull();
    await page.getByLabel('Work Email').waitFor();
    // Back to the signed-in page: signed out, its guard sends the visitor to / (spec §2), not /login.
    await page.goBack();
    await page.waitForURL(`${env.webUrl}/`);
  });
});

describe('the session lives in an HttpOnly cookie', () => {
  /** Every value the page's scripts can read: localStorage, sessionStorage and document.cookie. */
  async function scriptReadable(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const values = [document.cookie];
      for (const store of [localStorage, sessionStorage]) {
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i) ?? '';
          values.push(`${key}=${store.getItem(key) ?? ''}`);
        }
      }
      return values;
    });
  }

  it('keeps the refresh token out of every script’s reach; a reload stays signed in, and after sign-out a reload is signed out', async () => {
    const email = uniqueEmail('cookie');
    await api('/auth/registerManager', {
      firstName: 'Radia',
      lastName: 'Perlman',
      email,
      password: 'spanning-tree-1',
      company: 'Layer Two',
    });
    const page = await open('/login');
    await signIn(page, email, 'spanning-tree-1');
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await closeTourIfDue(page);

    // Chromium keeps a Secure cookie set over http://127.0.0.1 (loopback counts as secure).
    const context = browser?.context;
    const [cookie, ...others] =
      (await context?.cookies())?.filter((c) => c.name === SESSION_COOKIE_NAME) ?? [];
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth' });
    const refreshToken = cookie?.value.slice(cookie.value.indexOf(':') + 1) ?? '';
    expect(refreshToken.length).toBeGreaterThan(20);
    const readable = await scriptReadable(page);
    expect(readable.filter((value) => value.includes(refreshToken))).toEqual([]);
    expect(readable.filter((value) => value.includes(SESSION_COOKIE_NAME))).toEqual([]);

    // A reload restores the session from the cookie alone.
    const refreshed = page.waitForResponse((r) => r.url() === `${env.apiUrl}/auth/refresh` && r.ok());
    await page.reload();
    await refreshed;
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(page.url()).toBe(`${env.webUrl}/dashboard`);

    const signedOut = page.waitForResponse((r) => r.url() === `${env.apiUrl}/auth/signOut`);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    await page.getByText('Logout Success!').waitFor();
    expect((await signedOut).status()).toBe(200);
    expect((await context?.cookies())?.some((c) => c.name === SESSION_COOKIE_NAME)).toBe(false);
    // Signed out for good: even told a session may exist, the app's refresh is refused
    // (no cookie left), and the guard sends the visitor to the landing page.
    await page.evaluate(() => localStorage.setItem('lb.auth', JSON.stringify({ kind: 'password' })));
    const refused = page.waitForResponse((r) => r.url() === `${env.apiUrl}/auth/refresh`);
    await page.goto(`${env.webUrl}/dashboard`);
    expect((await refused).status()).toBe(401);
    await page.waitForURL(`${env.webUrl}/`);
    expect(await page.evaluate(() => localStorage.getItem('lb.auth'))).toBeNull();
  });
});
