/**
 * Insights in a real browser (issue 26): an employee with two purchases sets
 * one's skill area in the receipt dialog and sees it in the Statement's chart
 * table with what is left this month; the manager opens Insights from the
 * side menu, reads the totals and each breakdown's table, switches the
 * period, follows a table row's link and a chart bar's link to the matching
 * purchases, sets the other purchase's skill area in Purchase History and
 * sees it counted, and downloads a breakdown as CSV. The people (GET
 * /insights/people): a removed spender is marked, two employees who have had
 * their card for months without buying are quiet (one heading for dormancy),
 * and both people CSVs fetch their whole list (GET /insights/people/all),
 * the button loading meanwhile and a failed fetch saying so. The bars stand
 * still for reduced motion; axe finds nothing serious at 1280 and 375 px.
 * Screenshots with SCREENSHOT_DIR (shootAtWidths).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TIME_ZONE, dayIn, formatDateIn } from '@shared/domain/calendar';
import { addMonths, inactiveFrom, nextDormancyDay } from '@shared/domain/dormancy';
import type { Locator, Page, Route } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { api, PASSWORD } from '../support/accountFlows';
import {
  launchBrowser,
  seriousViolations,
  settleAtWidth,
  shootAtWidths,
  signInPage,
} from '../support/browser';
import { type CardDetails, payAtCheckout } from '../support/checkout';
import { parseCsv } from '../support/csvReader';
import { e2eTable } from '../support/e2eTable';
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

/**
 * As if the employee had had their card since `at` without buying: their
 * dormancy clock and its listings set back, as data/dormancy.ts's
 * startDormancyClock writes them (which only ever moves a clock forward, so a
 * test cannot make months pass through the product). No money moves.
 */
async function quietSince(userId: string, at: Date) {
  const db = e2eTable(env);
  const { Item } = await db.send(new GetCommand({ TableName: env.tableName, Key: keys.user(userId) }));
  const clock = at.toISOString();
  const due = keys.userByDormancyDay(nextDormancyDay(clock, {}) as string, userId);
  const quiet = keys.userByQuietSince(Item?.teamId as string, clock, userId);
  await db.send(
    new UpdateCommand({
      TableName: env.tableName,
      Key: keys.user(userId),
      UpdateExpression:
        'SET quietSince = :at, dormancy = :none, gsi2pk = :pk, gsi2sk = :sk, gsi4pk = :quietPk, gsi4sk = :quietSk',
      ExpressionAttributeValues: {
        ':at': clock,
        ':none': {},
        ':pk': due.gsi2pk,
        ':sk': due.gsi2sk,
        ':quietPk': quiet.gsi4pk,
        ':quietSk': quiet.gsi4sk,
      },
    }),
  );
  db.destroy();
}

