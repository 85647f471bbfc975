/**
 * The manager's Provisioning screen (issue 28) in a real browser through the
 * local stack: reached from the side menu; the SCIM base address to copy; a
 * token made, shown once, used by an identity provider (its last use shown),
 * revoked after confirming and then refused; the provisioning budgets saved.
 * Axe at 375 and 1280 px; screenshots go to SCREENSHOT_DIR.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

function scimCreate(token: string, email: string) {
  return fetch(`${env.apiUrl}/scim/v2/Users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      active: true,
    }),
  });
}

async function axeAtBothWidths(page: Page) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await seriousViolations(page), `axe at ${width} px`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
}

describe('the Provisioning screen', () => {
  it('makes a token shown once, shows its last use, revokes it after confirming, and saves the budgets', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser({ width: 1280, height: 900 });
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);

    await page.getByRole('link', { name: 'Provisioning' }).click();
    await page.getByRole('heading', { name: 'Provisioning', level: 1 }).waitFor();
    expect(await page.getByTestId('scim-base-url').textContent()).toMatch(/\/api\/scim\/v2$/);
    await page.getByTestId('no-tokens').waitFor();
    await page.getByTestId('default-budget').getByText('invited with $25.00 a month').waitFor();

    // A name is required.
    await page.getByRole('button', { name: 'Make a token' }).click();
    await page.getByText('Name is required').waitFor();

    await page.getByLabel('Token name').fill('Okta');
    await page.getByRole('button', { name: 'Make a token' }).click();
    const shown = page.getByTestId('token-value');
    await shown.waitFor();
    const token = (await shown.textContent()) ?? '';
    expect(token).toMatch(/^lbscim_[A-Za-z0-9_-]{43}$/);
    await page.getByText('Never used').first().waitFor();
    await axeAtBothWidths(page);
    await shootAtWidths(page, 'provisioning-token-shown');

    // Shown once: gone after "I have copied it", and never in the list.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token);

    // The identity provider uses it; the list shows when.
    expect((await scimCreate(token, uniqueEmail('scim-e2e'))).status).toBe(201);
    await page.reload();
    await page
      .getByText(/^Last used \d{2}\/\d{2}\/\d{4}/)
      .first()
      .waitFor();

    // Budgets: $40 for everyone, $80 for Engineering.
    await page.getByLabel('Monthly budget of people your identity provider adds ($)').fill('40');
    await page.getByRole('button', { name: 'Add a department' }).click();
    await page.getByRole('textbox', { name: 'Department' }).fill('Engineering');
    await page.getByLabel('Budget ($)').fill('80');
    await page.getByRole('button', { name: 'Save budgets' }).click();
    await page.getByText('Provisioning budgets saved.').waitFor();
    await page.getByTestId('default-budget').getByText('invited with $40.00 a month').waitFor();
    await axeAtBothWidths(page);
    await shootAtWidths(page, 'provisioning');

    // Revoke, confirmed; the next call is refused.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this token?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'provisioning-revoke');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token “Okta” revoked.').waitFor();
    await page.getByText(/^Revoked \d{2}\/\d{2}\/\d{4}/).waitFor();
    expect((await scimCreate(token, uniqueEmail('scim-late'))).status).toBe(401);
  });
});
