/**
 * The Subscription page's invoices in a real browser through the whole local
 * stack (issue 25, point 1): a joining charge makes an invoice, e-mailed to the
 * manager with a link to the list; the list shows its number, date and amount
 * at 375 and 1280 px, and its PDF link downloads the PDF the API rendered.
 * Axe at both widths; screenshots go to SCREENSHOT_DIR.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PASSWORD } from '../support/accountFlows';
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

async function signedInPage(email: string, width = 1280): Promise<Page> {
  await browser?.close();
  browser = await launchBrowser({ width, height: 900 });
  return signInPage(browser.context, env.webUrl, email, PASSWORD);
}

describe('the invoices on the Subscription page', () => {
  it('lists every invoice with its number, date and amount, and downloads its PDF', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const empty = await signedInPage(manager.email, 1280);
    await empty.goto(`${env.webUrl}/dashboard/subscription`);
    await empty.getByTestId('invoices-empty').waitFor();

    await joinTeamOverApi(env.apiUrl, mailbox, manager, 30, { firstName: 'Alex', lastName: 'Kim' });
    await joinTeamOverApi(env.apiUrl, mailbox, manager, 45, { firstName: 'Bo', lastName: 'Diaz' });
    // The manager's e-mail for each charge: its number, total, and a link to this list.
    const mails = (await mailbox.to(manager.email)).filter((m) => m.subject.startsWith('Invoice '));
    expect(mails.map((m) => m.subject).sort()).toEqual([
      expect.stringMatching(/^Invoice INV-[A-Z0-9]{6}-000001: \$30\.00 charged$/),
      expect.stringMatching(/^Invoice INV-[A-Z0-9]{6}-000002: \$45\.00 charged$/),
    ]);
    expect(mails[0]?.body.text).toContain(`${env.webUrl.replace(/\/$/, '')}/dashboard/subscription#invoices`);
    const first = /INV-[A-Z0-9]{6}-000001/.exec(mails.map((m) => m.subject).join(' '))?.[0] as string;

    for (const width of [375, 1280]) {
      const page = await signedInPage(manager.email, width);
      await page.goto(`${env.webUrl}/dashboard/subscription#invoices`);
      const table = page.getByRole('table', { name: 'Invoices' });
      const row = table.locator(`[data-invoice="${first}"]`);
      await row.waitFor();
      expect(await row.textContent()).toMatch(
        new RegExp(`${first}Invoice.*\\d{2}/\\d{2}/\\d{4}.*\\$30\\.00PDF`),
      );
      // Newest first.
      expect(await table.locator('[data-invoice]').first().getAttribute('data-invoice')).toMatch(/-000002$/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      if (width === 1280) {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          row.getByRole('button', { name: `PDF of ${first}` }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(`${first}.pdf`);
        const pdf = await readFile((await download.path()) as string, 'latin1');
        expect(pdf.startsWith('%PDF-1.4')).toBe(true);
        expect(pdf).toContain(`(Number: ${first})`);
        expect(pdf).toContain('(First learning budget: Alex Kim)');
        expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
        await page.locator('#invoices').scrollIntoViewIfNeeded();
        await shootAtWidths(page, 'subscription-invoices');
      }
    }
  });
});