/** A notification the signed-in area shows (Mantine's). */
function notification(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

/** Holds the API's requests matching `pattern` until released; `reached` resolves when one arrives. */
async function holdRequests(page: Page, pattern: RegExp) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const handler = async (route: Route) => {
    arrived();
    await held;
    await route.fallback();
  };
  await page.route(pattern, handler);
  return { reached, release: () => release(), stop: () => page.unroute(pattern, handler) };
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
    // Rory buys once, then leaves the team: his spend stays in the period's figures, marked removed.
    const rory = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Rory',
      lastName: 'Gone',
    });
    const roryCard = (await (
      await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${rory.cardId}/details`)
    ).json()) as CardDetails;
    expect(await payAtCheckout(till, roryCard, '4.50', { name: 'Coursera' })).toBe('Approved');
    await till.close();
    // The purchases settle (the capture follows the approval).
    const settled = async (person: { accessToken: string }) =>
      (await api(env.apiUrl, 'GET', '/purchases', { token: person.accessToken })).body.purchases.filter(
        (p: { status: string }) => p.status === 'settled',
      ).length;
    await expect.poll(() => settled(employee), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => settled(rory), { timeout: 15_000 }).toBe(1);
    const removed = await api(env.apiUrl, 'POST', '/employees/delete', {
      token: manager.accessToken,
      body: { userIds: [rory.userId] },
    });
    expect(removed.status).toBe(200);

    // Two who have had their card for months and bought nothing: Quinn for four months; Dora for
    // twelve, so her money goes to the pool within the next three months.
    const quinn = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Quinn',
      lastName: 'Quiet',
    });
    const dora = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Dora',
      lastName: 'Drift',
    });
    const now = new Date().toISOString();
    const doraClock = addMonths(now, -12);
    const quinnClock = addMonths(now, -4);
    await quietSince(quinn.userId, quinnClock);
    await quietSince(dora.userId, doraClock);
    const doraDay = inactiveFrom(doraClock.toISOString(), DEFAULT_TIME_ZONE);

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
    // Iris, Rory, Quinn and Dora joined this month with $25 each; Rory's $20.50 left went to the pool.
    expect(await figure('Funded')).toBe('$100.00');
    expect(await figure('Spent')).toBe('$24.00');
    expect(await figure('Utilisation')).toBe('24%');
    expect(await figure('On cards now')).toBe('$55.50');
    expect(await figure('In the pool now')).toBe('$20.50');

    const skills = mpage.getByRole('table', { name: /^Spend by skill area/ });
    const skillRows = await rowsOf(skills);
    expect(skillRows).toContainEqual(['Leadership', '$12.50', '1']);
    expect(skillRows).toContainEqual(['Uncategorised', '$11.50', '2']);
    expect(skillRows).toContainEqual(['Communication', '$0.00', '0']);
    expect(skillRows).toHaveLength(8);
    const merchants = mpage.getByRole('table', { name: /^Spend by merchant/ });
    expect(await rowsOf(merchants)).toEqual([
      ['Powell’s Books', '$12.50', '1'],
      ['Udemy', '$7.00', '1'],
      ['Coursera', '$4.50', '1'],
    ]);
    const byPerson = mpage.getByRole('table', { name: /^Spend by person, .*: the 10 who spent most\./ });
    expect(await rowsOf(byPerson)).toEqual([
      ['Iris Insight', '$19.50'],
      ['Rory Gone (removed)', '$4.50'],
    ]);
    // Two spenders: the table is everyone, so no note sends the reader to the CSV.
    expect(
      await section(mpage, 'Spend by person').getByText('The CSV lists everyone who spent.').count(),
    ).toBe(0);

    // The quiet: the quietest first, counted; only Dora's money is due to the pool soon.
    const quiet = mpage.getByRole('table', {
      name: '2 people have made no purchase this month or the two before.',
    });
    expect(await rowsOf(quiet)).toEqual([
      ['Dora Drift', 'Never'],
      ['Quinn Quiet', 'Never'],
    ]);
    expect(await section(mpage, 'Not spent for 3 months or more').getByText(/^And /).count()).toBe(0);
    const heading = mpage.getByRole('table', {
      name: 'Unless they buy something, their money goes to the team pool on this day.',
    });
    expect(await rowsOf(heading)).toEqual([['Dora Drift', formatDateIn(doraDay, DEFAULT_TIME_ZONE)]]);
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
    ).toEqual([monthName, '$100.00', '$24.00']);

    // A CSV of a breakdown: the same numbers.
    const [download] = await Promise.all([
      mpage.waitForEvent('download'),
      mpage.getByRole('button', { name: 'Download spend by merchant as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^insights-merchants-\d{4}-\d{2}-to-\d{4}-\d{2}\.csv$/);
    expect(readFileSync((await download.path()) as string, 'utf8')).toBe(
      'Merchant,Spent (USD),Purchases\r\nPowell’s Books,12.50,1\r\nUdemy,7.00,1\r\nCoursera,4.50,1\r\n',
    );

    // The people CSVs fetch the whole list for the period. A failed fetch says so and saves nothing.
    const spendersCsv = mpage.getByRole('button', { name: 'Download spend by person as CSV' });
    const failing = /\/insights\/people\/all\?/;
    const fail = (route: Route) => route.abort('failed');
    await mpage.route(failing, fail);
    await spendersCsv.click();
    await notification(mpage, 'Could not download the CSV').waitFor();
    await mpage.unroute(failing, fail);
    // While the list is on its way the button shows it is loading.
    const spendersHold = await holdRequests(mpage, /\/insights\/people\/all\?.*list=spenders/);
    const spendersDownload = mpage.waitForEvent('download');
    await spendersCsv.click();
    await spendersHold.reached;
    await spendersCsv.and(mpage.locator('[data-loading]')).waitFor();
    spendersHold.release();
    const spenders = await spendersDownload;
    await spendersHold.stop();
    expect(spenders.suggestedFilename()).toMatch(/^insights-people-\d{4}-\d{2}-to-\d{4}-\d{2}\.csv$/);
    expect(parseCsv(readFileSync((await spenders.path()) as string, 'utf8'))).toEqual([
      ['Person', 'Email', 'Spent (USD)'],
      ['Iris Insight', employee.email, '19.50'],
      ['Rory Gone (removed)', rory.email, '4.50'],
    ]);
    await expect.poll(() => spendersCsv.getAttribute('data-loading')).toBeNull();

    const quietCsv = mpage.getByRole('button', {
      name: 'Download people who have not spent for 3 months or more as CSV',
    });
    const quietHold = await holdRequests(mpage, /\/insights\/people\/all\?.*list=quiet/);
    const quietDownload = mpage.waitForEvent('download');
    await quietCsv.click();
    await quietHold.reached;
    await quietCsv.and(mpage.locator('[data-loading]')).waitFor();
    quietHold.release();
    const quietFile = await quietDownload;
    await quietHold.stop();
    expect(quietFile.suggestedFilename()).toMatch(/^insights-not-spending-\d{4}-\d{2}-to-\d{4}-\d{2}\.csv$/);
    expect(parseCsv(readFileSync((await quietFile.path()) as string, 'utf8'))).toEqual([
      ['Name', 'Email', 'Status', 'Last month with a purchase', 'Money goes to the pool on'],
      ['Dora Drift', dora.email, 'active', 'Never', doraDay],
      [
        'Quinn Quiet',
        quinn.email,
        'active',
        'Never',
        inactiveFrom(quinnClock.toISOString(), DEFAULT_TIME_ZONE),
      ],
    ]);

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
    await shootAtWidths(mpage, 'insights-filtered-purchases');
    // The server filters: a skill area nobody bought lists nothing, in the page's words.
    await mpage.goto(`${env.webUrl}/dashboard/purchasehistory?skill=Execution`);
    await mpage.getByText('No purchases match this filter.').waitFor();
    await mpage
      .getByText(/Showing purchases skill area Execution: 0 purchases, \$0\.00 net of refunds\./)
      .waitFor();
    await shootAtWidths(mpage, 'insights-filtered-none');
    await mpage.goBack();
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
    expect(afterRows).toContainEqual(['Uncategorised', '$4.50', '1']);
  });
});
