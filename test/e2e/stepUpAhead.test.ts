/**
 * Step-up without a failed request (issue 25, point 4): when the sign-in's
 * factor is older than the window (aged in the table, as time would), a
 * money-moving action that needs a fresh one opens 'Confirm it is you' before
 * the action is sent, not after the server refused it: no console error, no
 * failed request, no API answer of 400 or more across the whole flow, and the
 * action completes once the password is given. Shown for a route that always
 * needs it (make a card primary; cancelling the dialog there is no error) and
 * for ones that do above the threshold, as the server's previews say: an extra
 * deposit of $600, an invitation of two people at $300 a month, and a budget
 * raise on /editProfile. Screenshots at 375 and 1280 px of the dialog, opened
 * before the request, go to SCREENSHOT_DIR when it is set.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, PASSWORD, uniqueEmail } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { ageTheFactor } from '../support/e2eTable';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/**
 * From now on: console errors, requests that failed, API answers of 400 or more
 * (`problems`), and every API request sent (`sent`, as "METHOD path").
 */
function watch(page: Page) {
  const problems: string[] = [];
  const sent: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('request', (request) => {
    if (request.url().startsWith(env.apiUrl))
      sent.push(`${request.method()} ${new URL(request.url()).pathname.replace(/^\/api/, '')}`);
  });
  page.on('response', (response) => {
    if (response.url().startsWith(env.apiUrl) && response.status() >= 400)
      problems.push(`answered ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return { problems, sent };
}

const notification = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).first();

describe('step-up asked before sending', () => {
  it("an 'always' action (make a card primary): the dialog first, then the action, and no error anywhere", async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const added = await api(env.apiUrl, 'POST', '/billing/cards', {
      token: manager.accessToken,
      idempotencyKey: randomUUID(),
      body: { token: 'tok_mastercard' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    const { problems, sent } = watch(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Credit Card' }).click();
    const cards = page.getByRole('list', { name: 'Cards on file' });
    const master = cards.getByRole('listitem').filter({ hasText: 'Mastercard ending in 4444' });
    await master.waitFor();
    // Minutes later (made, not waited for; after the page loaded, as a reload's token keeps the sign-in's).
    await ageTheFactor(env, manager.userId);

    const makePrimary = page.getByRole('button', { name: 'Make primary: Mastercard ending in 4444' });
    await makePrimary.click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByLabel('Password', { exact: true }).waitFor();
    // Asked before the change was sent, not after a refusal.
    expect(sent.filter((line) => line.endsWith('/billing/customer') && !line.startsWith('GET'))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'step-up-before-primary');

    // Cancelling is the manager's choice, as for deleting or adding a card: nothing sent, no error
    // notice (errors stay until dismissed, so one shown now would still be there at the end).
    await stepUp.getByRole('button', { name: 'Cancel' }).click();
    await stepUp.waitFor({ state: 'hidden' });
    await makePrimary.click();
    await stepUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await notification(page, 'Change primary card successfully!').waitFor();
    await master.getByText('Primary', { exact: true }).waitFor();
    expect(sent.filter((line) => line.endsWith('/billing/customer') && !line.startsWith('GET'))).toHaveLength(
      1,
    );
    expect(await notification(page, 'Error upon changing primary card').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it('an action above the threshold (a $600 extra deposit): the dialog first, then the charge, and no error anywhere', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const fay = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Fay',
      lastName: 'Funded',
    });

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    const { problems, sent } = watch(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employees' }).click();
    const actions = page
      .locator(`tr[data-user-id="${fay.userId}"]`)
      .getByRole('button', { name: `Actions for ${fay.name}` });
    await actions.waitFor();
    await ageTheFactor(env, manager.userId);

    await actions.click();
    await page.getByRole('menuitem', { name: 'Extra deposit' }).click();
    const deposit = page.getByRole('dialog', { name: `Extra deposit for ${fay.name}` });
    await deposit.getByLabel('Amount').fill('600');
    await deposit.getByRole('button', { name: 'Review' }).click();
    await deposit.locator('[data-testid="deposit-summary"][data-total-cents="60000"]').waitFor();
    await deposit.getByRole('button', { name: 'Charge $600.00' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByLabel('Password', { exact: true }).waitFor();
    expect(sent).not.toContain('POST /funds/deposit');
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'step-up-before-deposit');

    await stepUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await notification(page, 'Deposit sent successfully!').waitFor();
    expect(sent.filter((line) => line === 'POST /funds/deposit')).toHaveLength(1);
    const ledger = await api(env.apiUrl, 'GET', '/team/ledger', { token: manager.accessToken });
    const deposits = ledger.body.entries.filter((e: { kind: string }) => e.kind === 'deposit');
    expect(deposits).toHaveLength(1);
    expect(problems).toEqual([]);
  }, 120_000);

  it('an invitation of two people at $300 a month: the dialog first, then the invitations, and no error anywhere', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/inviteMembers`);
    await page.getByRole('heading', { name: 'Invite Members', level: 1 }).waitFor();
    // Watched from here: going to the page by its address cut the dashboard's own requests short.
    const { problems, sent } = watch(page);
    await ageTheFactor(env, manager.userId);

    const emails = [uniqueEmail('ann'), uniqueEmail('bob')];
    await page.getByRole('textbox', { name: /^Emails/ }).fill(emails.join(', '));
    await page.getByRole('textbox', { name: /^Budget/ }).fill('300');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByLabel('Password', { exact: true }).waitFor();
    // The server said $600 passes the threshold; the invitations wait for the factor.
    expect(sent).toContain('POST /invitations/preview');
    expect(sent).not.toContain('POST /invitations');
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'step-up-before-invite');

    await stepUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await notification(page, 'Employee invited successfully').waitFor();
    expect(sent.filter((line) => line === 'POST /invitations')).toHaveLength(1);
    const roster = await api(env.apiUrl, 'GET', '/employees', { token: manager.accessToken });
    for (const email of emails) expect(JSON.stringify(roster.body)).toContain(email);
    expect(problems).toEqual([]);
  }, 120_000);

  it('a budget raise past the threshold on /editProfile: the dialog first, then the save, and no error anywhere', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const rae = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Rae',
      lastName: 'Raised',
    });

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/editProfile/${rae.userId}`);
    const budget = page.getByRole('textbox', { name: /^Budget/ });
    await budget.waitFor();
    const { problems, sent } = watch(page);
    await ageTheFactor(env, manager.userId);

    // $25 today already: $575 more passes $500.
    await budget.fill('600');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByLabel('Password', { exact: true }).waitFor();
    expect(sent).toContain(`POST /users/${rae.userId}/budget/preview`);
    expect(sent).not.toContain(`PUT /users/${rae.userId}`);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'step-up-before-raise');

    await stepUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await notification(page, 'Update succeeded').waitFor();
    await page.getByText('Next budget: $600.00 a month').waitFor();
    expect(sent.filter((line) => line === `PUT /users/${rae.userId}`)).toHaveLength(1);
    const profile = await api(env.apiUrl, 'GET', `/users/${rae.userId}`, { token: manager.accessToken });
    expect(profile.body.nextBudgetCents).toBe(600_00);
    expect(problems).toEqual([]);
  }, 120_000);
});
