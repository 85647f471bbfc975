/**
 * Purchase history and receipts in a real browser (issue 10): an employee pays
 * at the sandbox checkout, sees 'Awaiting Receipt', uploads a receipt with a
 * suggested title and views it; a too-large file gets the spec's message and
 * is never sent; the manager sees the purchase with the employee's name and
 * views the receipt, with no upload action. axe at 375 and 1280; screenshots
 * to SCREENSHOT_DIR (or /tmp/shots-purchases).
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { receiptDueDay } from '@shared/domain/businessDays';
import { DEFAULT_TIME_ZONE, dayIn, formatUsDay } from '@shared/domain/calendar';
import { receiptOverdueSince } from '@shared/domain/receiptOverdue';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { DEFAULT_AUTO_CAPTURE_DELAY_MS } from '../../infra/local/stripe';
import { keys } from '../../lambdas/src/data/keys';
import { purchaseItem } from '../../lambdas/src/data/purchases';
import { api, PASSWORD, type SignedIn } from '../support/accountFlows';
import { launchBrowser, seriousViolations, signInPage } from '../support/browser';
import { type CardDetails, payAtCheckout } from '../support/checkout';
import { e2eTable } from '../support/e2eTable';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-purchases';
mkdirSync(SHOTS, { recursive: true });
const RECEIPT_PNG = fileURLToPath(new URL('../fixtures/receipts/receipt.png', import.meta.url));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** A real PNG well over 150,000 bytes: low-amplitude noise, which deflate cannot shrink but JPEG can. */
function noisyPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const noise = randomBytes(height * (width * 3 + 1));
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    noise[row] = 0; // filter: none
    for (let i = row + 1; i < row + 1 + width * 3; i++) noise[i] = 120 + ((noise[i] as number) & 15);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(noise)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The emulator's merchants capture approvals after a delay, or (false) leave them pending. */
async function setAutoCapture(delayMs: number | false) {
  const res = await fetch(`${env.stripeUrl}/_emulator/auto_capture`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ delay_ms: delayMs }),
  });
  expect(res.status).toBe(200);
}

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

async function receiptImageLoads(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: `Receipt: ${name}` });
  const image = dialog.getByRole('img', { name: `Receipt for ${name}` });
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(120);
  return dialog;
}

