/**
 * The manager console's employee screens in a real browser (manager console
 * issue, items 3-5, 7, 8): the dashboard's 5-row preview, the Employees table
 * (search, sort, select-all, pages), every bulk action with its spec §8
 * notification, reallocation and redemption amounts shown before confirming
 * equal to what the ledger records, extra deposits, withdrawing invitations,
 * /inviteMembers per-address answers (a budget replaced by inviting again
 * included), and a freeze address that asks before it acts. Each test builds its
 * own team, so they do not depend on one another or on file order. Screenshots
 * at 375 and 1280 px go to SCREENSHOT_DIR when it is set.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { api, linkToken, PASSWORD, type SignedIn, uniqueEmail } from '../support/accountFlows';
import {
  closeTourIfDue,
  focusReturnsTo,
  launchBrowser,
  seriousViolations,
  signInPage,
} from '../support/browser';
import { e2eTable } from '../support/e2eTable';
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

async function open(email: string, width = 1280): Promise<Page> {
  await browser?.close();
  browser = await launchBrowser({ width, height: 900 });
  return signInPage(browser.context, env.webUrl, email, PASSWORD);
}

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Waits for a Mantine notification with exactly this text. */
async function notification(page: Page, text: string) {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
}

/** The Employees screen, loaded: its search box shows (the dashboard's preview table has the same name). */
async function employeesTable(page: Page) {
  await page.getByRole('heading', { name: 'Employees', level: 1 }).waitFor();
  await page.getByLabel('Search employees').waitFor();
  const table = page.getByRole('table', { name: 'Employees' });
  await table.locator('tbody tr').first().waitFor();
  return table;
}

async function goToEmployees(page: Page) {
  await page.goto(`${env.webUrl}/dashboard/employees`);
  return employeesTable(page);
}

const row = (page: Page, userId: string) => page.locator(`tr[data-user-id="${userId}"]`);

/** Waits until a row's cell says `value` (the table reloads in place after an action). */
async function rowShows(
  page: Page,
  userId: string,
  attribute: 'data-status' | 'data-card-status' | 'data-cents',
  value: string,
) {
  await row(page, userId).locator(`td[${attribute}="${value}"]`).waitFor();
}

async function select(page: Page, ...names: string[]) {
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
}

async function clearSelection(page: Page) {
  const clear = page.getByRole('button', { name: 'Clear selection' });
  if (await clear.count()) await clear.click();
}

function ledger(manager: SignedIn) {
  return api(env.apiUrl, 'GET', '/team/ledger', { token: manager.accessToken }).then(
    (res) => res.body.entries as { kind: string; legs: { account: string; amountCents: number }[] }[],
  );
}

