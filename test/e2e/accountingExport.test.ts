/**
 * The Subscription page's accounting export (issue 26, point 3) in a real
 * browser through the whole local stack: a month not yet begun is refused on
 * the Month field; this month's Xero and QuickBooks Online files download
 * with the employee's joining charge as a balanced journal. Axe at 375 and
 * 1280 px; screenshots go to SCREENSHOT_DIR.
 */
import { readFile } from 'node:fs/promises';
import { dayIn } from '@shared/domain/calendar';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PASSWORD } from '../support/accountFlows';
import {
  launchBrowser,
  seriousViolations,
  settleAtWidth,
  shootAtWidths,
  signInPage,
} from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

describe('the accounting export on the Subscription page', () => {
  it("downloads a month's journals for Xero and QuickBooks Online, and refuses a month not yet begun", async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    await joinTeamOverApi(env.apiUrl, mailbox, manager, 30, { firstName: 'Alex', lastName: 'Kim' });
    // The team's calendar is the default one (US Eastern) until the manager chooses.
    const month = dayIn(new Date(), 'America/New_York').slice(0, 7);
    const nextYear = `${Number(month.slice(0, 4)) + 1}-01`;

    browser = await launchBrowser({ width: 1280, height: 900 });
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/subscription`);
    const section = page.getByRole('region', { name: 'Accounting export' });
    await section.waitFor();

    await section.getByLabel('Month').fill(nextYear);
    await section.getByRole('button', { name: 'Xero (CSV)' }).click();
    await section.getByText('Choose a month that has started: this month or an earlier one').waitFor();
    expect(await section.getByLabel('Month').getAttribute('aria-invalid')).toBe('true');

    await section.getByLabel('Month').fill(month);
    const [xero] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Xero (CSV)' }).click(),
    ]);
    expect(xero.suggestedFilename()).toBe(`learning-budgets-${month}-xero.csv`);
    const xeroRows = (await readFile((await xero.path()) as string, 'utf8')).trimEnd().split('\r\n');
    expect(xeroRows[0]).toBe(
      '*Narration,*Date,Description,*AccountCode,*TaxRate,*Amount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2',
    );
    // The joining charge: the prepaid budgets up $30.00, the card on file down as much.
    expect(xeroRows.slice(1).map((row) => row.split(',').slice(-7, -4))).toEqual([
      ['LBPREPAID', 'Tax Exempt', '30.00'],
      ['LBBANK', 'Tax Exempt', '-30.00'],
    ]);

    const [quickbooks] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'QuickBooks Online (CSV)' }).click(),
    ]);
    expect(quickbooks.suggestedFilename()).toBe(`learning-budgets-${month}-quickbooks.csv`);
    const qboRows = (await readFile((await quickbooks.path()) as string, 'utf8')).trimEnd().split('\r\n');
    expect(qboRows[0]).toBe('Journal No,Journal Date,Account,Debits,Credits,Description,Name');
    expect(qboRows[1]).toMatch(/^LB-\d{8}-CHG,\d{2}\/\d{2}\/\d{4},Prepaid learning budgets,30\.00,,/);
    expect(qboRows[2]).toMatch(/^LB-\d{8}-CHG,\d{2}\/\d{2}\/\d{4},Bank \/ card on file,,30\.00,/);

    expect(await seriousViolations(page)).toEqual([]);
    await settleAtWidth(page, 375);
    await section.getByRole('button', { name: 'QuickBooks Online (CSV)' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page), 'at 375 px').toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await shootAtWidths(page, 'subscription-accounting-export');
  });
});
