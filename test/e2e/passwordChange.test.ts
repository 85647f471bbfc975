/**
 * Changing the password on /editProfile, in a browser: a wrong current
 * password is named on its field, the change is confirmed, the form empties,
 * and the new password is the one that signs in.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PASSWORD } from '../support/accountFlows';
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

describe('changing the password on the profile', () => {
  it('names a wrong current password, then changes it; the new one signs in', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/editProfile`);
    const section = page.getByTestId('change-password');
    const fresh = 'a fresher secret';

    await section.getByLabel('Current Password').fill('not my password');
    await section.getByLabel('New Password', { exact: true }).fill(fresh);
    await section.getByLabel('Confirm New Password').fill(fresh);
    await section.getByRole('button', { name: 'Change Password' }).click();
    await section.getByText('Your current password is not right.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'change-password-wrong');

    await section.getByLabel('Current Password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Your password is changed. Every other session is signed out.').waitFor();
    // A new, empty form: nothing typed stays on screen.
    await section.getByLabel('Current Password').and(page.locator('[value=""]')).waitFor();
    expect(await section.getByLabel('New Password', { exact: true }).inputValue()).toBe('');

    // This session goes on (the app refreshes past the cut-off) ...
    await page.getByRole('link', { name: 'Employees' }).first().click();
    await page.getByLabel('Search employees').waitFor();
    // ... and the new password is the one that signs in.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${env.webUrl}/login`);
    await page.getByLabel('Work Email').fill(manager.email);
    await page.getByLabel('Password', { exact: true }).fill(fresh);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${env.webUrl}/dashboard`);
  });
});
