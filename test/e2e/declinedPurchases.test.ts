/**
 * Declined purchases in a real browser (issue 25): an employee's card refuses
 * a $41.20 purchase at the sandbox checkout; Purchase History (the employee's
 * and the manager's) and the Statement list it, the word Declined and the
 * reason the card gave on its row, its price marked not charged, no receipt
 * asked for, at 1280 and 375 px; axe finds nothing serious. Screenshots to
 * SCREENSHOT_DIR (or /tmp/shots-declined).
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, PASSWORD } from '../support/accountFlows';
import {
  launchBrowser,
  seriousViolations,
  settleAtWidth,
  shootAtWidths,
  signInPage,
} from '../support/browser';
import { type CardDetails, payAtCheckout } from '../support/checkout';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));
process.env.SCREENSHOT_DIR ??= '/tmp/shots-declined';
mkdirSync(process.env.SCREENSHOT_DIR, { recursive: true });

const REASON = '$41.20 is above your $18.00 balance.';

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

async function rowTexts(table: Locator): Promise<string[]> {
  const rows = table.locator('tbody tr');
  await rows.first().waitFor();
  return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** The declined row of a purchase table, at the page's width: Declined, the reason, not charged, no upload. */
async function checkHistory(page: Page, width: number, manager: boolean) {
  await settleAtWidth(page, width);
  const table = page.getByRole('table', { name: 'Purchase history' });
  // The layout for this width is in place (phones get the compact first column).
  const first = width < 768 ? (manager ? 'Name, title, date, vendor' : 'Title, date, vendor') : 'Title';
  await table.getByRole('columnheader', { name: first, exact: true }).waitFor();
  const texts = await rowTexts(table);
  expect(texts, texts.join('\n')).toHaveLength(2);
  const [declined, bought] = texts as [string, string];
  expect(declined).toContain('Declined');
  expect(declined).toContain(REASON);
  expect(declined).toContain('$41.20');
  expect(declined).toContain('Not charged');
  expect(declined).not.toContain('Awaiting Receipt');
  expect(bought).toContain('Awaiting Receipt');
  if (manager) expect(declined).toContain('Priya Reader');
  const declinedRow = table.locator('tbody tr').first();
  // No receipt for something never bought: no upload, no view.
  expect(await declinedRow.getByRole('button').count()).toBe(0);
  if (!manager) expect(await table.locator('tbody tr').nth(1).getByRole('button').count()).toBe(1);
  // Nothing off-screen: the reason and its word are within the page's width.
  const reason = declinedRow.getByTestId('decline-reason');
  const box = await reason.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
  await page.mouse.move(width - 5, 890);
  expect(await seriousViolations(page), `purchase history at ${width} px`).toEqual([]);
}

describe('declined purchases', () => {
  it('are listed in Purchase History (employee and manager) and the Statement, marked Declined with the reason, at 1280 and 375 px', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Priya',
      lastName: 'Reader',
    });
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
    const card = (await (
      await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${employee.cardId}/details`)
    ).json()) as CardDetails;

    browser = await launchBrowser({ width: 1280, height: 900 });
    const till = await browser.context.newPage();
    expect(await payAtCheckout(till, card, '7.00', { name: 'Udemy' })).toBe('Approved');
    // The approval settles right after (issuing_transaction.created): wait until it is a purchase.
    await expect
      .poll(
        async () =>
          (await api(env.apiUrl, 'GET', '/purchases', { token: employee.accessToken })).body.purchases.map(
            (p: { status: string }) => p.status,
          ),
        { timeout: 10_000 },
      )
      .toEqual(['settled']);
    expect(await payAtCheckout(till, card, '41.20', { name: 'Powell’s Books' })).not.toBe('Approved');
    await till.close();

    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
    for (const width of [1280, 375]) await checkHistory(page, width, false);
    await shootAtWidths(page, 'declined-history-employee');

    await page.goto(`${env.webUrl}/dashboard/statement`);
    await page.getByRole('heading', { name: 'Statement', level: 1 }).waitFor();
    for (const width of [1280, 375]) {
      await settleAtWidth(page, width);
      const region = page.getByRole('region', { name: 'Statement, scrolls sideways' });
      const texts = await rowTexts(region.getByRole('table', { name: 'Statement' }));
      // Newest first: the decline, the purchase, its hold, the credit.
      expect(texts, texts.join('\n')).toHaveLength(4);
      const declined = texts[0] as string;
      expect(declined).toContain('Declined');
      expect(declined).toContain('Purchase at Powell’s Books');
      expect(declined).toContain(`${REASON} Nothing was taken from your balance.`);
      expect(declined).toContain('$41.20');
      expect(declined).toContain('Not charged');
      // The balance after it is the balance before it: $18.00.
      expect(declined).toMatch(width === 1280 ? /Not charged \$18\.00$/ : /Not charged Available \$18\.00$/);
      if (width === 375) expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await page.mouse.move(width - 5, 890);
      expect(await seriousViolations(page), `statement at ${width} px`).toEqual([]);
    }
    await shootAtWidths(page, 'declined-statement');

    const managerPage = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await managerPage.goto(`${env.webUrl}/dashboard/purchasehistory`);
    for (const width of [1280, 375]) await checkHistory(managerPage, width, true);
    await shootAtWidths(managerPage, 'declined-history-manager');
  });
});
