/**
 * Insights in a real browser (issue 26): an employee with two purchases sets
 * one's skill area in the receipt dialog and sees it in the Statement's chart
 * table with what is left this month; the manager opens Insights from the
 * side menu, reads the totals and each breakdown's table, switches the
 * period, follows a table row's link and a chart bar's link to the matching
 * purchases, sets the other purchase's skill area in Purchase History and
 * sees it counted, and downloads a breakdown as CSV. The bars stand still
 * for reduced motion; axe finds nothing serious at 1280 and 375 px.
 * Screenshots with SCREENSHOT_DIR (shootAtWidths).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TIME_ZONE, dayIn } from '@shared/domain/calendar';
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
const RECEIPT_PNG = fileURLToPath(new URL('../fixtures/receipts/receipt.png', import.meta.url));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** A table's body rows as their cells' text, spaces squeezed. */
async function rowsOf(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('th, td')].map((cell) =>
          (cell.textContent ?? '').replace(/\s+/g, ' ').trim(),
        ),
      ),
    );
}

function section(page: Page, title: string): Locator {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

async function expectAccessible(page: Page, where: string) {
  // The pointer may rest on a side-menu link (a known low-contrast hover state of the shared layout).
  await page.mouse.move(5, 890);
  expect(await seriousViolations(page), where).toEqual([]);
}

describe('insights', () => {
  it('the employee sets a skill area and sees it on the Statement; the manager reads, filters, follows and downloads', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Iris',
      lastName: 'Insight',
    });
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
    const card = (await (
      await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${employee.cardId}/details`)
    ).json()) as CardDetails;

    browser = await launchBrowser({ width: 1280, height: 900 });
    const till = await browser.context.newPage();
    expect(await payAtCheckout(till, card, '12.50', { name: 'Powell’s Books' })).toBe('Approved');
    expect(await payAtCheckout(till, card, '7.00', { name: 'Udemy' })).toBe('Approved');
    await till.close();
    // Both settle (the capture follows the approval).
    await expect
      .poll(
        async () =>
          (await api(env.apiUrl, 'GET', '/purchases', { token: employee.accessToken })).body.purchases.filter(
            (p: { status: string }) => p.status === 'settled',
          ).length,
        { timeout: 15_000 },
      )
      .toBe(2);

    // The employee: the receipt dialog asks for the skill area; "Uncategorised" until they choose.
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
    const history = page.getByRole('table', { name: 'Purchase history' });
    await history.getByRole('button', { name: 'Upload receipt for Powell’s Books' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload receipt' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Skill area').inputValue()).toBe('Uncategorised');
    expect(await dialog.getByLabel('Media type').inputValue()).toBe('other');
    await dialog.getByLabel('Title').fill('The Leadership Book');
    await dialog.getByLabel('Skill area').selectOption('Leadership');
    await dialog.getByLabel('Media type').selectOption('book');
    await dialog.getByLabel('Receipt image').setInputFiles(RECEIPT_PNG);
    await dialog.getByText('Chosen: receipt.png').waitFor();
    await expectAccessible(page, 'upload dialog with the skill pickers, 1280');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Receipt uploaded.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Statement' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard/statement`);
    const left = section(page, 'What is left this month');
    await left.getByText('$5.50').waitFor();
    const mySpend = page.getByRole('table', { name: /Your spend by skill area each month/ });
    await mySpend.waitFor();
    const thisMonth = dayIn(new Date(), DEFAULT_TIME_ZONE).slice(0, 7);
    const monthName = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${thisMonth}-01T00:00:00Z`));
    expect(await mySpend.getByRole('columnheader').allTextContents()).toEqual([
      'Month',
      'Leadership',
      'Uncategorised',
      'Total',
    ]);
    expect((await rowsOf(mySpend)).at(-1)).toEqual([monthName, '$12.50', '$7.00', '$19.50']);
    await expectAccessible(page, 'statement, 1280');
    await shootAtWidths(page, 'insights-statement');
    await page.close();

    // The manager: Insights from the side menu.
    const mpage = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await mpage.getByRole('link', { name: 'Insights' }).click();
    await mpage.waitForURL(`${env.webUrl}/dashboard/insights`);
    await mpage.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    const totals = section(mpage, 'Totals');
    await totals.waitFor();
    const figure = async (label: string) =>
      (
        await totals
          .locator('dt', { hasText: new RegExp(`^${label}$`) })
          .locator('xpath=following-sibling::dd[1]')
          .textContent()
      )?.trim();
    expect(await figure('Funded')).toBe('$25.00');
    expect(await figure('Spent')).toBe('$19.50');
    expect(await figure('Utilisation')).toBe('78%');
    expect(await figure('On cards now')).toBe('$5.50');

    const skills = mpage.getByRole('table', { name: /^Spend by skill area/ });
    const skillRows = await rowsOf(skills);
    expect(skillRows).toContainEqual(['Leadership', '$12.50', '1']);
    expect(skillRows).toContainEqual(['Uncategorised', '$7.00', '1']);
    expect(skillRows).toContainEqual(['Communication', '$0.00', '0']);
    expect(skillRows).toHaveLength(8);
    const merchants = mpage.getByRole('table', { name: /^Spend by merchant/ });
    expect(await rowsOf(merchants)).toEqual([
      ['Powell’s Books', '$12.50', '1'],
      ['Udemy', '$7.00', '1'],
    ]);
    expect(
      await rowsOf(mpage.getByRole('table', { name: /^Spend by person, .*: the 10 who spent most\./ })),
    ).toEqual([['Iris Insight', '$19.50']]);
    // The charts are for looking; their numbers are the tables'.
    expect(
      await section(mpage, 'Spend by skill area')
        .locator('.recharts-responsive-container')
        .first()
        .evaluate((el) => el.closest('[aria-hidden="true"]') !== null),
    ).toBe(true);

    // Reduced motion (the test browser asks for it): the bars are drawn at their size at once.
    const bar = section(mpage, 'Spend by merchant').locator('.recharts-bar-rectangle path').first();
    await bar.waitFor();
    const drawn = await bar.evaluate(
      (path) =>
        new Promise<[string | null, string | null]>((resolve) => {
          const first = path.getAttribute('d');
          requestAnimationFrame(() => requestAnimationFrame(() => resolve([first, path.getAttribute('d')])));
        }),
    );
    expect(drawn[1]).toBe(drawn[0]);

    await expectAccessible(mpage, 'insights, 1280');
    await shootAtWidths(mpage, 'insights-manager');
    await settleAtWidth(mpage, 375);
    await expectAccessible(mpage, 'insights, 375');
    await settleAtWidth(mpage, 1280);

    // Another period: the address says it, the figures are the same months' sums.
    await mpage.locator('label', { hasText: 'Last 3 months' }).click();
    await mpage.waitForURL(/period=3$/);
    await mpage.getByText(/^Figures for .* to .*;/).waitFor();
    expect(
      await rowsOf(mpage.getByRole('table', { name: /^Money credited to cards and net spend each month/ })),
    ).toHaveLength(3);
    expect(
      (
        await rowsOf(mpage.getByRole('table', { name: /^Money credited to cards and net spend each month/ }))
      ).at(-1),
    ).toEqual([monthName, '$25.00', '$19.50']);

    // A CSV of a breakdown: the same numbers.
    const [download] = await Promise.all([
      mpage.waitForEvent('download'),
      mpage.getByRole('button', { name: 'Download spend by merchant as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^insights-merchants-\d{4}-\d{2}-to-\d{4}-\d{2}\.csv$/);
    expect(readFileSync((await download.path()) as string, 'utf8')).toBe(
      'Merchant,Spent (USD),Purchases\r\nPowell’s Books,12.50,1\r\nUdemy,7.00,1\r\n',
    );

    // A row's link: the matching purchases, and only them.
    await skills.getByRole('link', { name: 'Leadership' }).click();
    await mpage.waitForURL(/\/dashboard\/purchasehistory\?from=.*&skill=Leadership$/);
    const filtered = mpage.getByRole('table', { name: 'Purchase history' });
    await mpage
      .getByText(/Showing purchases skill area Leadership, from .*: 1 purchase, \$12\.50 net of refunds\./)
      .waitFor();
    expect(await filtered.locator('tbody tr').count()).toBe(1);
    expect(await filtered.locator('tbody tr').textContent()).toContain('The Leadership Book');
    await expectAccessible(mpage, 'filtered purchase history, 1280');
    await mpage.goBack();

    // A bar's link (a pointer on the chart): the merchant's purchases.
    await section(mpage, 'Spend by merchant').locator('.recharts-bar-rectangle').first().click();
    await mpage.waitForURL(/merchant=Powell%E2%80%99s\+Books$/);
    await mpage.getByText(/Showing purchases at Powell’s Books, .*: 1 purchase, \$12\.50/).waitFor();

    // The manager sets the other purchase's skill area in Purchase History; Insights counts it there.
    await mpage.getByRole('link', { name: 'Show all purchases' }).click();
    await mpage.waitForURL(`${env.webUrl}/dashboard/purchasehistory`);
    const all = mpage.getByRole('table', { name: 'Purchase history' });
    await all.getByLabel('Skill area of Udemy').selectOption('Communication');
    await mpage.getByText('Skill area of Udemy set to Communication.').waitFor();
    expect(await all.getByLabel('Skill area of The Leadership Book').inputValue()).toBe('Leadership');
    await expectAccessible(mpage, 'purchase history with skill areas, 1280');
    await mpage.getByRole('link', { name: 'Insights' }).click();
    const after = mpage.getByRole('table', { name: /^Spend by skill area/ });
    await after.waitFor();
    const afterRows = await rowsOf(after);
    expect(afterRows).toContainEqual(['Communication', '$7.00', '1']);
    expect(afterRows).toContainEqual(['Uncategorised', '$0.00', '0']);
  });
});
