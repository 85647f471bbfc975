/**
 * The sandbox merchant's checkout (the Stripe emulator's /checkout page), as a
 * customer pays at it in the browser tests: the employee's card details, a
 * merchant and an amount; answers what the page says ("Approved", "Declined").
 */
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

/** What the emulator's card details endpoint tells a cardholder (never our API). */
export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** The issued card's number, expiry and CVC, as the emulator's details endpoint gives them. */
export async function cardDetails(cardId: string): Promise<CardDetails> {
  const response = await fetch(`${inject('e2e').stripeUrl}/_emulator/issuing/cards/${cardId}/details`);
  return (await response.json()) as CardDetails;
}

export async function payAtCheckout(
  page: Page,
  card: CardDetails,
  dollars: string,
  merchant: { name?: string; category?: string } = {},
): Promise<string | undefined> {
  await page.goto(`${inject('e2e').stripeUrl}/checkout`);
  await page.getByLabel('Card number').fill(card.number);
  await page
    .getByLabel(/Expiry/)
    .fill(`${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`);
  await page.getByLabel('CVC').fill(card.cvc);
  await page.getByLabel('Merchant name').fill(merchant.name ?? 'Powell’s Books');
  await page.getByLabel('Merchant category').selectOption(merchant.category ?? 'book_stores');
  await page.getByLabel(/Amount/).fill(dollars);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.locator('#result').waitFor();
  return (await page.locator('#result').textContent())?.trim();
}
