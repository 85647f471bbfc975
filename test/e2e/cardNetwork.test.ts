/**
 * The card-network path in a real browser: at the sandbox merchant checkout,
 * paying with the demo employee's card (funded through the ledger by the demo
 * seed), a purchase under the balance is approved and one over it is declined
 * with its reason; the balance the API reports follows.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_EMPLOYEE } from '../../infra/local/seed';
import { launchBrowser } from '../support/browser';
import { CLIENT_IP_HEADER, newClientIp } from '../support/integrationStack';

const env = inject('e2e');
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let token: string;
let card: { number: string; exp_month: number; exp_year: number; cvc: string };

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${env.apiUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...init.headers },
  });
  return response.json();
}

beforeAll(async () => {
  browser = await launchBrowser();
  const session = await fetch(`${env.apiUrl}/auth/signIn`, {
    method: 'POST',
    // Its own client address: sign-ins from 127.0.0.1 are rate limited as one person's.
    headers: { 'content-type': 'application/json', [CLIENT_IP_HEADER]: newClientIp() },
    body: JSON.stringify({ email: DEMO_EMPLOYEE.email, password: DEMO_EMPLOYEE.password }),
  });
  token = ((await session.json()) as { accessToken: string }).accessToken;
  const key = (await api('/me/cardKey', { method: 'POST', body: '{}' })) as { cardId: string };
  // The sandbox plays the cardholder: it reads the card's details from the emulator, never from our API.
  card = await (await fetch(`${env.stripeUrl}/_emulator/issuing/cards/${key.cardId}/details`)).json();
});
afterAll(async () => {
  await browser?.close();
});

async function payAtCheckout(page: Page, dollars: string) {
  await page.goto(`${env.stripeUrl}/checkout`);
  await page.getByLabel('Card number').fill(card.number);
  await page
    .getByLabel(/Expiry/)
    .fill(`${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`);
  await page.getByLabel('CVC').fill(card.cvc);
  await page.getByLabel('Merchant name').fill('Powell’s Books');
  await page.getByLabel('Merchant category').selectOption('book_stores');
  await page.getByLabel(/Amount/).fill(dollars);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForLoadState('load');
  return ((await page.locator('body').textContent()) ?? '').replace(/\s+/g, ' ');
}

/**
 * The balance once what the card can spend is `expected` (an approval holds
 * the amount at once; the capture comes later). Bounded just under the e2e
 * test timeout (60 s), not by a shorter one a busy machine could miss.
 */
async function waitForBalance(expected: number) {
  const deadline = Date.now() + 50_000;
  let balance = (await api('/me/balance')) as { availableCents: number };
  while (balance.availableCents !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100)); // the interval between reads
    balance = (await api('/me/balance')) as { availableCents: number };
  }
  return balance;
}

describe('the sandbox merchant checkout', () => {
  it('approves a purchase under the balance and declines one over it, with the reason', async () => {
    const before = (await api('/me/balance')) as { availableCents: number };
    expect(before.availableCents).toBeGreaterThanOrEqual(1000);
    const page = await browser.context.newPage();

    const approved = await payAtCheckout(page, '9.99');
    expect(approved).toMatch(/Approved/);
    expect((await waitForBalance(before.availableCents - 999)).availableCents).toBe(
      before.availableCents - 999,
    );

    const remaining = before.availableCents - 999;
    const tooMuch = (remaining + 5000) / 100;
    const declined = await payAtCheckout(page, tooMuch.toFixed(2));
    expect(declined).toMatch(/Declined/);
    // The employee is told why, in plain words, by our API.
    const after = (await api('/me/balance')) as { lastDecline: { reason: string } | null };
    expect(after.lastDecline?.reason).toBe(
      `$${tooMuch.toFixed(2)} is above your $${(remaining / 100).toFixed(2)} balance.`,
    );
    const statement = (await api('/me/statement')) as { lines: { description: string }[] };
    expect(statement.lines.some((l) => l.description.includes('Powell’s Books'))).toBe(true);
    expect(((await api('/me/balance')) as { availableCents: number }).availableCents).toBe(remaining);
    await page.screenshot({ path: '/tmp/checkout-declined.png' });
    await page.close();
  });
});
