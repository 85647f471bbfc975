/**
 * The manager's Subscription screen in a real browser through the whole local
 * stack (issue 11, point 2): suspend and resume, each confirmed with its
 * consequences; the frame's banner for a suspended and a closed team; closing
 * with the money redeemed (the dialog's amounts compared with the ledger
 * afterwards) and the team left read-only; and the e-mail of each step in the
 * local mailbox. Axe at 375 and 1280 px; screenshots go to SCREENSHOT_DIR.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, PASSWORD } from '../support/accountFlows';
import { launchBrowser, seriousViolations, signInPage } from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));
const SHOTS = process.env.SCREENSHOT_DIR;

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

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

function notification(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

async function subjects(email: string): Promise<string[]> {
  return (await mailbox.to(email)).map((m) => m.subject);
}

describe('the Subscription screen', () => {
  it('suspends and resumes with confirmation, shows the banner meanwhile, and e-mails each step', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    // Nothing charged yet: the payments history says so.
    const fresh = await signedInPage(manager.email, 1280);
    await fresh.goto(`${env.webUrl}/dashboard/subscription`);
    await fresh
      .getByTestId('payments-empty')
      .getByText(/^Nothing has been charged yet\./)
      .waitFor();
    await joinTeamOverApi(env.apiUrl, mailbox, manager, 30, { firstName: 'Alex', lastName: 'Kim' });
    // Someone invited, not joined: nothing charged yet, but said beside the total.
    const invite = await api(env.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: `later-${crypto.randomUUID().slice(0, 8)}@example.com`, budget: 40 },
    });
    expect(invite.status).toBe(200);

    for (const width of [375, 1280]) {
      const page = await signedInPage(manager.email, width);
      await page.goto(`${env.webUrl}/dashboard/subscription`);
      await page.locator('[data-subscription-state="running"]').waitFor();
      // What the card was charged when Alex joined: one row, in words, with the card it went to.
      const payments = page.getByRole('table', { name: 'Payments' });
      const joined = payments.getByTestId('payment-row').filter({ hasText: 'Joining: Alex Kim' });
      await joined.waitFor();
      expect(await joined.getAttribute('data-cents')).toBe('3000');
      expect(await joined.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}.*Visa ending in 4242.*\$30\.00/);
      // A phone reads it without scrolling sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The next charge, as the server reads it from the funding job's rules (spec §9 dates).
      const facts = page.getByTestId('next-charge');
      await facts.getByText(/^The \d{1,2}(st|nd|rd|th) of each month/).waitFor();
      await facts.getByText(/^\d{2}\/\d{2}\/\d{4}$/).waitFor();
      await facts.getByText('$30.00 for 1 active employee at their next budget').waitFor();
      expect(await facts.getByTestId('invited-cost').textContent()).toBe(
        '1 invited person adds $40.00 a month once they join. Each is charged their first budget on the day they finish signing up.',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `subscription-running-${width}`);
    }
    const page = await signedInPage(manager.email, 1280);
    // Reached from the side menu.
    await page.getByRole('link', { name: 'Subscription' }).click();
    await page.waitForURL('**/dashboard/subscription');

    await page.getByRole('button', { name: 'Suspend subscription' }).click();
    const suspendDialog = page.getByRole('dialog', { name: 'Suspend subscription?' });
    await expect.poll(() => suspendDialog.textContent()).toContain('nobody is charged');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'subscription-suspend-dialog-1280');
    await suspendDialog.getByRole('button', { name: 'Suspend', exact: true }).click();
    await notification(page, 'Subscription suspended.').waitFor();
    await page.locator('[data-subscription-state="suspended"]').waitFor();
    await page.getByText(/^Suspended on \d{2}\/\d{2}\/\d{4}\.$/).waitFor();
    expect(await page.getByTestId('next-charge').count()).toBe(0);
    // The frame's banner, on every signed-in page.
    await page.locator('[data-team-status="suspended"]').waitFor();
    await page.getByRole('link', { name: 'Employees' }).click();
    await page.locator('[data-team-status="suspended"]').waitFor();
    await shoot(page, 'subscription-suspended-banner-1280');
    // Deposits are off while suspended: the server says so.
    const deposit = await api(env.apiUrl, 'POST', '/funds/deposit', {
      token: manager.accessToken,
      idempotencyKey: `dep-${crypto.randomUUID()}`,
      body: { userIds: [manager.userId], amount: 5 },
    });
    expect(deposit.status).toBe(409);

    const narrow = await signedInPage(manager.email, 375);
    await narrow.goto(`${env.webUrl}/dashboard/subscription`);
    await narrow.locator('[data-subscription-state="suspended"]').waitFor();
    expect(await seriousViolations(narrow)).toEqual([]);
    await shoot(narrow, 'subscription-suspended-375');

    await narrow.getByRole('button', { name: 'Resume subscription' }).click();
    const resumeDialog = narrow.getByRole('dialog', { name: 'Resume subscription?' });
    await resumeDialog.getByRole('button', { name: 'Resume', exact: true }).click();
    await notification(narrow, 'Subscription resumed.').waitFor();
    await narrow.locator('[data-subscription-state="running"]').waitFor();
    await expect.poll(() => narrow.locator('[data-team-status]').count()).toBe(0);

    await expect
      .poll(() => subjects(manager.email))
      .toEqual(
        expect.arrayContaining(['Your subscription is suspended', 'Your subscription is active again']),
      );
  });

  it('closes with the money redeemed: cards cancelled, the amounts the dialog showed on the ledger, the team read-only', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 40);

    const page = await signedInPage(manager.email, 375);
    await page.goto(`${env.webUrl}/dashboard/subscription`);
    await page.getByRole('button', { name: 'Close subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close subscription?' });
    const left = dialog.locator('[data-cents]');
    await expect.poll(() => left.getAttribute('data-cents')).toBe('4000');
    const redeem = dialog.getByRole('radio', { name: /Refund it to my card on file/ });
    expect(await redeem.isChecked()).toBe(true);
    const option = dialog.locator('[data-net-cents]');
    const netCents = Number(await option.getAttribute('data-net-cents'));
    const feeCents = Number(await option.getAttribute('data-fee-cents'));
    expect(netCents + feeCents).toBe(4000);
    // Written as the redeem dialog writes it: "15%", not "15 %".
    expect(await dialog.getByRole('radio', { name: /\(15% or \$5, whichever is greater\)$/ }).count()).toBe(
      1,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'subscription-close-dialog-375');
    await dialog.getByRole('button', { name: 'Close subscription' }).click();
    await notification(page, 'Subscription closed.').waitFor();
    await page.locator('[data-subscription-state="closed"]').waitFor();
    await page.locator('[data-team-status="closed"]').waitFor();
    // The refund is in the payments history as money back, its fee named (after a reload: a new read).
    await page.reload();
    const refund = page
      .getByTestId('payment-row')
      .filter({ hasText: 'Refund of the balance left on closing' });
    await refund.getByText(`Refunded $${(netCents / 100).toFixed(2)}`).waitFor();
    expect(await refund.getAttribute('data-direction')).toBe('refund');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'subscription-closed-375');

    // The ledger holds what the dialog said: one redemption of $40, the fee and the net as shown.
    const ledger = await api(env.apiUrl, 'GET', '/team/ledger', { token: manager.accessToken });
    const redemption = ledger.body.entries.find((e: { kind: string }) => e.kind === 'redemption');
    const legs = redemption.legs as { account: string; amountCents: number }[];
    expect(legs.find((l) => l.account.startsWith('pool:'))?.amountCents).toBe(-4000);
    expect(legs.find((l) => l.account.startsWith('external:'))?.amountCents).toBe(netCents);

    // The employee's card is cancelled; they see the closed banner and can still read their history.
    const employeePage = await signedInPage(employee.email, 1280);
    await employeePage.goto(`${env.webUrl}/dashboard/purchasehistory`);
    await employeePage.locator('[data-team-status="closed"]').waitFor();
    expect(await seriousViolations(employeePage)).toEqual([]);
    await shoot(employeePage, 'subscription-closed-employee-1280');

    // Read-only: a write is refused with the reason.
    const invite = await api(env.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: 'someone@example.com', budget: '25' },
    });
    expect(invite.status).toBe(409);
    expect(invite.body.error.message).toMatch(/subscription is closed/);

    const mails = await mailbox.to(manager.email);
    const closed = mails.find((m) => m.subject === 'Your subscription is closed');
    expect(closed?.body.text).toContain('1 card was cancelled');
  });
});
