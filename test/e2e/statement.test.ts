/**
 * The employee's statement in a real browser (issue 10 item 6): after a $25
 * credit and a $12.50 purchase paid at the sandbox checkout, /dashboard/statement
 * lists the credit, the hold and the purchase it became, one row each, newest
 * first, with the available balance and what is on hold after each, dates
 * MM/DD/YYYY and amounts in dollars with cents, inside a focusable region; at
 * 375 px in the compact layout, with nothing off-screen. Reached from the side menu at 1280 px and from the card dialog at
 * 375 px; axe finds nothing serious at either width.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_TIME_ZONE, formatDateIn } from '@shared/domain/calendar';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, inviteAndRegisterEmployee, PASSWORD, registerManager } from '../support/accountFlows';
import { launchBrowser, seriousViolations } from '../support/browser';
import { type CardDetails, payAtCheckout } from '../support/checkout';
import { Mailbox } from '../support/integrationStack';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

async function fundedEmployee() {
  const manager = await registerManager(env.apiUrl, mailbox);
  const setup = await api(env.apiUrl, 'POST', '/billing/setup', {
    token: manager.accessToken,
    idempotencyKey: randomUUID(),
    body: {
      businessName: 'Statement Test LLC',
      token: 'tok_visa',
      billingAddress: { address1: '500 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
    },
  });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const employee = await inviteAndRegisterEmployee(env.apiUrl, manager, 25, { mailbox });
  await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
  const key = await api(env.apiUrl, 'POST', '/me/cardKey', { token: employee.accessToken, body: {} });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  const cardId = key.body.cardId as string;
  const card = (await (
    await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${cardId}/details`)
  ).json()) as CardDetails;
  return { employee, card };
}

describe('the statement', () => {
  // One sign-in for both widths (sign-ins from the browser share one per-address limit).
  it('at 1280 px from the side menu and at 375 px from the card dialog: every movement with the running balance, MM/DD/YYYY and $ amounts, in a focusable region', async () => {
    const { employee, card } = await fundedEmployee();
    browser = await launchBrowser({ width: 1280, height: 900 });
    const till = await browser.context.newPage();
    expect(await payAtCheckout(till, card, '12.50')).toBe('Approved');
    // The purchase settles (issuing_transaction.created) right after the approval; wait until the API shows it.
    await expect
      .poll(
        async () =>
          (await api(env.apiUrl, 'GET', '/me/statement', { token: employee.accessToken })).body.lines
            .map((l: { type: string }) => l.type)
            .includes('purchase'),
        { timeout: 10_000 },
      )
      .toBe(true);

    const page = await browser.context.newPage();
    await page.goto(`${env.webUrl}/login`);
    await page.getByLabel('Work Email').fill(employee.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      if (width === 1280) {
        await page.getByRole('link', { name: 'Statement' }).click();
      } else {
        await page.goto(`${env.webUrl}/dashboard`);
        await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
        await page.getByRole('button', { name: /^Virtual card:/ }).click();
        const dialog = page.getByRole('dialog', { name: 'Virtual Card' });
        await dialog.getByRole('link', { name: /statement/ }).click();
      }
      await page.waitForURL(`${env.webUrl}/dashboard/statement`);
      await page.getByRole('heading', { name: 'Statement', level: 1 }).waitFor();
      await checkStatement(page, width);
    }
  });
});

async function checkStatement(page: Page, width: number) {
  const region = page.getByRole('region', { name: 'Statement, scrolls sideways' });
  await region.waitFor();
  expect(await region.getAttribute('tabindex')).toBe('0');
  const table = region.getByRole('table', { name: 'Statement' });
  const rows = table.locator('tbody tr');
  await rows.first().waitFor();
  const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  // Dates are the team's: a team that never chose a zone is on New York's calendar.
  const today = formatDateIn(new Date(), DEFAULT_TIME_ZONE);
  // One row per movement, newest first: the purchase, the hold it settled, the credit.
  expect(texts, texts.join('\n')).toHaveLength(3);
  const [purchase, hold, credit] = texts as [string, string, string];
  for (const text of texts) expect(text).toContain(today);
  if (width === 1280) {
    for (const text of texts) expect(text).toMatch(/^\d{2}\/\d{2}\/\d{4} /);
    expect(credit).toMatch(/Credit First learning budget \+\$25\.00 \$25\.00$/);
    expect(hold).toMatch(/Hold Hold for Powell’s Books .*-\$12\.50 \$12\.50 \$12\.50 on hold$/);
    expect(purchase).toMatch(/Purchase Purchase at Powell’s Books .*-\$12\.50 \$12\.50 nothing on hold$/);
  } else {
    expect(credit).toMatch(/^First learning budget .* · Credit \+\$25\.00 Available \$25\.00$/);
    expect(hold).toMatch(
      /^Hold for Powell’s Books .* · Hold .*-\$12\.50 Available \$12\.50 \$12\.50 on hold$/,
    );
    expect(purchase).toMatch(
      /^Purchase at Powell’s Books .* · Purchase .*-\$12\.50 Available \$12\.50 nothing on hold$/,
    );
    // The phone layout fits: nothing scrolls sideways, the balance is on screen.
    expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const box = await rows.first().locator('td').last().boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
  }
  // The captured purchase says its hold became it; nothing is "(on hold)" or negative on hold.
  expect(purchase).toContain('the hold became this purchase');
  expect(hold).toContain('Settled: this hold became the purchase.');
  for (const text of texts) expect(text).not.toMatch(/-\$[\d.,]+ on hold|\(on hold\)/);

  await region.focus();
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
    'Statement, scrolls sideways',
  );
  // The pointer may rest on the side-menu link it clicked; Mantine's hover shade on the active
  // NavLink is a known low-contrast state of the shared layout (reported, not this page's).
  await page.mouse.move(width - 5, 890);
  expect(await seriousViolations(page), `at ${width} px`).toEqual([]);
}
