/**
 * Nudges (issue 26, point 5) in the browser: the /unsubscribe page a monthly
 * e-mail links to (opening it changes nothing; its button stops the e-mail,
 * signed out), and the "Monthly nudges" / "Monthly digest" setting on Edit
 * Profile. The job, the picks and the one-click POST: test/integration/nudges.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { hashToken } from '../../lambdas/src/data/emailTokens';
import { keys } from '../../lambdas/src/data/keys';
import { api, PASSWORD, type SignedIn } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { e2eTable } from '../support/e2eTable';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/**
 * The link a nudge carries, as the job stores it (only its hash): written
 * here, since the job sends on the first business day of a month only.
 */
async function unsubscribeLink(userId: string, kind: 'nudge' | 'digest'): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const db = e2eTable(env);
  await db.send(
    new PutCommand({
      TableName: env.tableName,
      Item: {
        ...keys.emailToken(hashToken(token)),
        entity: 'EmailToken',
        purpose: 'unsubscribe',
        userId,
        kind,
        createdAt: new Date().toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + 24 * 3600,
      },
    }),
  );
  db.destroy();
  return `${env.webUrl}/unsubscribe?token=${token}`;
}

async function monthlyEmails(person: SignedIn): Promise<boolean | undefined> {
  return (await api(env.apiUrl, 'GET', `/users/${person.userId}`, { token: person.accessToken })).body
    .monthlyEmails;
}

describe('monthly e-mails in the browser', () => {
  it('the unsubscribe page asks first (opening it changes nothing), then stops the nudge, signed out', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25);
    const link = await unsubscribeLink(employee.userId, 'nudge');

    browser = await launchBrowser({ width: 375, height: 812 });
    const page = await browser.context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Stop this monthly e-mail?', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'unsubscribe-ask');
    // Opened (as a mail scanner would): still on.
    expect(await monthlyEmails(employee)).toBe(true);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed', level: 1 }).waitFor();
    await expect.poll(() => page.getByText('Turn “Monthly nudges” back on in').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'unsubscribe-done');
    expect(await monthlyEmails(employee)).toBe(false);

    // A made-up link says so.
    await page.goto(`${env.webUrl}/unsubscribe?token=${'x'.repeat(43)}`);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'We could not unsubscribe you', level: 1 }).waitFor();
    await page.getByText('This unsubscribe link is not valid or has expired.').waitFor();
    await shootAtWidths(page, 'unsubscribe-invalid');
  });

  it('Edit Profile turns "Monthly nudges" back on for the employee and shows "Monthly digest" to the manager', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const employee = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25);
    await api(env.apiUrl, 'POST', '/me/walkthrough', { token: employee.accessToken, body: {} });
    await api(env.apiUrl, 'PUT', `/users/${employee.userId}`, {
      token: employee.accessToken,
      body: { userId: employee.userId, firstName: 'Eddie', lastName: 'Employee', monthlyEmails: false },
    });

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, employee.email, PASSWORD);
    await page.goto(`${env.webUrl}/editProfile`);
    const setting = page.getByRole('checkbox', { name: 'Monthly nudges' });
    await setting.waitFor();
    expect(await setting.isChecked()).toBe(false);
    await setting.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Update succeeded').first().waitFor();
    expect(await monthlyEmails(employee)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'profile-monthly-nudges');

    const managerPage = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await managerPage.goto(`${env.webUrl}/editProfile`);
    const digest = managerPage.getByRole('checkbox', { name: 'Monthly digest' });
    await digest.waitFor();
    expect(await digest.isChecked()).toBe(true);
    await shootAtWidths(managerPage, 'profile-monthly-digest');
    // Their employee's profile: the employee's own choice, not shown to the manager.
    await managerPage.goto(`${env.webUrl}/editProfile/${employee.userId}`);
    await managerPage.getByRole('heading', { name: 'Edit Profile', level: 1 }).waitFor();
    await managerPage.getByLabel('Job Role').waitFor();
    expect(await managerPage.getByRole('checkbox', { name: /Monthly/ }).count()).toBe(0);
  });
});