describe('the employees table', () => {
  it('previews 5 on the dashboard, lists invited people as N/A, searches, sorts, selects all and pages', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox);
    const people = [];
    for (const [i, budget] of [30, 45, 20, 35, 25, 40].entries())
      people.push(
        await joinTeamOverApi(env.apiUrl, mailbox, manager, budget, {
          firstName: `Person${i}`,
          lastName: 'Member',
        }),
      );
    const invitedEmails = Array.from({ length: 24 }, () => uniqueEmail('pending'));
    const invited = await api(env.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: invitedEmails.join(','), budget: 25 },
    });
    expect(invited.status).toBe(200);

    const page = await open(manager.email);
    await closeTourIfDue(page);
    const preview = page.getByRole('table', { name: 'Employees' });
    await preview.locator('tbody tr').first().waitFor();
    expect(await preview.locator('tbody tr').count()).toBe(5);
    // Highest remaining budget first: the $45 person leads.
    expect(await preview.locator('tbody tr').first().textContent()).toContain('Person1 Member');
    await shoot(page, 'dashboard-1280');
    await page.getByRole('link', { name: 'See all employees' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard/employees`);
    const table = await employeesTable(page);
    expect(await table.locator('tbody tr').count()).toBe(25);
    await page.getByText('Showing 1-25 of 30').waitFor();
    const remaining = await table
      .locator('td[data-cents]')
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-cents'))));
    expect(remaining.slice(0, 6)).toEqual([4500, 4000, 3500, 3000, 2500, 2000]);
    // An invited person: last name N/A, status invited, card pending.
    const invitedRow = table.locator('tr', { hasText: invitedEmails[0] as string });
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText('Showing 26-30 of 30').waitFor();
    await page.getByRole('button', { name: 'Page 1' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'employees-1280');

    // Fuzzy search over status: 'invted' (a typo) still finds the invited people.
    await page.getByLabel('Search employees').fill('invted');
    await page.getByText('Showing 1-24 of 24').waitFor();
    await invitedRow.waitFor();
    expect(await invitedRow.textContent()).toContain('N/A');
    expect(await invitedRow.locator('td[data-status]').getAttribute('data-status')).toBe('invited');
    expect(await invitedRow.locator('td[data-card-status]').getAttribute('data-card-status')).toBe('pending');
    // Select all selects what the search shows, across pages; only withdrawing suits invited people.
    await page.getByRole('checkbox', { name: 'Select all 24 employees shown' }).check();
    await page.getByText('24 selected').waitFor();
    for (const action of ['Pause', 'Freeze', 'Delete', 'Reallocate', 'Redeem'])
      expect(await page.getByRole('button', { name: action, exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Withdraw 24 invitations', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // Search by name, then sort by name both ways with the keyboard.
    await page.getByLabel('Search employees').fill('Person');
    await page.getByText('Showing 1-6 of 6').waitFor();
    const nameHeader = table.getByRole('button', { name: 'Name' });
    await nameHeader.focus();
    await page.keyboard.press('Enter');
    await table.locator('th[aria-sort="ascending"]').waitFor();
    expect(await table.locator('tbody tr').first().textContent()).toContain('Person0 Member');
    await page.keyboard.press('Enter');
    await table.locator('th[aria-sort="descending"]').waitFor();
    expect(await table.locator('tbody tr').first().textContent()).toContain('Person5 Member');

    const small = await open(manager.email, 375);
    await closeTourIfDue(small);
    await small.getByRole('table', { name: 'Employees' }).locator('tbody tr').first().waitFor();
    expect(await seriousViolations(small)).toEqual([]);
    await shoot(small, 'dashboard-375');
    await goToEmployees(small);
    expect(await seriousViolations(small)).toEqual([]);
    // The table scrolls inside its own box; the page itself never scrolls sideways.
    expect(
      await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shoot(small, 'employees-375');
  });
});

describe('withdrawing invitations', () => {
  it('withdraws the invited people selected after a dialog naming them; their rows go and their link refuses', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox);
    const member = await joinTeamOverApi(env.apiUrl, mailbox, manager, 30, {
      firstName: 'Stays',
      lastName: 'Member',
    });
    const [sam, alex, kim, lee] = [
      uniqueEmail('sam'),
      uniqueEmail('alex'),
      uniqueEmail('kim'),
      uniqueEmail('lee'),
    ];
    const invited = await api(env.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: [sam, alex, kim, lee].join(','), budget: 40 },
    });
    expect(invited.status).toBe(200);
    const invitationRow = (page: Page, email: string) => row(page, `invite:${email}`);

    // On a phone (the compact table): one invited person beside a member.
    const small = await open(manager.email, 375);
    await goToEmployees(small);
    await invitationRow(small, sam).getByRole('checkbox').check();
    await select(small, 'Stays Member');
    const withdrawOne = small.getByRole('button', { name: 'Withdraw invitation', exact: true });
    await withdrawOne.click();
    const dialog = small.getByRole('dialog', { name: `Withdraw the invitation to ${sam}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${sam} will no longer be able to join your team`);
    expect(await dialog.textContent()).not.toContain('Stays Member');
    expect(await seriousViolations(small)).toEqual([]);
    expect(
      await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shoot(small, 'withdraw-invitation-375');
    await dialog.getByRole('button', { name: 'Withdraw invitation' }).click();
    await notification(small, 'Invitation withdrawn');
    await invitationRow(small, sam).waitFor({ state: 'detached' });
    await row(small, member.userId).waitFor();
    await small.getByText('Select people to act on several at once.').waitFor();

    // On a wide screen: two at once, named in the dialog and the button.
    const page = await open(manager.email);
    await goToEmployees(page);
    // An invited person is named by the address invited, not the table's 'N/A'.
    await page.getByRole('checkbox', { name: `Select ${alex} (invited)` }).check();
    await invitationRow(page, kim).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Withdraw 2 invitations', exact: true }).click();
    const both = page.getByRole('dialog', { name: 'Withdraw 2 invitations?' });
    await both.waitFor();
    expect(await both.textContent()).toContain(`${alex} and ${kim}`);
    await shoot(page, 'withdraw-invitations-1280');
    await both.getByRole('button', { name: 'Withdraw 2 invitations' }).click();
    await notification(page, '2 invitations withdrawn');
    await invitationRow(page, alex).waitFor({ state: 'detached' });
    await invitationRow(page, kim).waitFor({ state: 'detached' });

    // One person, from the row's own menu: the same dialog.
    await invitationRow(page, lee)
      .getByRole('button', { name: `Actions for ${lee} (invited)` })
      .click();
    await page.getByRole('menuitem', { name: 'Withdraw invitation' }).click();
    const one = page.getByRole('dialog', { name: `Withdraw the invitation to ${lee}?` });
    await one.getByRole('button', { name: 'Withdraw invitation' }).click();
    await notification(page, 'Invitation withdrawn');
    await invitationRow(page, lee).waitFor({ state: 'detached' });

    // The e-mailed links now say nobody invited them.
    for (const email of [sam, alex, kim, lee]) {
      const joined = await api(env.apiUrl, 'POST', '/auth/registerEmployee', {
        body: {
          firstName: 'Too',
          lastName: 'Late',
          email,
          password: PASSWORD,
          zip: '94110',
          token: await linkToken(mailbox, email, '/registerEmployee'),
        },
      });
      expect(joined.status).toBe(404);
      expect(joined.body.error.message).toBe('Sorry! No one invited you');
    }
  });
});

describe('a card frozen for an overdue receipt, and a long name', () => {
  it('says why the card is frozen, warns that activating lasts until the next check, and wraps a long name', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const sam = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Sam',
      lastName: 'Late',
    });
    const long = await joinTeamOverApi(env.apiUrl, mailbox, manager, 30, {
      firstName: 'A'.repeat(50),
      lastName: 'Shah',
    });
    // The receipts job's freeze (a missing receipt only), as card.test.ts makes it.
    const db = e2eTable(env);
    const freezeForReceipt = async () => {
      const frozen = await api(env.apiUrl, 'POST', '/employees/cardStatus', {
        token: manager.accessToken,
        body: { userIds: [sam.userId], status: 'inactive' },
      });
      expect(frozen.status).toBe(200);
      await db.send(
        new UpdateCommand({
          TableName: env.tableName,
          Key: keys.card(sam.cardId),
          UpdateExpression: 'SET freeze = :f',
          ExpressionAttributeValues: { ':f': { missingReceipt: true } },
        }),
      );
    };
    await freezeForReceipt();

    // 640 and 768: a 1280 px screen at 200 % zoom, and a narrow window beside the side menu (WCAG 1.4.10).
    for (const width of [1280, 768, 640, 375]) {
      const page = await open(manager.email, width);
      // The dashboard's preview: the long name wraps, the remaining budget stays on screen.
      const preview = page.getByRole('table', { name: 'Employees' });
      await preview.locator('tbody tr').first().waitFor();
      // Every remaining budget (the last cell) ends inside the window: none is pushed out of sight.
      const past = await preview.evaluate((t) =>
        [...t.querySelectorAll('tbody tr td:last-child')].map(
          (td) => td.getBoundingClientRect().right - window.innerWidth,
        ),
      );
      expect(Math.max(...past)).toBeLessThanOrEqual(0);
      await shoot(page, `dashboard-longname-${width}`);

      const table = await goToEmployees(page);
      await row(page, sam.userId)
        .locator('td[data-card-status="inactive"]')
        .getByText('Frozen: receipt overdue')
        .waitFor();
      // The long name is shown whole, wrapped, and the table needs no sideways scroll at either width:
      // on a phone too, the manager sees who, their state, their money and the row's controls at once.
      expect(await row(page, long.userId).locator('td[data-name]').textContent()).toContain(long.name);
      const sideways = () =>
        table.evaluate((t) => {
          // The box that scrolls sideways, if any: the table must fit it without scrolling.
          let box = t.parentElement;
          while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
            box = box.parentElement;
          const scroller = box ?? document.documentElement;
          return Math.max(t.scrollWidth - t.clientWidth, scroller.scrollWidth - scroller.clientWidth);
        });
      // The table picks its layout from the room it measures (a ResizeObserver), a moment after
      // its rows first show: wait for that state rather than measure the first frame (a loaded
      // CI machine once caught the full table before the switch, 328 px too wide).
      await expect.poll(sideways, { timeout: 60_000 }).toBeLessThanOrEqual(0);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
          timeout: 60_000,
        })
        .toBeLessThanOrEqual(0);
      const samRow = row(page, sam.userId);
      for (const part of [
        samRow.getByRole('checkbox', { name: `Select ${sam.name}`, exact: true }),
        samRow.getByText('Frozen: receipt overdue'),
        samRow.locator('td[data-cents]'),
        samRow.getByRole('button', { name: `Actions for ${sam.name}` }),
      ]) {
        expect(await part.isVisible()).toBe(true);
        const box = await part.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      }
      // The whole column header too, not "Remainin".
      const remaining = table.getByRole('columnheader', { name: /^Remaining/ });
      const header = await remaining.boundingBox();
      expect(header && header.x + header.width <= width).toBe(true);
      expect(await remaining.evaluate((th) => th.scrollWidth - th.clientWidth)).toBeLessThanOrEqual(0);
      // An e-mail address wraps only after its "@" or a ".": no part of one is split across lines.
      const splitParts = await table.evaluate((t) => {
        const split: string[] = [];
        for (const email of t.querySelectorAll<HTMLElement>('[data-email]')) {
          if (email.offsetParent === null) continue;
          const walker = document.createTreeWalker(email, NodeFilter.SHOW_TEXT);
          for (let text = walker.nextNode(); text; text = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(text);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) split.push(text.textContent ?? '');
          }
        }
        return split;
      });
      expect(splitParts).toEqual([]);
      await shoot(page, `employees-receipt-freeze-${width}`);
    }

    const page = await open(manager.email);
    await goToEmployees(page);
    // Bulk Activate with Sam in the selection asks first, naming him, in the one-person dialog's words.
    // The long name's card is already active: the action does not change it, so the dialog names Sam alone.
    await select(page, sam.name, long.name);
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    const bulk = page.getByRole('dialog', { name: `Activate ${sam.name}'s card?` });
    const bulkNote = bulk.getByTestId('receipt-freeze-note');
    await bulkNote.waitFor();
    await bulk
      .getByText('Sam Late will be able to pay with the card again until the next receipt check.')
      .waitFor();
    expect(await bulk.textContent()).not.toContain(long.name);
    expect(await bulk.getByRole('button', { name: 'Activate card' }).isVisible()).toBe(true);
    expect(await bulkNote.textContent()).toContain(
      "Sam Late's card was frozen because a receipt is overdue. Activating it lifts the freeze for now, but the next daily receipt check (each morning, New York time) freezes it again until Sam Late uploads the overdue receipt.",
    );
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'bulk-activate-receipt-freeze-1280');
    // Cancelled: nothing changed, the selection stays.
    await bulk.getByRole('button', { name: 'Cancel' }).click();
    await bulk.waitFor({ state: 'detached' });
    await page.getByText('2 selected').waitFor();
    expect(await row(page, sam.userId).locator('td[data-card-status]').getAttribute('data-card-status')).toBe(
      'inactive',
    );
    await clearSelection(page);

    await row(page, sam.userId)
      .getByRole('button', { name: `Actions for ${sam.name}` })
      .click();
    await page.getByRole('menuitem', { name: 'Activate card' }).click();
    const dialog = page.getByRole('dialog', { name: `Activate ${sam.name}'s card?` });
    const note = dialog.getByTestId('receipt-freeze-note');
    await note.waitFor();
    expect(await note.textContent()).toContain('freezes it again until Sam Late uploads the overdue receipt');
    await dialog
      .getByText('Sam Late will be able to pay with the card again until the next receipt check.')
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'activate-receipt-freeze-1280');
    await dialog.getByRole('button', { name: 'Activate card' }).click();
    await rowShows(page, sam.userId, 'data-card-status', 'active');

    // Frozen for the receipt again; on a phone, bulk Activate of Sam alone asks, and its confirmation activates.
    await freezeForReceipt();
    const small = await open(manager.email, 375);
    await goToEmployees(small);
    await select(small, sam.name);
    await small.getByRole('button', { name: 'Activate', exact: true }).click();
    const one = small.getByRole('dialog', { name: `Activate ${sam.name}'s card?` });
    await one.getByTestId('receipt-freeze-note').waitFor();
    await one
      .getByText('Sam Late will be able to pay with the card again until the next receipt check.')
      .waitFor();
    expect(await seriousViolations(small)).toEqual([]);
    await shoot(small, 'bulk-activate-receipt-freeze-375');
    await one.getByRole('button', { name: 'Activate card' }).click();
    await notification(small, 'Card status change successfully!');
    await rowShows(small, sam.userId, 'data-card-status', 'active');
    await small.getByText('Select people to act on several at once.').waitFor();
  });
});

