/**
 * The signed-in frame in a real browser (manager console issue): the
 * walkthrough tour (5 steps for a manager, 4 for an employee, last 'Done',
 * Escape closes it, seen once), notifications from @mantine/notifications,
 * the past-due banner with its way out, and the activity log. Screenshots at
 * 375 and 1280 px go to SCREENSHOT_DIR when it is set.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import {
  api,
  inviteAndRegisterEmployee,
  linkToken,
  PASSWORD,
  registerManager,
  type SignedIn,
} from '../support/accountFlows';
import { closeTourIfDue, launchBrowser, seriousViolations, signInPage } from '../support/browser';
import { e2eTable } from '../support/e2eTable';
import { Mailbox } from '../support/integrationStack';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));
const SHOTS = process.env.SCREENSHOT_DIR;

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

async function signedInPage(email: string, width = 1280): Promise<Page> {
  browser = await launchBrowser({ width, height: 900 });
  const page = await signInPage(browser.context, env.webUrl, email, PASSWORD);
  return page;
}

/** A verified manager whose team's billing is set up with the emulator's always-approving card. */
async function managerWithBilling(): Promise<SignedIn> {
  const manager = await registerManager(env.apiUrl, mailbox);
  const setup = await api(env.apiUrl, 'POST', '/billing/setup', {
    token: manager.accessToken,
    idempotencyKey: randomUUID(),
    body: {
      businessName: 'Frame Test LLC',
      token: 'tok_visa',
      billingAddress: { address1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' },
    },
  });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  return manager;
}

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe('walkthrough tour', () => {
  it("walks a manager through 5 steps to 'Done', stores it, and never shows it again", async () => {
    const manager = await managerWithBilling();
    const page = await signedInPage(manager.email);
    const popover = page.locator('.driver-popover');
    await popover.waitFor();
    expect(await page.locator('[data-walkthrough]').getAttribute('data-walkthrough')).toBe('due');
    expect(await page.getByRole('dialog').getByText('Step 1 of 5').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'tour-manager-1280');
    for (let step = 2; step <= 5; step++) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText(`Step ${step} of 5`).waitFor();
    }
    expect(await page.getByRole('button', { name: 'Next' }).count()).toBe(0);
    const stored = page.waitForResponse((r) => r.url().endsWith('/me/walkthrough') && r.ok());
    await page.getByRole('button', { name: 'Done' }).click();
    await stored;
    await popover.waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.locator('[data-walkthrough]').getAttribute('data-walkthrough')).toBe('seen');
    expect(await popover.count()).toBe(0);
  });

  it('gives an employee 4 steps, moves with the arrow keys, and closes with Escape', async () => {
    const manager = await managerWithBilling();
    const employee = await inviteAndRegisterEmployee(env.apiUrl, manager, 25, { mailbox });
    const page = await signedInPage(employee.email, 375);
    await page.getByText('Step 1 of 4').waitFor();
    // The Shop tab is folded into the phone's menu: the step points at the menu button and says so.
    await page.locator('[data-tour="header-menu"].driver-active-element').waitFor();
    await page.locator('.driver-popover').getByText('Open the menu to find it.').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByText('Step 2 of 4').waitFor();
    // So is the search (in the closed menu, slid off screen): the menu button again.
    await page.locator('[data-tour="header-menu"].driver-active-element').waitFor();
    await page.locator('.driver-popover').getByText('Open the menu to find it.').waitFor();
    await shoot(page, 'tour-employee-375');
    await closeTourIfDue(page);
    const me = await api(env.apiUrl, 'GET', '/me', { token: employee.accessToken });
    expect(me.body.finishedWalkthrough).toBe(true);
  });
});

