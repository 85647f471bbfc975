/**
 * The route guard says why it turns someone away, and signing in comes back
 * to the page (issue 25, "rough edges"): before, a visitor, a person whose
 * session had ended, and an employee on a manager's page all landed on the
 * home page without a word, and signing in always went to the dashboard.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, PASSWORD, sessionCookieOf, signIn, withSessionCookie } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** A notice on the public pages (their light toaster) or in the console (Mantine's). */
const notice = (page: import('playwright-core').Page, text: string) => page.getByText(text).first();

describe('the route guard', () => {
  it('tells a visitor to sign in, and signing in opens the page they asked for', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
    await page.waitForURL(`${env.webUrl}/`);
    await notice(page, 'Please sign in to open that page; you will come back to it.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'guard-sign-in');
    await page.goto(`${env.webUrl}/login`);
    await page.getByLabel('Work Email').fill(manager.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${env.webUrl}/dashboard/purchasehistory`);
  });

  it('says the session ended when it did, and signing in again comes back', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/creditcard`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // Elsewhere, the owner signs out everywhere: this browser's session ends with the others.
    const elsewhere = await signIn(env.apiUrl, manager.email);
    const out = await withSessionCookie(env.apiUrl, '/auth/signOut', sessionCookieOf(elsewhere.headers));
    expect(out.status).toBe(200);
    await page.reload();
    await page.waitForURL(`${env.webUrl}/`);
    await notice(
      page,
      'Your session has ended. Please sign in again; you will come back to this page.',
    ).waitFor();
    await page.goto(`${env.webUrl}/login`);
    await page.getByLabel('Work Email').fill(manager.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${env.webUrl}/dashboard/creditcard`);
  });

  it("tells an employee that a manager's page is for managers, and says nothing after Logout", async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25);
    // Her walkthrough seen, so its overlay never lies over the account menu this test opens.
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/employees`);
    await page.waitForURL(`${env.webUrl}/`);
    await notice(page, 'That page is for managers only.').waitFor();
    await shootAtWidths(page, 'guard-managers-only');

    // Leaving on purpose is not a refusal: /login, and no notice about a page.
    await page.goto(`${env.webUrl}/dashboard`);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    await page.getByLabel('Work Email').waitFor();
    expect(await notice(page, 'Please sign in').count()).toBe(0);
    expect(await notice(page, 'Your session has ended').count()).toBe(0);
  });
});