describe('bulk actions', () => {
  it('pauses, freezes, deletes and reallocates with the spec’s notifications; the shares shown are what the ledger credits', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const ann = await joinTeamOverApi(env.apiUrl, mailbox, manager, 31, {
      firstName: 'Ann',
      lastName: 'Leaving',
    });
    const bob = await joinTeamOverApi(env.apiUrl, mailbox, manager, 20, {
      firstName: 'Bob',
      lastName: 'Staying',
    });
    const cy = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Cy',
      lastName: 'Staying',
    });
    const page = await open(manager.email);
    await goToEmployees(page);

    // A bulk action that went through ends its selection, so no one left
    // selected is silently included in the next one (the walk's Leo).
    const nothingSelected = async () => {
      await page.getByText('Select people to act on several at once.').waitFor();
      for (const name of [ann.name, bob.name, cy.name])
        expect(await page.getByRole('checkbox', { name: `Select ${name}`, exact: true }).isChecked()).toBe(
          false,
        );
    };
    await select(page, ann.name, bob.name);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await notification(page, 'Paused users successfully!');
    await rowShows(page, ann.userId, 'data-status', 'paused');
    await rowShows(page, bob.userId, 'data-status', 'paused');
    await nothingSelected();
    // The pressed button left with the selection: focus stays on the bulk bar, not the page.
    const bulkBar = page.getByRole('group', { name: 'Bulk actions' });
    await focusReturnsTo(bulkBar, 'the bulk bar after Pause');
    // Any selected paused: the action becomes Unpause.
    await select(page, ann.name, bob.name);
    await page.getByRole('button', { name: 'Unpause', exact: true }).click();
    await notification(page, 'Unpaused users successfully!');
    await rowShows(page, ann.userId, 'data-status', 'active');
    await nothingSelected();

    await select(page, ann.name);
    await page.getByRole('button', { name: 'Freeze', exact: true }).click();
    await notification(page, 'Card status change successfully!');
    await rowShows(page, ann.userId, 'data-card-status', 'inactive');
    await nothingSelected();
    await focusReturnsTo(bulkBar, 'the bulk bar after Freeze');
    await select(page, ann.name);
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    await rowShows(page, ann.userId, 'data-card-status', 'active');
    await nothingSelected();
    // Only Ann's card was switched: Bob, selected for the pause, is in no card event.
    const cardEvents = await api(env.apiUrl, 'GET', '/team/audit?kind=cards&limit=50', {
      token: manager.accessToken,
    });
    expect(
      (cardEvents.body.events as { action: string; targetId: string }[]).map((e) => [e.action, e.targetId]),
    ).toEqual([
      ['card.activated', ann.userId],
      ['card.frozen', ann.userId],
    ]);

    await select(page, ann.name);
    const deleteButton = page.getByRole('button', { name: 'Delete', exact: true });
    await deleteButton.click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete Ann Leaving?' });
    await confirmDelete.waitFor();
    // Cancel gives focus back to the button that opened the dialog.
    await confirmDelete.getByRole('button', { name: 'Cancel' }).click();
    await confirmDelete.waitFor({ state: 'detached' });
    await focusReturnsTo(deleteButton, 'the Delete button');
    await deleteButton.click();
    await confirmDelete.waitFor();
    expect(await confirmDelete.textContent()).toContain('Ann Leaving will no longer be able to sign in');
    expect(await confirmDelete.textContent()).toContain('goes to the team');
    expect(await confirmDelete.textContent()).toContain('pool');
    await shoot(page, 'delete-dialog-1280');
    await confirmDelete.getByRole('button', { name: 'Delete employee' }).click();
    await notification(page, 'Successfully deleted employees');
    await rowShows(page, ann.userId, 'data-status', 'deleted');
    // Their money waits in the pool and shows as their remaining budget.
    await rowShows(page, ann.userId, 'data-cents', '3100');
    // The Delete button left with the selection: focus is on the bulk bar.
    await focusReturnsTo(bulkBar, 'the bulk bar after Delete');

    await nothingSelected();
    // Deleted with money: Reallocate is offered, the others are not.
    await select(page, ann.name);
    expect(await page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Reallocate', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Reallocate remaining budget' });
    await dialog.getByRole('button', { name: 'Review shares' }).click();
    await dialog.getByText('Please select at least one employee to receive the reallocation').waitFor();
    await dialog.getByRole('checkbox', { name: `${bob.name} (${bob.email})` }).check();
    await dialog.getByRole('checkbox', { name: `${cy.name} (${cy.email})` }).check();
    await dialog.getByRole('button', { name: 'Review shares' }).click();
    const shares = dialog.getByRole('table', { name: 'Reallocation shares' });
    await shares.waitFor();
    const shown = await shares.locator('tbody tr').evaluateAll((rows) =>
      rows.map((r) => ({
        userId: r.getAttribute('data-user-id') as string,
        cents: Number(r.querySelector('[data-cents]')?.getAttribute('data-cents')),
      })),
    );
    // $31.00 in two: $15.50 each.
    expect(shown.map((s) => s.cents)).toEqual([1550, 1550]);
    expect(await shares.textContent()).toContain('$15.50');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'reallocate-dialog-1280');
    await dialog.getByRole('button', { name: 'Reallocate $31.00' }).click();
    await notification(page, 'Successfully reallocated amount!');
    await rowShows(page, ann.userId, 'data-cents', '0');
    await rowShows(page, bob.userId, 'data-cents', '3550');
    await nothingSelected();

    const credited = new Map<string, number>();
    for (const entry of (await ledger(manager)).filter((e) => e.kind === 'reallocation'))
      for (const leg of entry.legs)
        if (leg.account.startsWith('card:'))
          credited.set(leg.account, (credited.get(leg.account) ?? 0) + leg.amountCents);
    expect(Object.fromEntries(credited)).toEqual(
      Object.fromEntries(shown.map((s) => [`card:${s.userId}`, s.cents])),
    );
    // Nothing left to move: Reallocate is no longer offered.
    await select(page, ann.name);
    await page.getByText('1 selected').waitFor();
    expect(await page.getByRole('button', { name: 'Reallocate', exact: true }).count()).toBe(0);
  });

  it('redeems with the fee shown first, equal to the ledger; refuses under $5 with the reason; deposits and edits per person', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const dee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 40, {
      firstName: 'Dee',
      lastName: 'Leaving',
    });
    const eve = await joinTeamOverApi(env.apiUrl, mailbox, manager, 3, {
      firstName: 'Eve',
      lastName: 'Small',
    });
    const fay = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Fay',
      lastName: 'Staying',
    });
    const removed = await api(env.apiUrl, 'POST', '/employees/delete', {
      token: manager.accessToken,
      body: { userIds: [dee.userId, eve.userId] },
    });
    expect(removed.status).toBe(200);

    const page = await open(manager.email);
    await goToEmployees(page);
    await select(page, eve.name);
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    const refused = page.getByRole('dialog', { name: 'Redeem to your card' });
    await refused.getByText('Refund is not available for balances under $5.').waitFor();
    expect(await refused.getByRole('button', { name: /^Redeem \$/ }).count()).toBe(0);
    // Escape gives focus back to the Redeem button that opened the dialog.
    await page.keyboard.press('Escape');
    await refused.waitFor({ state: 'detached' });
    await focusReturnsTo(page.getByRole('button', { name: 'Redeem', exact: true }), 'the Redeem button');
    await clearSelection(page);

    await select(page, dee.name);
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Redeem to your card' });
    const summary = dialog.getByTestId('redemption-summary');
    await summary.waitFor();
    const fee = Number(await summary.getAttribute('data-fee-cents'));
    const net = Number(await summary.getAttribute('data-net-cents'));
    // $40.00: 15 % is $6.00, above the $5.00 minimum.
    expect([fee, net]).toEqual([600, 3400]);
    expect(await summary.textContent()).toContain('Fee $6.00; $34.00 goes back to your card.');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'redeem-dialog-1280');
    await dialog.getByRole('button', { name: 'Redeem $34.00' }).click();
    await notification(page, 'Redeemed successfully!');
    await rowShows(page, dee.userId, 'data-cents', '0');
    const redemption = (await ledger(manager)).filter((e) => e.kind === 'redemption');
    const legs = redemption.flatMap((e) => e.legs);
    expect(legs.find((l) => l.account.startsWith('revenue:'))?.amountCents).toBe(fee);
    expect(legs.find((l) => l.account.startsWith('external:'))?.amountCents).toBe(net);
    await clearSelection(page);

    // Per person: an extra deposit; the server's total is shown before anything is charged.
    // By keyboard, the menu item that opened the dialog is gone when it closes:
    // Escape gives focus to the row's actions button.
    const fayActions = row(page, fay.userId).getByRole('button', { name: `Actions for ${fay.name}` });
    await fayActions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Extra deposit' }).focus();
    await page.keyboard.press('Enter');
    const deposit = page.getByRole('dialog', { name: `Extra deposit for ${fay.name}` });
    await deposit.getByLabel('Amount').waitFor();
    await page.keyboard.press('Escape');
    await deposit.waitFor({ state: 'detached' });
    await focusReturnsTo(fayActions, 'the row’s actions button');
    await fayActions.click();
    await page.getByRole('menuitem', { name: 'Extra deposit' }).click();
    // The field is an Amount, and money is written as people write it.
    for (const [typed, words] of [
      ['12.50', 'Amount must be a whole number of dollars'],
      ['10001', 'Amount must be at most $10,000'],
    ]) {
      await deposit.getByLabel('Amount').fill(typed as string);
      await deposit.getByRole('button', { name: 'Review' }).click();
      await deposit.getByText(words as string, { exact: true }).waitFor();
    }
    await deposit.getByLabel('Amount').fill('10');
    await deposit.getByRole('button', { name: 'Review' }).click();
    await deposit.locator('[data-testid="deposit-summary"][data-total-cents="1000"]').waitFor();
    await deposit.getByRole('button', { name: 'Charge $10.00' }).click();
    await notification(page, 'Deposit sent successfully!');
    await rowShows(page, fay.userId, 'data-cents', '3500');
    await focusReturnsTo(fayActions, 'the row’s actions button after the deposit');

    // Per person: freeze asks first.
    await row(page, fay.userId)
      .getByRole('button', { name: `Actions for ${fay.name}` })
      .click();
    await page.getByRole('menuitem', { name: 'Freeze card' }).click();
    const freeze = page.getByRole('dialog', { name: `Freeze ${fay.name}'s card?` });
    await freeze.getByRole('button', { name: 'Freeze card' }).click();
    await notification(page, 'Card status change successfully!');
    await rowShows(page, fay.userId, 'data-card-status', 'inactive');

    // Per person: edit goes to /editProfile/:id with next month's budget.
    await row(page, fay.userId)
      .getByRole('button', { name: `Actions for ${fay.name}` })
      .click();
    await page.getByRole('menuitem', { name: 'Edit budget and profile' }).click();
    await page.waitForURL(`${env.webUrl}/editProfile/${fay.userId}`);
    await page.getByText("This change will take effect in next month's budget update").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'edit-profile-1280');
    const small = await open(manager.email, 375);
    await small.goto(`${env.webUrl}/editProfile/${fay.userId}`);
    await small.getByText("This change will take effect in next month's budget update").waitFor();
    expect(await seriousViolations(small)).toEqual([]);
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(small, 'edit-profile-375');
  });
});

