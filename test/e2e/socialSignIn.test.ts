/**
 * Google and Facebook sign-in in a real browser (docs/security.md "Sessions").
 * The hosted UI is the stand-in the e2e stack starts (cognito-local has none);
 * config.json offers it only on these pages (social sign-in is off locally).
 * The browser makes the PKCE pair and leaves; the code comes back to /auth/callback
 * and our API redeems it: no script ever holds a refresh token. Screenshots of
 * the sign-in page with its buttons and of the code step go to SCREENSHOT_DIR.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PASSWORD } from '../support/accountFlows';
import { codeFor, enrolAuthenticator } from '../support/authenticator';
import { launchBrowser, seriousViolations, shootAtWidths } from '../support/browser';
import type { ProviderIdentity } from '../support/hostedUiStandIn';
import { Mailbox } from '../support/integrationStack';
import { setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));
const SESSION_COOKIE = '__Secure-lb_session';

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** config.json as a deployment with Google and Facebook serves it, the hosted UI being the stand-in. */
async function offerSocialSignIn(context: BrowserContext) {
  await context.route(`${env.webUrl}/config.json`, async (route) => {
    const response = await route.fetch();
    const config = (await response.json()) as Record<string, unknown>;
    await route.fulfill({
      response,
      json: {
        ...config,
        socialProviders: ['Google', 'Facebook'],
        oauthDomain: env.hostedUiUrl,
        oauthRedirect: `${env.webUrl}/auth/callback`,
      },
    });
  });
}

/** Who the provider says is signing in, next time the hosted UI is visited. */
async function providerSignsInAs(email: string) {
  const response = await fetch(`${env.hostedUiUrl}/__next`, {
    method: 'POST',
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
}

/** A provider identity signs in next, taken as Cognito takes it (the pre-sign-up trigger on its first visit). */
async function providerSignsInWith(identity: ProviderIdentity) {
  const response = await fetch(`${env.hostedUiUrl}/__next`, {
    method: 'POST',
    body: JSON.stringify({ identity, accountPassword: PASSWORD }),
  });
  expect(response.status).toBe(200);
}

async function startWith(provider: 'Google' | 'Facebook') {
  browser = await launchBrowser();
  await offerSocialSignIn(browser.context);
  const page = await browser.context.newPage();
  await page.goto(`${env.webUrl}/login`);
  await page.getByRole('button', { name: `Sign in with ${provider}` }).click();
  return page;
}

/** Everything a script on the page can read: storage values and document.cookie. */
async function scriptReadable(page: Page): Promise<string> {
  return page.evaluate(() => {
    const values = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, i) => storage.getItem(storage.key(i) ?? '') ?? '');
    return [...values(localStorage), ...values(sessionStorage), document.cookie].join('\n');
  });
}

describe('social sign-in', () => {
  it('signs in with Google through our API: no script can read the refresh token, a reload stays signed in, Logout passes the hosted UI', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    await providerSignsInAs(manager.email);
    browser = await launchBrowser();
    await offerSocialSignIn(browser.context);
    const page = await browser.context.newPage();
    await page.goto(`${env.webUrl}/login`);
    await page.getByRole('button', { name: 'Sign in with Facebook' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'social-sign-in');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    const session = (await browser.context.cookies()).find((c) => c.name === SESSION_COOKIE);
    expect(session?.httpOnly).toBe(true);
    const refreshToken = session?.value.slice(session.value.indexOf(':') + 1) ?? '';
    expect(refreshToken.length).toBeGreaterThan(20);
    const readable = await scriptReadable(page);
    expect(readable).not.toContain(refreshToken);
    expect(readable).not.toContain('"verifier"'); // the PKCE pair is gone once used

    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(page.url()).toBe(`${env.webUrl}/dashboard`);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    await page.getByText('Logout Success!').waitFor();
    expect((await browser.context.cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    await page.goto(`${env.webUrl}/dashboard`);
    await page.waitForURL(`${env.webUrl}/`);
  }, 120_000);

  it('asks a manager with an authenticator app for the code before the session starts', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const { secret } = await enrolAuthenticator(env.apiUrl, manager);
    await providerSignsInAs(manager.email);
    const page = await startWith('Google');
    await page.getByRole('heading', { name: 'Two-step sign-in', level: 1 }).waitFor();
    expect(page.url()).toBe(`${env.webUrl}/auth/callback`); // the code is out of the address bar
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'social-sign-in-code');

    const wrong = codeFor(secret, 1) === '000000' ? '111111' : '000000';
    await page.getByLabel('Authentication code').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page
      .getByText('That code is not valid. Try the current code, or one of your recovery codes.')
      .waitFor();
    expect((await browser?.context.cookies())?.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    await page.getByLabel('Authentication code').fill(codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  }, 120_000);

  it('attack 8: Facebook’s address alone opens no account: the account’s password is asked once, then Facebook goes straight in', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    // Facebook gives no word on whether the address is verified, so it never joins on the address alone.
    const facebook: ProviderIdentity = {
      provider: 'Facebook',
      id: String(Date.now()),
      email: manager.email,
    };
    await providerSignsInWith(facebook);
    const page = await startWith('Facebook');
    await page.getByRole('heading', { name: 'Sign In', level: 1 }).waitFor();
    await page
      .getByText(
        'An account with this email already exists. Enter its password once, and from now on you can sign in with Facebook.',
      )
      .waitFor();
    expect(page.url()).toBe(`${env.webUrl}/auth/callback`);
    expect((await browser?.context.cookies())?.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'social-sign-in-password');

    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByText('That password is not right. Try again, or reset it from the sign-in page.')
      .waitFor();
    await shootAtWidths(page, 'social-sign-in-password-wrong');
    expect((await browser?.context.cookies())?.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // Joined: the next Facebook sign-in asks nothing.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    // A social session leaves through the hosted UI's /logout, which loads /login again as a new
    // page and shows the farewell there: until it does, a click on this /login is lost with it.
    await page.getByText('Logout Success!').waitFor();
    await providerSignsInWith(facebook);
    await page.getByRole('button', { name: 'Sign in with Facebook' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  }, 120_000);

  it('says why on /login when the provider sign-in did not happen', async () => {
    // Nobody queued at the provider: the hosted UI returns access_denied, as after "Cancel".
    const page = await startWith('Facebook');
    await page.waitForURL(`${env.webUrl}/login`);
    await page.getByText('Login Failed!').waitFor();
    await page.getByText('The person cancelled at the provider').waitFor();
  }, 60_000);
});
