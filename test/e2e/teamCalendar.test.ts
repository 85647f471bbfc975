/**
 * Issue 25, "One calendar", in the browser: the manager sets the team's time
 * zone on their profile, and one purchase is dated the team's day on Purchase
 * History and the dashboard (manager and employee) and on the Statement,
 * whatever zone the browser is in. The zone is chosen so the team's day
 * differs from the browser's (UTC), the calendar those screens printed before.
 * The e-mails, the CSV and the invoices: test/integration/teamCalendar.test.ts.
 */
import { DEFAULT_TIME_ZONE, dayIn, formatDateIn, timeZoneLabel } from '@shared/domain/calendar';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, PASSWORD, type SignedIn } from '../support/accountFlows';
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

/** Pays at a bookshop with the employee's card through the emulator's card network; the settled row's time. */
async function buyABook(
  employee: SignedIn & { cardId: string },
): Promise<{ purchaseId: string; date: string }> {
  const details = await (
    await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${employee.cardId}/details`)
  ).json();
  const paid = await fetch(`${env.stripeUrl}/_emulator/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      number: details.number,
      exp_month: details.exp_month,
      exp_year: details.exp_year,
      cvc: details.cvc,
      amount: 1250,
      merchant_name: 'Powell’s Books',
      category: 'book_stores',
    }),
  });
  expect(paid.status).toBe(200);
  let settled: { purchaseId: string; date: string; status: string } | undefined;
  await expect
    .poll(
      async () => {
        const list = await api(env.apiUrl, 'GET', '/purchases', { token: employee.accessToken });
        settled = list.body.purchases.find((p: { status: string }) => p.status === 'settled');
        return settled !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return settled as { purchaseId: string; date: string };
}

/** A zone whose day at `instant` is not UTC's: one of the two ends of the map always is. */
function zoneOffUtc(instant: string): string {
  const utc = dayIn(instant, 'UTC');
  return dayIn(instant, 'Pacific/Kiritimati') !== utc ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
}

async function rowText(page: Page, name: string, containing: string): Promise<string> {
  const row = page.getByRole('table', { name }).locator('tbody tr').filter({ hasText: containing }).first();
  await row.waitFor();
  return ((await row.textContent()) ?? '').replace(/\s+/g, ' ');
}

describe("the team's calendar on every screen", () => {
  it('dates one purchase the team’s day on Purchase History, the dashboard and the Statement, in a browser on UTC', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 30);
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
    const bought = await buyABook(employee);
    const zone = zoneOffUtc(bought.date);
    const teamDay = formatDateIn(bought.date, zone);
    const utcDay = formatDateIn(bought.date, 'UTC');
    expect(teamDay).not.toBe(utcDay);

    browser = await launchBrowser({ width: 1280, height: 900 }, { timezoneId: 'UTC' });

    // The manager sets the zone on their own profile.
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/editProfile`);
    const section = page.getByTestId('team-time-zone');
    await section.getByRole('heading', { name: 'Team time zone' }).waitFor();
    const field = section.getByLabel('Time zone', { exact: true });
    expect(await field.inputValue()).toBe(timeZoneLabel(DEFAULT_TIME_ZONE));
    await field.click();
    await field.fill(zone.split('/')[1]?.replace('_', ' ') ?? zone);
    await page.getByRole('option', { name: timeZoneLabel(zone), exact: true }).click();
    await section.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText(`Dates now show in ${timeZoneLabel(zone)} time.`).waitFor();
    expect((await api(env.apiUrl, 'GET', '/me', { token: manager.accessToken })).body.timeZone).toBe(zone);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'team-time-zone');

    // The manager's screens.
    await page.goto(`${env.webUrl}/dashboard/purchasehistory`);
    const managerRow = await rowText(page, 'Purchase history', 'Powell’s Books');
    expect(managerRow).toContain(teamDay);
    expect(managerRow).not.toContain(utcDay);
    await shootAtWidths(page, 'team-calendar-manager-history');
    await page.goto(`${env.webUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const preview = await rowText(page, 'Latest purchases', 'Powell’s Books');
    expect(preview).toContain(teamDay);

    // The employee's: the dashboard, Purchase History and the Statement's purchase row.
    const mine = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    expect(await rowText(mine, 'Latest purchases', 'Powell’s Books')).toContain(teamDay);
    await mine.goto(`${env.webUrl}/dashboard/purchasehistory`);
    const history = await rowText(mine, 'Purchase history', 'Powell’s Books');
    expect(history).toContain(teamDay);
    expect(history).not.toContain(utcDay);
    await mine.goto(`${env.webUrl}/dashboard/statement`);
    const statement = await rowText(mine, 'Statement', 'Purchase at Powell’s Books');
    expect(statement).toContain(teamDay);
    expect(statement).not.toContain(utcDay);
    await shootAtWidths(mine, 'team-calendar-statement');
  });
});