describe('resending an invitation', () => {
  it('sends it again from the row with the budget it has, and says so when the daily e-mail cap held it back', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const sam = uniqueEmail('sam');
    const invited = await api(env.apiUrl, 'POST', '/invitations', {
      token: manager.accessToken,
      body: { emails: sam, budget: 40 },
    });
    expect(invited.status).toBe(200);
    const invitationRow = (page: Page) => row(page, `invite:${sam}`);
    const resend = async (page: Page) => {
      await invitationRow(page)
        .getByRole('button', { name: `Actions for ${sam} (invited)` })
        .click();
      await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
      return page.getByRole('dialog', { name: `Send the invitation to ${sam} again?` });
    };

    const small = await open(manager.email, 375);
    // The dashboard's preview on a phone hides its state columns: the state is said under the name.
    await small.goto(`${env.webUrl}/dashboard`);
    const previewState = small.getByRole('table', { name: 'Employees' }).getByTestId('preview-state');
    await previewState.first().waitFor();
    expect(await previewState.first().textContent()).toBe('Invited · Pending');
    await goToEmployees(small);
    const dialog = await resend(small);
    await dialog.waitFor();
    // The budget it already offers, not the invite form's $25.
    expect(await dialog.textContent()).toContain('The monthly budget stays $40.00');
    expect(
      await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(await seriousViolations(small)).toEqual([]);
    await shoot(small, 'resend-invitation-375');
    await dialog.getByRole('button', { name: 'Resend invitation' }).click();
    await notification(small, `Invitation sent again to ${sam}`);
    await expect
      .poll(async () => (await mailbox.to(sam)).map((m) => m.subject), { timeout: 15_000 })
      .toHaveLength(2);
    const [, again] = await mailbox.to(sam);
    expect(again?.subject).toMatch(/updated your invitation/);
    expect(again?.body.text).toContain('nothing else changed');
    const list = await api(env.apiUrl, 'GET', '/employees', { token: manager.accessToken });
    expect(list.body.employees.find((e: { email: string }) => e.email === sam)).toMatchObject({
      status: 'invited',
      budgetCents: 4000,
    });

    // A third e-mail today is the last the cap allows; the fourth is held back, and the manager is told.
    expect(
      (
        await api(env.apiUrl, 'POST', '/invitations', {
          token: manager.accessToken,
          body: { emails: sam, budget: 40 },
        })
      ).body.results[0].emailed,
    ).toBe(true);
    const page = await open(manager.email);
    await goToEmployees(page);
    await (await resend(page)).getByRole('button', { name: 'Resend invitation' }).click();
    await notification(
      page,
      `${sam} has had today's invitation emails already, so none was sent. Send it again tomorrow.`,
    );
    expect(await mailbox.to(sam)).toHaveLength(3);
  });
});