describe('frame', () => {
  it('is accessible while the dashboard is still loading its lists (spinners are named statuses)', async () => {
    const manager = await managerWithBilling();
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: manager.accessToken, body: {} });
    browser = await launchBrowser({ width: 1280, height: 900 });
    // Hold the dashboard's two lists until the check is done: on a busy machine axe ran while
    // their spinners showed, and a spinner named without a role is a serious violation.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await browser.context.route(/\/api\/(purchases|employees)(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.getByRole('status', { name: 'Loading purchases' }).waitFor();
    await page.getByRole('status', { name: 'Loading employees' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    release();
    await page.getByRole('status', { name: 'Loading purchases' }).waitFor({ state: 'detached' });
  });

  it('shows the past-due banner with a way to the cards page, only to the manager', async () => {
    const manager = await managerWithBilling();
    const me = await api(env.apiUrl, 'GET', '/me', { token: manager.accessToken });
    // The renewal's decline is the money core's to test; here the banner only needs the team's state.
    const db = e2eTable(env);
    await db.send(
      new UpdateCommand({
        TableName: env.tableName,
        Key: keys.team(me.body.teamId),
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'pastDue' },
      }),
    );
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: manager.accessToken, body: {} });
    for (const width of [375, 1280]) {
      const page = await signedInPage(manager.email, width);
      const banner = page.getByRole('alert').filter({ hasText: "Your team's card was declined" });
      await banner.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `past-due-${width}`);
      await banner.getByRole('link', { name: 'Update payment card' }).click();
      await page.waitForURL(`${env.webUrl}/dashboard/creditcard`);
      await browser?.close();
      browser = undefined;
    }
  });

  it('starts the walkthrough only once the e-mail is verified: it never covers the Resend button', async () => {
    const manager = await registerManager(env.apiUrl, mailbox, { verify: false });
    const page = await signedInPage(manager.email);
    const resend = page.getByRole('button', { name: 'Resend verification email' });
    await resend.waitFor();
    expect(await page.locator('[data-walkthrough]').getAttribute('data-walkthrough')).toBe(
      'afterVerification',
    );
    await resend.click();
    await page.locator('.mantine-Notification-root').filter({ hasText: 'Verification email sent' }).waitFor();
    expect(await page.locator('.driver-popover').count()).toBe(0);
    await shoot(page, 'unverified-no-tour-1280');

    // Verified: the next visit starts the tour.
    const verified = await fetch(`${env.apiUrl}/auth/verifyEmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: await linkToken(mailbox, manager.email, '/verify') }),
    });
    expect(verified.ok).toBe(true);
    await page.reload();
    await page.locator('[data-walkthrough="due"]').waitFor();
    await page.locator('.driver-popover').waitFor();
    expect(await resend.count()).toBe(0);
  });

  it('announces the resend of the verification e-mail in a notification', async () => {
    const manager = await registerManager(env.apiUrl, mailbox, { verify: false });
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: manager.accessToken, body: {} });
    const page = await signedInPage(manager.email);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    const note = page.locator('.mantine-Notification-root').filter({ hasText: 'Verification email sent' });
    await note.waitFor();
    expect(await note.getAttribute('role')).toBe('status');
  });
});

describe('activity log', () => {
  it('lists the team’s actions newest first and filters them by kind and person', async () => {
    const manager = await managerWithBilling();
    const employee = await inviteAndRegisterEmployee(env.apiUrl, manager, 30, { mailbox });
    const paused = await api(env.apiUrl, 'POST', '/employees/pause', {
      token: manager.accessToken,
      body: { userIds: [employee.userId], action: 'pause' },
    });
    expect(paused.status).toBe(200);
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: manager.accessToken, body: {} });

    for (const width of [1280, 375]) {
      const page = await signedInPage(manager.email, width);
      await page.goto(`${env.webUrl}/dashboard/activity`);
      const table = page.getByRole('table', { name: 'Activity log' });
      await table.waitFor();
      const firstRow = table.locator('tbody tr').first();
      // Newest first: the pause, by the manager, to the employee.
      expect(await firstRow.textContent()).toContain('Paused');
      expect(await firstRow.textContent()).toContain('Mary Manager');
      expect(await firstRow.textContent()).toContain('Eddie Employee');
      await table.getByText('Budget funded').first().waitFor();
      const funded = table.locator('tbody tr').filter({ hasText: 'Budget funded' }).first();
      if (width === 1280) {
        // Who and To whom are in the table's type, like What beside them (the walk saw them larger).
        const sizes = await firstRow.evaluate((row) =>
          [...row.querySelectorAll('td')].slice(1, 4).map((cell) => {
            const text = cell.querySelector('span') ?? cell;
            return `${getComputedStyle(text).fontSize} ${getComputedStyle(text).fontFamily}`;
          }),
        );
        expect(new Set(sizes).size, sizes.join(' | ')).toBe(1);
        // What the product did by itself names it in words a manager reads, not "System".
        expect(await funded.locator('td').nth(1).textContent()).toBe('Learning Budget (automatic)');
      } else {
        // A phone: one entry per cell, who → what → to whom, so nothing is off screen.
        expect(await funded.locator('[data-entry]').textContent()).toMatch(
          /^Learning Budget \(automatic\) → Budget funded/,
        );
        expect(await firstRow.locator('[data-entry]').textContent()).toBe(
          'Mary Manager → Paused → Eddie Employee',
        );
        const sideways = await page.evaluate(() => {
          const wide = [...document.querySelectorAll<HTMLElement>('main *')].filter((element) => {
            const { overflowX } = getComputedStyle(element);
            const scrolls = overflowX === 'auto' || overflowX === 'scroll';
            return (
              (scrolls && element.scrollWidth > element.clientWidth) ||
              element.getBoundingClientRect().right > window.innerWidth + 0.5
            );
          });
          const page = document.scrollingElement as HTMLElement;
          return [
            ...(page.scrollWidth > window.innerWidth ? [`page ${page.scrollWidth}px`] : []),
            ...wide.map((element) => `${element.tagName} ${element.className}`.slice(0, 80)),
          ];
        });
        expect(sideways).toEqual([]);
        const details = firstRow.locator('[data-details]');
        expect(await details.textContent()).toBe('active → paused');
        expect(await details.isVisible()).toBe(true);
        const box = await details.boundingBox();
        expect(box !== null && box.x >= 0 && box.x + box.width <= 375, JSON.stringify(box)).toBe(true);
      }
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `activity-${width}`);
      await browser?.close();
      browser = undefined;
    }

    const page = await signedInPage(manager.email);
    await page.goto(`${env.webUrl}/dashboard/activity`);
    const table = page.getByRole('table', { name: 'Activity log' });
    await table.waitFor();
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Billing' }).click();
    await table.getByText('Set up billing').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('table[aria-label="Activity log"] tbody tr')].every(
        (row) => !row.textContent?.includes('Paused'),
      ),
    );
    expect(await table.getByText('Paused').count()).toBe(0);

    // Person: back to every kind, only what concerned the employee.
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Billing' }).click(); // choosing it again clears it
    await page.getByRole('combobox', { name: 'Person' }).click();
    await page.getByRole('option', { name: 'Eddie Employee' }).click();
    await table.getByText('Paused').first().waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('table[aria-label="Activity log"] tbody tr')].every((row) =>
        row.textContent?.includes('Eddie Employee'),
      ),
    );
    expect(await table.getByText('Set up billing').count()).toBe(0);
  });
});
