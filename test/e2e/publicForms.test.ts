/**
 * A newcomer joins the waitlist and writes to support in a real browser, through
 * the whole local stack; what they sent is stored and the support inbox gets it.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { launchBrowser } from '../support/browser';
import { e2eTable } from '../support/e2eTable';
import { Mailbox } from '../support/integrationStack';

const env = inject('e2e');
const doc = e2eTable(env);
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(path: string) {
  page = await browser.context.newPage();
  await page.goto(`${env.webUrl}${path}`);
  return page;
}

describe('the waitlist page (/subscribe)', () => {
  it('keeps Join Waitlist disabled until name and email are filled, stores the lead, thanks, and returns home', async () => {
    await open('/subscribe');
    await page.getByRole('heading', { name: "We're Launching Soon!" }).waitFor();
    const button = page.getByRole('button', { name: 'Join Waitlist' });
    expect(await button.isDisabled()).toBe(true);

    await page.getByLabel('Name').fill('Ada Lovelace');
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('Ada.E2E@Example.com');
    await page.getByLabel('Company').fill('Analytical Engines');
    expect(await button.isDisabled()).toBe(false);
    const started = Date.now();
    await button.click();

    await page.getByText('Interest logged').waitFor();
    await page.getByText("Thank you for your interest. We'll be in touch soon!").waitFor();

    const lead = await doc.send(
      new GetCommand({ TableName: env.tableName, Key: keys.lead('ada.e2e@example.com') }),
    );
    expect(lead.Item).toMatchObject({ name: 'Ada Lovelace', company: 'Analytical Engines' });

    // Home after the spec's 4 s, never before: a lower bound, which a busy machine cannot break.
    await page.waitForURL(`${env.webUrl}/`, { timeout: 60_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3900);
    await page.close();
  });

  it('marks an invalid e-mail and stores nothing', async () => {
    await open('/subscribe');
    await page.getByLabel('Name').fill('Typo');
    await page.getByLabel('Email').fill('typo@example');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await page.getByText('Email is invalid').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    const lead = await doc.send(new GetCommand({ TableName: env.tableName, Key: keys.lead('typo@example') }));
    expect(lead.Item).toBeUndefined();
    await page.close();
  });
});

describe('the contact page (/support)', () => {
  it('sends a message that is stored and e-mailed to the support inbox', async () => {
    await open('/support');
    await page.getByLabel('Name').fill('Katherine Johnson');
    await page.getByLabel('Email').fill('katherine.e2e@example.com');
    await page.getByLabel('Subject').fill('Budgets');
    await page.getByLabel('Message').fill('Can a manager change a budget mid-month?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message sent successfully!').waitFor();

    const mails = await mailbox.all();
    const mail = mails.find((m) => m.replyTo?.includes('katherine.e2e@example.com'));
    expect(mail?.body.text).toContain('Can a manager change a budget mid-month?');

    const month = new Date().toISOString().slice(0, 7);
    const stored = await doc.send(
      new QueryCommand({
        TableName: env.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': `MESSAGES#${month}` },
      }),
    );
    expect(stored.Items?.some((m) => m.email === 'katherine.e2e@example.com')).toBe(true);
    // The form is cleared for the next message.
    expect(await page.getByLabel('Message').inputValue()).toBe('');
    await page.close();
  });

  it('brings "Message sent successfully!" into view on a phone, where Send Message sits far below it', async () => {
    await open('/support');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByLabel('Name').fill('Mary Jackson');
    await page.getByLabel('Email').fill('mary.e2e@example.com');
    await page.getByLabel('Message').fill('Sent from the bottom of the form.');
    const send = page.getByRole('button', { name: 'Send Message' });
    await send.scrollIntoViewIfNeeded();
    await send.click();
    const notice = page.getByText('Message sent successfully!');
    await notice.waitFor();
    // Below the sticky header and above the bottom edge: the person sees it without scrolling.
    const header = await page.locator('header').first().boundingBox();
    const box = await notice.boundingBox();
    expect(
      box && header && box.y >= header.y + header.height && box.y + box.height <= 740,
      JSON.stringify({ box, header }),
    ).toBe(true);
    await page.close();
  });

  it("shows the spec's messages for a blank form and sends nothing", async () => {
    const before = (await mailbox.all()).length;
    await open('/support');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Subject is required').waitFor();
    expect((await mailbox.all()).length).toBe(before);
    await page.close();
  });
});

describe('the web server', () => {
  it('serves the SPA with the security headers CloudFront will send, compressed', async () => {
    const response = await fetch(`${env.webUrl}/subscribe`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('strict-transport-security')).toContain('max-age=63072000');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-encoding')).toBe('br');
  });

  it("shows 'No Match' for an unknown path", async () => {
    await open('/no/such/page');
    await page.getByText('No Match').waitFor();
    await page.close();
  });
});
