/**
 * The manager's 'Download CSV' (issue 10 item 7) in a real browser: on the
 * Activity page, a month range and the button download the team's purchases
 * with receipt state; the purchase was paid at the sandbox checkout with the
 * employee's card. axe at 1280 and 375.
 */

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, inviteAndRegisterEmployee, PASSWORD, registerManager } from '../support/accountFlows';
import { launchBrowser, seriousViolations } from '../support/browser';
import { Mailbox } from '../support/integrationStack';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

function month(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 7);
}

describe('Download CSV', () => {
  // One sign-in for both widths (sign-ins from the browser share one per-address limit).
  it("the team's purchases in the chosen months, with receipt state; axe at 1280 and 375", async () => {
    const width = 1280;
    const manager = await registerManager(env.apiUrl, mailbox);
    const setup = await api(env.apiUrl, 'POST', '/billing/setup', {
      token: manager.accessToken,
      idempotencyKey: randomUUID(),
      body: {
        businessName: 'Export Test LLC',
        token: 'tok_visa',
        billingAddress: { address1: '500 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
      },
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: manager.accessToken, body: {} });
    const employee = await inviteAndRegisterEmployee(env.apiUrl, manager, 25, { mailbox });
    const key = await api(env.apiUrl, 'POST', '/me/cardKey', { token: employee.accessToken, body: {} });
    const card = (await (
      await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${key.body.cardId}/details`)
    ).json()) as { number: string; exp_month: number; exp_year: number; cvc: string };

    browser = await launchBrowser({ width, height: 900 });
    const till = await browser.context.newPage();
    await till.goto(`${env.stripeUrl}/checkout`);
    await till.getByLabel('Card number').fill(card.number);
    await till
      .getByLabel(/Expiry/)
      .fill(`${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`);
    await till.getByLabel('CVC').fill(card.cvc);
    await till.getByLabel('Merchant name').fill('Books, "Rare" & Co');
    await till.getByLabel('Merchant category').selectOption('book_stores');
    await till.getByLabel(/Amount/).fill('12.50');
    await till.getByRole('button', { name: 'Pay' }).click();
    await till.locator('#result').getByText('Approved').waitFor();
    const from = month(-20);
    const to = month(20);
    // The purchase is recorded when the capture arrives, right after the approval.
    await expect
      .poll(
        async () =>
          (
            await api(env.apiUrl, 'GET', `/team/purchases.csv?from=${from}&to=${to}`, {
              token: manager.accessToken,
            })
          ).body as string,
        { timeout: 10_000 },
      )
      .toContain('12.50');

    const page = await browser.context.newPage();
    await page.goto(`${env.webUrl}/login`);
    await page.getByLabel('Work Email').fill(manager.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await page.goto(`${env.webUrl}/dashboard/activity`);
    await page.getByRole('heading', { name: 'Purchases as a spreadsheet' }).waitFor();
    // Backwards: the problem is named on the To field, and nothing is downloaded.
    await page.getByLabel('From month').fill(to);
    await page.getByLabel('To month').fill(from);
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await page.getByText('To month must not be before From month').waitFor();
    expect(await page.getByLabel('To month').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Some fields are missing or invalid.').count()).toBe(0);
    await page.getByLabel('From month').fill(from);
    await page.getByLabel('To month').fill(to);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`purchases-${from}-to-${to}.csv`);
    const text = readFileSync((await download.path()) as string, 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Date,Employee,Email,Title,Merchant,Category,Amount (USD),Receipt,Receipt due,Purchase id',
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d{2}/\\d{2}/\\d{4},Eddie Employee,${employee.email},,"Books, ""Rare"" & Co",book_stores,12\\.50,Awaiting,\\d{2}/\\d{2}/\\d{4},ipi_`,
      ),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 900 });
    await page.getByRole('button', { name: 'Download CSV' }).waitFor();
    expect(await seriousViolations(page), 'at 375 px').toEqual([]);
  });
});