describe('/inviteMembers', () => {
  it('answers per address, stays when some were not invited, and returns to the dashboard when all were', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const member = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25);
    const other = await setUpTeamOverApi(env.apiUrl, mailbox);
    const theirs = uniqueEmail('theirs');
    expect(
      (await api(env.apiUrl, 'POST', '/invitations', { token: other.accessToken, body: { emails: theirs } }))
        .status,
    ).toBe(200);

    const page = await open(manager.email);
    await page.goto(`${env.webUrl}/inviteMembers`);
    await page.getByRole('heading', { name: 'Invite Members', level: 1 }).waitFor();
    const invite = page.getByRole('button', { name: 'Invite', exact: true });
    expect(await page.getByRole('textbox', { name: /^Budget/ }).inputValue()).toBe('25');
    expect(await invite.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: /^Budget/ }).fill('');
    await page.getByRole('textbox', { name: /^Emails/ }).fill('someone@example.com');
    expect(await invite.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: /^Budget/ }).fill('30');
    expect(await invite.isEnabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'invite-1280');

    // Only refusals: the error with the detail. A registered person is skipped, not refused (spec §5).
    await page.getByRole('textbox', { name: /^Emails/ }).fill(`${member.email}, not-an-email`);
    await invite.click();
    await notification(page, 'Error on inviting employee: not-an-email: Not a valid email address');
    expect(await page.locator('.mantine-Notification-root').filter({ hasText: member.email }).count()).toBe(
      0,
    );

    const fresh = uniqueEmail('fresh');
    const long = `${'a'.repeat(250)}@example.com`;
    await page
      .getByRole('textbox', { name: /^Emails/ })
      .fill(`${fresh}, ${member.email}, not-an-email, ${theirs}, ${long}`);
    await invite.click();
    await notification(
      page,
      `Employee invited successfully. Already registered, so not invited again: ${member.email}.`,
    );
    // Beside it, the ones that failed (this attempt's: only it named the other team's address).
    const failed = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: `${theirs}: Invited by another team` });
    await failed.first().waitFor();
    expect(await failed.first().textContent()).toContain('Error on inviting employee: ');
    const results = page.getByRole('list', { name: 'Invitation results' });
    const answer = async (email: string) =>
      results.locator('li', { hasText: email }).getAttribute('data-result');
    await results.locator('li').first().waitFor();
    expect(await answer(fresh)).toBe('invited');
    expect(await answer(member.email)).toBe('alreadyRegistered');
    expect(await results.locator('li', { hasText: member.email }).textContent()).toContain(
      'Already registered: not invited again',
    );
    expect(await answer('not-an-email')).toBe('invalidEmail');
    expect(await answer(theirs)).toBe('invitedByAnotherTeam');
    expect(await results.textContent()).toContain('Invited by another team');
    expect(await answer(long)).toBe('invalidEmail');
    // A long address wraps inside the box instead of running out of it.
    const overflowing = await results.evaluate(
      (list) =>
        [list, ...list.querySelectorAll('li, li *')].filter((el) => el.scrollWidth > el.clientWidth + 1)
          .length,
    );
    expect(overflowing).toBe(0);
    await shoot(page, 'invite-results-1280');
    // Some were not invited: the page stays, keeping those addresses.
    expect(page.url()).toBe(`${env.webUrl}/inviteMembers`);
    expect(await page.getByRole('textbox', { name: /^Emails/ }).inputValue()).not.toContain(fresh);
    // A new attempt that fails leaves none of the last attempt's answers showing.
    await page.getByRole('textbox', { name: /^Budget/ }).fill('12.5');
    await invite.click();
    await page.getByText('Budget must be a whole number of dollars', { exact: true }).first().waitFor();
    await results.waitFor({ state: 'detached' });

    // Invited again with another budget: said before Invite is pressed, then the page stays and says which budget the new one replaced.
    await page.getByRole('textbox', { name: /^Budget/ }).fill('45');
    await page.getByRole('textbox', { name: /^Emails/ }).fill(fresh);
    const warning = page.getByTestId('budget-replacements');
    await warning.waitFor();
    expect(await warning.textContent()).toContain(
      `${fresh} was invited with $30.00 a month. Inviting again replaces that with $45.00 and emails the change.`,
    );
    await invite.click();
    await notification(page, 'Employee invited successfully');
    const again = results.locator('li', { hasText: fresh });
    await again.waitFor();
    expect(await again.getAttribute('data-result')).toBe('reinvited');
    expect(await again.getAttribute('data-previous-cents')).toBe('3000');
    expect(await again.getAttribute('data-cents')).toBe('4500');
    expect(await again.textContent()).toContain(
      'Invited again: budget $30.00 → $45.00 (the new budget replaces the old one)',
    );
    await shoot(page, 'invite-again-1280');
    expect(page.url()).toBe(`${env.webUrl}/inviteMembers`);

    // Everyone simply invited (the same budget again counts) or registered already: the spec's
    // message, the skipped person named in it and no error, and back to the dashboard.
    const another = uniqueEmail('another');
    await page.getByRole('textbox', { name: /^Emails/ }).fill(`${another}, ${fresh}, ${member.email}`);
    await invite.click();
    await notification(
      page,
      `Employee invited successfully. Already registered, so not invited again: ${member.email}.`,
    );
    await page.waitForURL(`${env.webUrl}/dashboard`);
    expect(
      await page
        .locator('.mantine-Notification-root[role="alert"]')
        .filter({ hasText: member.email })
        .count(),
    ).toBe(0);
    const list = await api(env.apiUrl, 'GET', '/employees', { token: manager.accessToken });
    const pending = list.body.employees.find((e: { email: string }) => e.email === another);
    expect(pending).toMatchObject({ status: 'invited', lastName: 'N/A', budgetCents: 4500 });

    const small = await open(manager.email, 375);
    await small.goto(`${env.webUrl}/inviteMembers`);
    await small.getByRole('textbox', { name: /^Emails/ }).waitFor();
    expect(await seriousViolations(small)).toEqual([]);
    await shoot(small, 'invite-375');
  });
});

