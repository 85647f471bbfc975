/**
 * New monthly commitments in a real browser (issue 24, attack 2): inviting
 * people and raising a budget commit the team's card every month, so once the
 * day's moves and commitments pass the step-up threshold the manager sees
 * 'Confirm it is you' on /inviteMembers and /editProfile (not an error),
 * cancelling it is no failure, and past the team's daily limit the refusal
 * says the limit in the deposit's words. Screenshots at 375 and 1280 px go to
 * SCREENSHOT_DIR when it is set.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { api, PASSWORD, uniqueEmail } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { ageTheFactor, e2eTable } from '../support/e2eTable';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** What operations would set with `npm run ops -- set-limits`: the team's daily deposit limit. */
async function setDailyDepositLimit(teamId: string, cents: number) {
  const db = e2eTable(env);
  await db.send(
    new UpdateCommand({
      TableName: env.tableName,
      Key: keys.team(teamId),
      UpdateExpression: 'SET dailyDepositLimitCents = :cents',
      ExpressionAttributeValues: { ':cents': cents },
    }),
  );
  db.destroy();
}

function notices(page: Page, text: string | RegExp) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

describe('invited budgets and budget raises', () => {
  it('ask the manager to confirm it is them above the threshold, and are refused past the daily limit in its words', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const member = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Rae',
      lastName: 'Raised',
    });
    const { teamId } = (await api(env.apiUrl, 'GET', '/me', { token: manager.accessToken })).body;

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });

    // Two people at $300 a month: with today's $25, past the $500 threshold, and the sign-in is old
    // (aged once the page has loaded: a reload's new token keeps the sign-in's freshness).
    await page.goto(`${env.webUrl}/inviteMembers`);
    await page.getByRole('heading', { name: 'Invite Members', level: 1 }).waitFor();
    await ageTheFactor(env, manager.userId);
    const emails = [uniqueEmail('ann'), uniqueEmail('bob')];
    await page.getByRole('textbox', { name: /^Emails/ }).fill(emails.join(', '));
    await page.getByRole('textbox', { name: /^Budget/ }).fill('300');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await stepUp.waitFor();
    await stepUp.getByText('Enter your password to continue.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'commitment-invite-step-up');
    // Cancelling is the manager's choice: no error, nobody invited, the form as they left it.
    await stepUp.getByRole('button', { name: 'Cancel' }).click();
    await stepUp.waitFor({ state: 'hidden' });
    expect(await notices(page, /Error on inviting employee/).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: /^Emails/ }).inputValue()).toBe(emails.join(', '));
    const roster = async () =>
      JSON.stringify((await api(env.apiUrl, 'GET', '/employees', { token: manager.accessToken })).body);
    expect(await roster()).not.toContain(emails[0]);
    // Confirmed with the password, the same invitation goes through.
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await stepUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await notices(page, 'Employee invited successfully').first().waitFor();
    expect(await roster()).toContain(emails[1]);

    // A raise the day has no room for: $1,000.00 a day, $625.00 committed already.
    await setDailyDepositLimit(teamId, 100_000);
    await page.goto(`${env.webUrl}/editProfile/${member.userId}`);
    const budget = page.getByRole('textbox', { name: /^Budget/ });
    await budget.fill('900');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const words =
      "This would exceed your team's daily deposit limit of $1,000.00. $375.00 of it is left today.";
    await page.getByText(words, { exact: true }).first().waitFor();
    await notices(page, 'The account update could not be saved').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'commitment-raise-over-limit');

    // Within the room, but past the threshold with a factor older than the window: asked first.
    await ageTheFactor(env, manager.userId);
    await budget.fill('300');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await stepUp.waitFor();
    await stepUp.getByRole('button', { name: 'Cancel' }).click();
    await stepUp.waitFor({ state: 'hidden' });
    expect(await budget.inputValue()).toBe('300');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await stepUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await notices(page, 'Update succeeded').first().waitFor();
    await page.getByText('Next budget: $300.00 a month').waitFor();
  });
});