async function team(): Promise<{
  manager: SignedIn;
  employee: SignedIn & { name: string; cardId: string };
  card: CardDetails;
}> {
  const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
  const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
    firstName: 'Priya',
    lastName: 'Reader',
  });
  await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
  const card = (await (
    await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${employee.cardId}/details`)
  ).json()) as CardDetails;
  return { manager, employee, card };
}

describe('purchase history and receipts', () => {
  it('employee uploads and views a receipt; the manager sees it with the name and only views', async () => {
    const { manager, employee, card } = await team();
    browser = await launchBrowser({ width: 1280, height: 900 });
    const till = await browser.context.newPage();
    expect(await payAtCheckout(till, card, '12.34', { name: 'Powell’s Books' })).toBe('Approved');
    await till.close();

    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    // The dashboard's latest purchases, with the receipt still to come.
    const preview = page.getByRole('table', { name: 'Latest purchases' });
    await preview.getByText('Awaiting Receipt').waitFor();
    await expect.poll(() => preview.getByRole('row').count()).toBe(2);
    await expect.poll(() => preview.getByRole('cell', { name: '$12.34' }).count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/employee-dashboard-1280.png`, fullPage: true });

    await page.getByRole('link', { name: 'SEE MORE' }).click();
    await page.waitForURL(/\/dashboard\/purchasehistory$/);
    const table = page.getByRole('table', { name: 'Purchase history' });
    const row = table.getByRole('row').nth(1);
    await row.getByText('Awaiting Receipt').waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Title', 'Date', 'Price', 'Vendor', 'Status']);
    expect(await row.getByRole('cell').nth(1).textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await expectAccessible(page, 'history, employee, 1280');

    // Too large: the spec's message, and nothing is sent.
    await row.getByRole('button', { name: 'Upload receipt for Powell’s Books' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload receipt' });
    await dialog.waitFor();
    const presigns: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/receipt/upload')) presigns.push(r.url());
    });
    await dialog.getByLabel('Receipt image').setInputFiles({
      name: 'scan.png',
      mimeType: 'image/png',
      buffer: randomBytes(150_001),
    });
    await dialog.getByText("'scan.png' is too large, please pick a smaller file.").waitFor();
    await dialog.getByLabel('Receipt image').setInputFiles({
      name: 'notes.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await dialog.getByText("'image/svg+xml' is not a supported format.").waitFor();
    await page.screenshot({ path: `${SHOTS}/employee-upload-refused-1280.png` });

    // A suggested title (their own past vendor).
    await dialog.getByLabel('Title').fill('Pow');
    await page.getByRole('option', { name: 'Powell’s Books' }).click();
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Powell’s Books');
    // A text file named .png passes the browser's check and is refused by the server, which reads its
    // bytes: text, so the spec's message names that type, not the one the name claims. Its size reads in bytes.
    await dialog.getByLabel('Receipt image').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not really a png'),
    });
    await dialog.getByText('Chosen: fake.png (24 bytes)', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText("'text/plain' is not a supported format.", { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/employee-upload-disguised-1280.png` });
    // A real PNG: uploaded.
    await dialog.getByLabel('Receipt image').setInputFiles(RECEIPT_PNG);
    await dialog.getByText('Chosen: receipt.png').waitFor();
    await expectAccessible(page, 'upload dialog, 1280');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Receipt uploaded.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    // The disguised file and the real one; neither refused-in-the-browser file was sent.
    expect(presigns).toHaveLength(2);

    await row.getByRole('button', { name: 'View receipt for Powell’s Books' }).click();
    const viewer = await receiptImageLoads(page, 'Powell’s Books');
    await page.screenshot({ path: `${SHOTS}/employee-view-1280.png` });
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    await page.screenshot({ path: `${SHOTS}/employee-history-1280.png`, fullPage: true });
    await browser.close();

    // The manager: the employee's name, a view action, no upload.
    browser = await launchBrowser({ width: 1280, height: 900 });
    const managerPage = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await managerPage.goto(`${env.webUrl}/dashboard/purchasehistory`);
    const teamTable = managerPage.getByRole('table', { name: 'Purchase history' });
    await teamTable.getByRole('cell', { name: employee.name }).waitFor();
    expect(await teamTable.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Title',
      'Date',
      'Price',
      'Vendor',
      'Skill area',
      'Receipts',
    ]);
    expect(await teamTable.getByRole('button', { name: /Upload|Replace/ }).count()).toBe(0);
    await expectAccessible(managerPage, 'history, manager, 1280');
    await managerPage.screenshot({ path: `${SHOTS}/manager-history-1280.png`, fullPage: true });
    await teamTable.getByRole('button', { name: 'View receipt for Powell’s Books' }).click();
    await receiptImageLoads(managerPage, 'Powell’s Books');
    await expectAccessible(managerPage, 'receipt viewer, manager, 1280');
    await managerPage.screenshot({ path: `${SHOTS}/manager-view-1280.png` });
    await browser.close();

    // The manager has seen it: where "Replace" was, the employee reads why it went.
    for (const width of [1280, 375]) {
      browser = await launchBrowser({ width, height: 900 });
      const after = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
      await after.goto(`${env.webUrl}/dashboard/purchasehistory`);
      const seenRow = after.getByRole('table', { name: 'Purchase history' }).getByRole('row').nth(1);
      await seenRow.getByText('Seen by your manager, so it can no longer be replaced').waitFor();
      expect(await seenRow.getByRole('button', { name: /^Replace/ }).count()).toBe(0);
      await expectAccessible(after, `history after the manager's look, ${width}`);
      await after.screenshot({ path: `${SHOTS}/employee-history-seen-${width}.png`, fullPage: true });
      await browser.close();
    }
    browser = undefined;
  });

  it('a purchase made while the history is open appears there without a reload, as the balance does', async () => {
    const { employee, card } = await team();
    browser = await launchBrowser({ width: 1280, height: 900 });
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
    await page.getByText('No purchases yet.').waitFor();

    const till = await browser.context.newPage();
    expect(await payAtCheckout(till, card, '7.50', { name: 'Udemy' })).toBe('Approved');
    await till.close();
    await page.bringToFront();

    // The page polls nothing of its own: the header's balance read shows the money moved, and the list follows.
    const table = page.getByRole('table', { name: 'Purchase history' });
    await table.getByRole('cell', { name: '$7.50' }).waitFor();
    expect(await table.getByRole('row').nth(1).textContent()).toContain('Udemy');
    expect(page.url()).toBe(`${env.webUrl}/dashboard/purchasehistory`);
  });

  it('works at 375 px: the table fits, dialogs fit, no serious axe findings', async () => {
    const { employee, card } = await team();
    browser = await launchBrowser({ width: 375, height: 812 });
    const till = await browser.context.newPage();
    expect(await payAtCheckout(till, card, '9.99', { name: 'Udemy' })).toBe('Approved');
    // And one the merchant has not captured yet: pending, with no receipt action.
    await setAutoCapture(false);
    try {
      expect(await payAtCheckout(till, card, '4.00', { name: 'Audible' })).toBe('Approved');
    } finally {
      await setAutoCapture(DEFAULT_AUTO_CAPTURE_DELAY_MS);
    }
    await till.close();
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    const latest = page.getByRole('table', { name: 'Latest purchases' });
    await latest.getByText('Awaiting Receipt').waitFor();
    const pending = latest.getByRole('row').filter({ hasText: 'Audible' });
    await pending.getByText('Pending').waitFor();
    await pending.getByText('Receipt once settled').waitFor();
    expect(await pending.getByRole('button').count()).toBe(0);
    // Beside a long status ('Awaiting Receipt (overdue since ...)') each date stays on one line
    // ('11/25/202 / 6' before: the first column shrank to a letter's width).
    const dateLines = await latest.evaluate((table) =>
      [...table.querySelectorAll('span')]
        .filter((el) => /^\d\d\/\d\d\/\d{4}$/.test(el.textContent ?? ''))
        .map((el) => el.getClientRects().length),
    );
    expect(dateLines.length).toBeGreaterThan(0);
    expect(dateLines.every((lines) => lines === 1)).toBe(true);
    await expectAccessible(page, 'dashboard, employee, 375');
    await page.screenshot({ path: `${SHOTS}/employee-dashboard-375.png`, fullPage: true });
    await page
      .getByRole('table', { name: 'Latest purchases' })
      .getByRole('button', { name: 'Upload receipt for Udemy' })
      .click();
    await page.waitForURL(/\/dashboard\/purchasehistory\?upload=/);
    const dialog = page.getByRole('dialog', { name: 'Upload receipt' });
    await dialog.waitFor();
    // A photo over the limit is made smaller in the browser, and the person is told.
    await dialog.getByLabel('Receipt image').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: noisyPng(400, 400),
    });
    await dialog.getByText(/'photo\.png' was .* so we made it smaller here in your browser/).waitFor();
    await dialog.getByText(/Chosen: photo\.jpg/).waitFor();
    await dialog.getByLabel('Title').fill('Ud');
    await page.getByRole('option', { name: 'Udemy' }).click();
    await expectAccessible(page, 'upload dialog, 375');
    await page.screenshot({ path: `${SHOTS}/employee-upload-375.png` });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Receipt uploaded.').waitFor();
    // On a phone the date and vendor sit under the title, so the status and its
    // action are on screen without scrolling sideways.
    const table = page.getByRole('table', { name: 'Purchase history' });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Title, date, vendor',
      'Price',
      'Status',
    ]);
    const view = table.getByRole('button', { name: /^View receipt/ }).first();
    await view.waitFor();
    const box = await view.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'history, employee, 375');
    await page.screenshot({ path: `${SHOTS}/employee-history-375.png`, fullPage: true });
  });

  it('at 375 px a pasted URL as title and a one-word vendor wrap; Price, Status and Upload stay on screen', async () => {
    const { employee } = await team();
    const me = await api(env.apiUrl, 'GET', '/me', { token: employee.accessToken });
    const title =
      'https://www.coursera.org/learn/negotiation-skills-and-effective-communication-for-managers?utm=abc';
    await e2eTable(env).send(
      new PutCommand({
        TableName: env.tableName,
        Item: purchaseItem({
          purchaseId: `ipi_longtitle_${Date.now()}`,
          userId: employee.userId,
          teamId: me.body.teamId,
          cardId: employee.cardId,
          amountCents: 1299,
          merchant: 'WWW.EXAMPLELEARNINGPLATFORMACADEMY.COM',
          category: 'educational_services',
          createdAt: new Date().toISOString(),
          receiptStatus: 'awaiting',
          title,
        }),
      }),
    );
    browser = await launchBrowser({ width: 375, height: 812 });
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
    const table = page.getByRole('table', { name: 'Purchase history' });
    const upload = table.getByRole('button', { name: `Upload receipt for ${title}` });
    await upload.waitFor();
    const right = async (text: string) => {
      const box = await table.getByText(text, { exact: true }).boundingBox();
      return (box?.x ?? Number.POSITIVE_INFINITY) + (box?.width ?? 0);
    };
    const uploadBox = await upload.boundingBox();
    const placed = {
      price: await right('$12.99'),
      status: await right('Awaiting Receipt'),
      upload: (uploadBox?.x ?? Number.POSITIVE_INFINITY) + (uploadBox?.width ?? 0),
      page: await page.evaluate(() => document.documentElement.scrollWidth),
    };
    expect(
      Object.values(placed).every((x) => x <= 375),
      JSON.stringify(placed),
    ).toBe(true);
    await page.screenshot({ path: `${SHOTS}/employee-history-longtitle-375.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 812 });
    await table.getByRole('columnheader', { name: 'Vendor' }).waitFor();
    const wideUpload = await upload.boundingBox();
    expect((wideUpload?.x ?? Number.POSITIVE_INFINITY) + (wideUpload?.width ?? 0)).toBeLessThanOrEqual(1280);
    // Squeezed by the long title's column, the button kept its word whole ('Uploa' before).
    await expect
      .poll(() =>
        upload.evaluate((el) =>
          [el, ...el.querySelectorAll('*')].every((part) => part.scrollWidth <= part.clientWidth),
        ),
      )
      .toBe(true);
    await page.screenshot({ path: `${SHOTS}/employee-history-longtitle-1280.png`, fullPage: true });
  });
});

/** What the browser does for a receipt, over the API: a presigned POST, the bytes to the bucket, the confirm. */
async function receiptOverApi(token: string, purchaseId: string, title: string) {
  const bytes = readFileSync(RECEIPT_PNG);
  const presign = await api(env.apiUrl, 'POST', `/purchases/${purchaseId}/receipt/upload`, {
    token,
    body: { contentType: 'image/png', size: bytes.length, fileName: 'receipt.png' },
  });
  expect(presign.status, JSON.stringify(presign.body)).toBe(200);
  const form = new FormData();
  for (const [name, value] of Object.entries(presign.body.fields as Record<string, string>)) {
    form.append(name, value);
  }
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'receipt.png');
  const stored = await fetch(presign.body.url, { method: 'POST', body: form });
  expect(stored.status).toBeLessThan(300);
  const confirm = await api(env.apiUrl, 'POST', `/purchases/${purchaseId}/receipt`, {
    token,
    body: { uploadId: presign.body.uploadId, title, fileName: 'receipt.png' },
  });
  expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
}

/** The open receipt viewer fits the screen: its title wraps and its close button is on screen and reachable. */
async function viewerFits(page: Page, width: number) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const close = dialog.getByRole('button', { name: 'Close dialog' });
  const fits = await close.evaluate((button, screenWidth) => {
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const content = button.closest('.mantine-Modal-content') as HTMLElement;
    const title = content.querySelector('.mantine-Modal-title') as HTMLElement;
    return {
      closeOnScreen: box.left >= 0 && box.right <= screenWidth,
      closeReachable: hit !== null && button.contains(hit),
      titleWraps: title.scrollWidth <= title.clientWidth && title.getBoundingClientRect().right <= box.left,
      dialogInside:
        content.getBoundingClientRect().right <= screenWidth && content.scrollWidth <= content.clientWidth,
    };
  }, width);
  expect(fits).toEqual({ closeOnScreen: true, closeReachable: true, titleWraps: true, dialogInside: true });
  await close.click();
  await dialog.waitFor({ state: 'detached' });
}

describe('a pasted link as a receipt title', () => {
  it('wraps in the receipt viewer (close button on screen, 375 and 1280 px) and leaves the vendor whole', async () => {
    const { manager, employee } = await team();
    const me = await api(env.apiUrl, 'GET', '/me', { token: employee.accessToken });
    const purchaseId = `ipi_pastedlink_${Date.now()}`;
    await e2eTable(env).send(
      new PutCommand({
        TableName: env.tableName,
        Item: purchaseItem({
          purchaseId,
          userId: employee.userId,
          teamId: me.body.teamId,
          cardId: employee.cardId,
          amountCents: 500,
          merchant: 'Amazon',
          category: 'book_stores',
          createdAt: new Date().toISOString(),
          receiptStatus: 'awaiting',
        }),
      }),
    );
    // 120 characters, the title's limit, and not one space.
    const title = `https://www.amazon.com/dp/${'B0'.repeat(47)}`;
    expect(title).toHaveLength(120);
    await receiptOverApi(employee.accessToken, purchaseId, title);

    for (const [who, width] of [
      [employee, 1280],
      [employee, 375],
      [manager, 375],
      [manager, 1280],
    ] as const) {
      browser = await launchBrowser({ width, height: 812 });
      const page = await signInPage(browser.context, env.webUrl, who.email, PASSWORD);
      await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
      const table = page.getByRole('table', { name: 'Purchase history' });
      const view = table.getByRole('button', { name: `View receipt for ${title}` });
      await view.waitFor();
      if (width === 1280) {
        // The title gives up the width: 'Amazon' stays on one line ('Amazo / n' before).
        const vendor = table.getByRole('cell', { name: 'Amazon', exact: true });
        const lines = await vendor.evaluate((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
        expect(lines).toBe(1);
      }
      await view.click();
      await page.screenshot({
        path: `${SHOTS}/${who === manager ? 'manager' : 'employee'}-view-pasted-link-${width}.png`,
      });
      await viewerFits(page, width);
      await browser.close();
      browser = undefined;
    }
  });
});

/**
 * A purchase three weeks old awaiting its receipt, as the settlement writes it, then the daily receipt job;
 * returns the days the screens should name: bought, due, and overdue since (the day after due).
 */
async function overdueReceiptAndFreeze(employee: SignedIn & { cardId: string }) {
  const me = await api(env.apiUrl, 'GET', '/me', { token: employee.accessToken });
  const db = e2eTable(env);
  const createdAt = new Date(Date.now() - 21 * 86_400_000).toISOString();
  const due = receiptDueDay(createdAt, DEFAULT_TIME_ZONE);
  await db.send(
    new PutCommand({
      TableName: env.tableName,
      Item: purchaseItem({
        purchaseId: `ipi_overdue_${Date.now()}`,
        userId: employee.userId,
        teamId: me.body.teamId,
        cardId: employee.cardId,
        amountCents: 649,
        merchant: 'Powell’s Books',
        category: 'book_stores',
        createdAt,
        receiptStatus: 'awaiting',
      }),
    }),
  );
  // The job runs once a day; today's run (another test's, or the scheduler's) must not stop this one.
  await db.send(
    new DeleteCommand({
      TableName: env.tableName,
      Key: keys.jobRun('receiptDeadlines', new Date().toISOString().slice(0, 10)),
    }),
  );
  const ran = await fetch(`${env.apiUrl}/_local/jobs/receiptDeadlines`, { method: 'POST' });
  expect(ran.status).toBe(200);
  expect(await ran.json()).toMatchObject({ summary: { cardsFrozen: 1 } });
  return {
    bought: formatUsDay(dayIn(createdAt, DEFAULT_TIME_ZONE)),
    due: formatUsDay(due),
    overdueSince: formatUsDay(receiptOverdueSince(due)),
  };
}

describe('a card frozen for a missing receipt', () => {
  it('at 375 px: the manager sees whose receipt is overdue, wrapped; the employee is told which receipt to upload, then that the card works again', async () => {
    const { manager, employee } = await team();
    const days = await overdueReceiptAndFreeze(employee);

    browser = await launchBrowser({ width: 375, height: 812 });
    const managerPage = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    const latest = managerPage.getByRole('table', { name: 'Latest purchases' });
    const row = latest.getByRole('row').filter({ hasText: 'Powell’s Books' });
    await row.getByText(employee.name).waitFor();
    // Overdue since the day after the due day the employee's banner names (the Activity Log says the same).
    await row.getByText(`Awaiting Receipt (overdue since ${days.overdueSince})`, { exact: true }).waitFor();
    expect(await latest.getByRole('columnheader').allTextContents()).toEqual([
      'Name, title, date, vendor',
      'Price',
      'Receipts',
    ]);
    // Wrapped, not cut off: neither the status nor the table is wider than its box.
    const status = row.getByTestId('receipt-status');
    expect(await status.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const region = managerPage.getByRole('region', { name: 'Latest purchases, scrolls sideways' });
    expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const box = await status.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    await expectAccessible(managerPage, 'dashboard, manager, overdue receipt, 375');
    await managerPage.screenshot({ path: `${SHOTS}/manager-dashboard-overdue-375.png`, fullPage: true });
    // The Employees screen names whose receipt is overdue and why the card is frozen.
    await managerPage.goto(`${env.webUrl}/dashboard/employees`);
    // The card's state says why it is frozen; the line under it counts the receipts it waits for.
    await managerPage.getByText('Frozen: receipt overdue').waitFor();
    await managerPage.getByText('1 receipt overdue: card frozen until it is in', { exact: true }).waitFor();
    await managerPage.screenshot({ path: `${SHOTS}/manager-employees-overdue-375.png`, fullPage: true });
    await browser.close();

    browser = await launchBrowser({ width: 375, height: 812 });
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    const banner = page.getByTestId('receipt-freeze-banner');
    await banner.getByText('Your card is frozen: a receipt is overdue').waitFor();
    await banner
      .getByText(
        `Upload the receipt for Powell’s Books, $6.49 on ${days.bought} (due ${days.due}) and your card works again at once.`,
        { exact: true },
      )
      .waitFor();
    await expectAccessible(page, 'dashboard, employee, receipt freeze, 375');
    await page.screenshot({ path: `${SHOTS}/employee-dashboard-frozen-375.png`, fullPage: true });

    await banner.getByRole('link', { name: 'Upload receipt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload receipt' });
    await dialog.waitFor();
    await dialog.getByLabel('Title').fill('Leadership book');
    await dialog.getByLabel('Receipt image').setInputFiles(RECEIPT_PNG);
    await dialog.getByText('Chosen: receipt.png').waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Your card is active again.').waitFor();
    await page.screenshot({ path: `${SHOTS}/employee-card-active-again-375.png` });
    await page.getByRole('button', { name: /^Virtual card: \$25\.00 remaining$/ }).waitFor();
    await page.goto(`${env.webUrl}/dashboard`);
    await page.getByRole('table', { name: 'Latest purchases' }).waitFor();
    await page.getByRole('button', { name: /^Virtual card: \$25\.00 remaining$/ }).waitFor();
    expect(await page.getByTestId('receipt-freeze-banner').count()).toBe(0);
  });
});