describe('/dashboard/freezeEmployee/{cardId}/{userId}', () => {
  it('names the person and asks; only the confirmation freezes; another team’s ids are not found', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const gus = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Gus',
      lastName: 'Frozen',
    });
    const other = await setUpTeamOverApi(env.apiUrl, mailbox);
    const stranger = await joinTeamOverApi(env.apiUrl, mailbox, other, 25);
    const cardState = async () => {
      const list = await api(env.apiUrl, 'GET', '/employees', { token: manager.accessToken });
      return list.body.employees.find((e: { userId: string }) => e.userId === gus.userId)?.cardStatus;
    };

    for (const width of [375, 1280]) {
      const page = await open(manager.email, width);
      await page.goto(`${env.webUrl}/dashboard/freezeEmployee/${gus.cardId}/${gus.userId}`);
      await page.getByText("Freeze Gus Frozen's card?").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `freeze-${width}`);
    }
    // Loading the address twice changed nothing.
    expect(await cardState()).toBe('active');

    const page = await open(manager.email);
    await page.goto(`${env.webUrl}/dashboard/freezeEmployee/${gus.cardId}/${gus.userId}`);
    await page.getByRole('button', { name: 'Freeze card' }).click();
    await page.waitForURL(`${env.webUrl}/dashboard`);
    await notification(page, 'Card status change successfully!');
    expect(await cardState()).toBe('inactive');

    await page.goto(`${env.webUrl}/dashboard/freezeEmployee/${stranger.cardId}/${stranger.userId}`);
    await page.getByRole('heading', { name: 'Card not found' }).waitFor();
    expect(await page.getByRole('button', { name: 'Freeze card' }).count()).toBe(0);
    const theirs = await api(env.apiUrl, 'POST', '/employees/cardStatus', {
      token: manager.accessToken,
      body: { userIds: [stranger.userId], status: 'inactive' },
    });
    expect(theirs.status).toBe(404);
  });
});
