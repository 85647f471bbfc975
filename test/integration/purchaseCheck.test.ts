/**
 * "Will this be approved?" against the real thing: for the same card, amount
 * and merchant category, GET /me/purchaseCheck gives the answer (and the
 * reason) that a real payment at the emulator's sandbox checkout then gets,
 * case by case, and the check itself holds nothing.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cardAccount, holdAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf } from '../../lambdas/src/data/ledger';
import type { SignedIn } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

interface Answer {
  approved: boolean;
  reason?: string;
}

async function check(employee: SignedIn, cents: number, category: string, merchant?: string) {
  const query = new URLSearchParams({ amountCents: String(cents), merchantCategory: category });
  if (merchant) query.set('merchantName', merchant);
  const res = await send('GET', `/me/purchaseCheck?${query}`, employee.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Answer & { availableCents: number; code?: string };
}

/** Pays at the sandbox checkout's form, as a merchant's customer would; the reason is the one the employee is shown. */
async function payAtCheckout(
  employee: SignedIn & { cardId: string },
  cents: number,
  category: string,
  merchant: string,
): Promise<Answer> {
  const details = stack.stripe?.admin.cardDetails(employee.cardId);
  if (!details) throw new Error('no card details');
  const before = (await send('GET', '/me/balance', employee.accessToken)).body.lastDecline?.at;
  const form = new URLSearchParams({
    number: details.number,
    exp: `${String(details.exp_month).padStart(2, '0')}/${String(details.exp_year % 100).padStart(2, '0')}`,
    cvc: details.cvc,
    merchant_name: merchant,
    category,
    amount: (cents / 100).toFixed(2),
  });
  const page = await fetch(`${stack.stripe?.url}/checkout`, { method: 'POST', body: form });
  const html = await page.text();
  const approved = /id="result">Approved</.test(html);
  expect(approved || /id="result">Declined</.test(html), html).toBe(true);
  await stack.stripe?.admin.idle();
  if (approved) return { approved };
  const decline = (await send('GET', '/me/balance', employee.accessToken)).body.lastDecline;
  expect(decline?.at, 'the decline was recorded with its reason').not.toBe(before);
  return { approved, reason: decline?.reason };
}

async function sideBySide(
  employee: SignedIn & { cardId: string },
  cents: number,
  category: string,
  merchant = 'Powell’s Books',
) {
  const held = await balanceOf(holdAccount(employee.userId));
  const available = await balanceOf(cardAccount(employee.userId));
  const asked = await check(employee, cents, category, merchant);
  // The check holds nothing and moves nothing.
  expect(await balanceOf(holdAccount(employee.userId))).toBe(held);
  expect(await balanceOf(cardAccount(employee.userId))).toBe(available);
  expect(asked.availableCents).toBe(available);
  const paid = await payAtCheckout(employee, cents, category, merchant);
  return { asked: { approved: asked.approved, reason: asked.reason }, paid, code: asked.code };
}

describe('the purchase check answers as the real authorization does', () => {
  it('approved, over the balance, and a merchant that is not for learning', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);

    const within = await sideBySide(employee, 1250, 'book_stores');
    expect(within.asked).toEqual({ approved: true });
    expect(within.paid).toEqual(within.asked);

    // $17.50 left: a dollar more is declined, with the same words both times.
    const over = await sideBySide(employee, 1850, 'educational_services');
    expect(over.asked).toEqual({ approved: false, reason: '$18.50 is above your $17.50 balance.' });
    expect(over.code).toBe('over_balance');
    expect(over.paid).toEqual(over.asked);

    const casino = await sideBySide(employee, 500, 'betting_casino_gambling', 'Lucky Casino');
    expect(casino.asked).toEqual({
      approved: false,
      reason: 'Lucky Casino (Betting and casinos) is not a learning merchant.',
    });
    expect(casino.paid).toEqual(casino.asked);

    const exact = await sideBySide(employee, 1750, 'digital_goods_media', 'Audible');
    expect(exact.asked).toEqual({ approved: true });
    expect(exact.paid).toEqual(exact.asked);
  });

  it('a card frozen by the manager, then for missing receipts, each with its own reason', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    const frozen = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'inactive',
    });
    expect(frozen.status).toBe(200);
    const byManager = await sideBySide(employee, 500, 'book_stores');
    expect(byManager.asked).toEqual({
      approved: false,
      reason: 'Your card is frozen. Please contact your manager.',
    });
    expect(byManager.paid).toEqual(byManager.asked);

    // The receipts job's freeze: no manager reason, only the missing receipt.
    await stack.doc.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.card(employee.cardId),
        UpdateExpression: 'SET freeze = :f',
        ExpressionAttributeValues: { ':f': { missingReceipt: true } },
      }),
    );
    const receipts = await sideBySide(employee, 500, 'book_stores');
    expect(receipts.asked).toEqual({
      approved: false,
      reason: 'Your card is frozen until your missing receipts are uploaded.',
    });
    expect(receipts.code).toBe('frozen_missing_receipts');
    expect(receipts.paid).toEqual(receipts.asked);
    const balance = await send('GET', '/me/balance', employee.accessToken);
    expect(balance.body.freezeReason).toBe('missingReceipt');
  });

  it('a paused employee still spends what the card holds', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    const paused = await send('POST', '/employees/pause', manager.accessToken, {
      userIds: [employee.userId],
      action: 'pause',
    });
    expect(paused.status).toBe(200);
    const result = await sideBySide(employee, 2000, 'colleges_universities', 'Community College');
    expect(result.asked).toEqual({ approved: true });
    expect(result.paid).toEqual(result.asked);
    const card = await stripe.issuing.cards.retrieve(employee.cardId);
    expect(card.status).toBe('active');
  });

  it('refuses a question it cannot answer; a frozen card gets no frame key', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    for (const query of [
      'amountCents=0&merchantCategory=book_stores',
      'amountCents=12.5&merchantCategory=book_stores',
      'amountCents=abc&merchantCategory=book_stores',
      'amountCents=100&merchantCategory=Book%20Stores',
      'amountCents=100',
    ]) {
      const res = await send('GET', `/me/purchaseCheck?${query}`, employee.accessToken);
      expect(res.status, query).toBe(400);
    }
    // The frozen card's frame is not offered either: its number stays masked.
    await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'inactive',
    });
    const key = await send('POST', '/me/cardKey', employee.accessToken, {});
    expect(key.status).toBe(422);
  });
});
