/**
 * Fund requests in a real browser (issue 27, "Must hold"): an employee with a
 * $25 budget opens a $49 shop item, asks for it ("Request funds for this"),
 * sees it waiting on their Requests page; the manager's e-mail link opens the
 * request (approving nothing by itself), the manager approves it, the
 * employee's balance shows the new money, and paying $49 at the sandbox
 * checkout is approved. axe finds nothing serious on either Requests page;
 * screenshots at 375 and 1280 px go to SCREENSHOT_DIR when it is set.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { DEMO_EMPLOYEE } from '../../infra/local/seed';
import { api, PASSWORD, signIn } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { type CardDetails, payAtCheckout } from '../support/checkout';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));
/** A $49.00 course (shared/data/catalogue.jsonl), above the $25 budget. */
const ITEM = 'Managing as a Coach';

const browsers: Awaited<ReturnType<typeof launchBrowser>>[] = [];
afterEach(async () => {
  for (const b of browsers.splice(0)) await b.close();
});

async function signedIn(email: string): Promise<Page> {
  const browser = await launchBrowser({ width: 1280, height: 900 });
  browsers.push(browser);
  return signInPage(browser.context, env.webUrl, email, PASSWORD);
}

describe('fund requests', () => {
  it('an item above the balance: asked, opened from the e-mail, approved, and bought at the checkout', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Rita',
      lastName: 'Request',
    });
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });

    // The employee opens the item: above the balance, the card would decline it; they ask instead.
    const page = await signedIn(employee.email);
    await page.goto(`${env.webUrl}/shop?q=${encodeURIComponent(ITEM)}`);
    const item = page.getByRole('button', { name: new RegExp(`^${ITEM}`) }).first();
    await item.click();
    const itemDialog = page.getByRole('dialog', { name: ITEM });
    await itemDialog.getByTestId('item-decline').waitFor();
    await itemDialog.getByRole('button', { name: 'Request funds for this' }).click();
    const form = page.getByRole('dialog', { name: 'Request funds from your manager' });
    await form.waitFor();
    expect(await form.getByLabel(/Amount/).inputValue()).toBe('49');
    await form.getByLabel(/Why does it help/).fill('Coaching is half of my new role.');
    await form.getByRole('button', { name: 'Send request' }).click();
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Request sent to your manager.' })
      .waitFor();
    await form.waitFor({ state: 'detached' });

    await page.goto(`${env.webUrl}/dashboard/requests`);
    const mine = page.locator('[data-state="pending"]').filter({ hasText: ITEM });
    await mine.getByText('Waiting for your manager').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'requests-employee');

    // The manager's e-mail: a link that opens the request in the app.
    const mail = (await mailbox.to(manager.email)).find(
      (m) => m.subject === `Rita Request asks for $49.00: ${ITEM}`,
    );
    const link = mail?.body.text?.match(/https?:\/\/\S+\/dashboard\/requests\/\S+/)?.[0];
    expect(link, mail?.body.text).toBeDefined();
    const requestId = (link as string).split('/').pop() as string;
    const boss = await signedIn(manager.email);
    await boss.getByTestId('requests-badge').getByText('1').waitFor();
    await boss.goto(`${env.webUrl}/dashboard/requests/${requestId}`);
    const card = boss.locator(`#request-${requestId}`);
    await card.waitFor();
    await expect.poll(() => boss.evaluate(() => document.activeElement?.id)).toBe(`request-${requestId}`);
    // Opening it approved nothing.
    expect(await card.getAttribute('data-state')).toBe('pending');
    await card.getByText('Coaching is half of my new role.').waitFor();
    expect(await seriousViolations(boss)).toEqual([]);
    await shootAtWidths(boss, 'requests-manager');

    await card.getByRole('button', { name: `Approve the request for ${ITEM} from Rita Request` }).click();
    await boss.locator('.mantine-Notification-root').filter({ hasText: 'Request approved.' }).waitFor();
    await boss
      .locator(`#request-${requestId}[data-state="approved"]`)
      .getByText('Approved: $49.00')
      .waitFor();

    // The employee's card now holds $74.00; paying $49.00 at the checkout goes through.
    await page.goto(`${env.webUrl}/dashboard/requests`);
    await page
      .locator('[data-state="approved"]')
      .filter({ hasText: ITEM })
      .getByText('Approved: $49.00')
      .waitFor();
    await page.getByRole('button', { name: /^Virtual card: \$74\.00 remaining/ }).waitFor();
    const cardDetails = (await (
      await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${employee.cardId}/details`)
    ).json()) as CardDetails;
    const till = await page.context().newPage();
    expect(
      await payAtCheckout(till, cardDetails, '49.00', { name: 'Coursera', category: 'educational_services' }),
    ).toBe('Approved');
    await page.bringToFront();
    await page.getByRole('button', { name: /^Virtual card: \$25\.00 remaining/ }).waitFor();
  }, 240_000);

  it('the demo employee has a request in every state (infra/local/seed.ts)', async () => {
    const session = await signIn(env.apiUrl, DEMO_EMPLOYEE.email, DEMO_EMPLOYEE.password);
    expect(session.status).toBe(200);
    const mine = await api(env.apiUrl, 'GET', '/requests', { token: session.body.accessToken });
    const states = new Set(mine.body.requests.map((r: { state: string }) => r.state));
    expect([...states].sort()).toEqual(['approved', 'cancelled', 'declined', 'expired', 'pending']);
  });
});
