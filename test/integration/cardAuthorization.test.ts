/**
 * The card network's view: signed Stripe events against the real webhook
 * handler on DynamoDB Local. Money enters only through ledger postings.
 */

import { cardAccount, debtAccount, holdAccount } from '@shared/domain/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, statement } from '../../lambdas/src/data/ledger';
import { fundedCard as fundedCardOn } from '../support/fundedCard';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { authorizationObject, deliver, event, sign, transactionObject } from '../support/stripeEvents';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** An active employee with an active card, funded through the ledger. */
const fundedCard = (cents: number, options?: Parameters<typeof fundedCardOn>[2]) =>
  fundedCardOn(stack, cents, options);

function request(
  card: { cardId: string; userId: string },
  cents: number,
  extra: Record<string, unknown> = {},
) {
  return event(
    'issuing_authorization.request',
    authorizationObject({ ...card, amountCents: cents, ...extra }),
  );
}

describe('the webhook refuses what Stripe did not sign', () => {
  it.each([
    ['unsigned', () => 't=1,v1=deadbeef'],
    ['signed with another secret', (p: string) => sign(p, { secret: 'whsec_someone_else' })],
    ['stale (older than 300 s)', (p: string) => sign(p, { timestamp: Math.floor(Date.now() / 1000) - 301 })],
  ])('%s: 400, and nothing is read or written', async (_name, signature) => {
    const card = await fundedCard(5000);
    const evt = request(card, 1000);
    const payload = JSON.stringify(evt);
    const res = await deliver(stack.apiUrl, evt, { signature: signature(payload) });
    expect(res.status).toBe(400);
    expect(await stack.getItem(keys.authorization(evt.data.object.id))).toBeUndefined();
    expect(await balanceOf(cardAccount(card.userId))).toBe(5000);
  });

  it('refuses a signed body that was altered afterwards', async () => {
    const card = await fundedCard(5000);
    const evt = request(card, 1000);
    const signature = sign(JSON.stringify(evt));
    evt.data.object.pending_request.amount = 1;
    const res = await deliver(stack.apiUrl, evt, { signature });
    expect(res.status).toBe(400);
  });
});

describe('real-time authorization', () => {
  it('approves within the balance, holds the amount, and answers with the Stripe-Version header', async () => {
    const card = await fundedCard(5000);
    const res = await deliver(stack.apiUrl, request(card, 1999));
    expect(res.status).toBe(200);
    expect(res.body.approved).toBe(true);
    expect(res.headers.get('stripe-version')).toBeTruthy();
    expect(await balanceOf(cardAccount(card.userId))).toBe(3001);
    expect(await balanceOf(holdAccount(card.userId))).toBe(1999);
  });

  it('declines above the balance with the reason in plain words, and holds nothing', async () => {
    const card = await fundedCard(1240);
    const evt = request(card, 4120);
    const res = await deliver(stack.apiUrl, evt);
    expect(res.body).toEqual({
      approved: false,
      metadata: { reason: '$41.20 is above your $12.40 balance.' },
    });
    expect(await stack.getItem(keys.authorization(evt.data.object.id))).toMatchObject({
      approved: false,
      reason: '$41.20 is above your $12.40 balance.',
    });
    expect(await balanceOf(cardAccount(card.userId))).toBe(1240);
  });

  it.each([
    [
      'a frozen card',
      { cardStatus: 'inactive' as const },
      {},
      'Your card is frozen. Please contact your manager.',
    ],
    ['a deleted employee', { userStatus: 'deleted' }, {}, 'This card has been cancelled.'],
    [
      'a merchant that is not about learning',
      {},
      { merchant: 'Lucky Casino', category: 'betting_casino_gambling' },
      'Lucky Casino (Betting and casinos) is not a learning merchant.',
    ],
  ])('declines %s', async (_name, cardOptions, extra, reason) => {
    const card = await fundedCard(5000, cardOptions);
    const res = await deliver(stack.apiUrl, request(card, 100, extra));
    expect(res.body.approved).toBe(false);
    expect(res.body.metadata.reason).toBe(reason);
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
  });

  it('lets a paused employee spend what the card already holds', async () => {
    const card = await fundedCard(5000, { userStatus: 'paused' });
    expect((await deliver(stack.apiUrl, request(card, 100))).body.approved).toBe(true);
  });

  it('finds the owner from our card record when the card carries no metadata', async () => {
    const card = await fundedCard(5000);
    const res = await deliver(
      stack.apiUrl,
      request({ cardId: card.cardId, userId: undefined as never }, 700),
    );
    expect(res.body.approved).toBe(true);
    expect(await balanceOf(holdAccount(card.userId))).toBe(700);
  });

  it('trusts our card record over metadata naming someone else', async () => {
    const card = await fundedCard(5000);
    const other = await fundedCard(5000);
    const res = await deliver(stack.apiUrl, request({ cardId: card.cardId, userId: other.userId }, 700));
    expect(res.body).toMatchObject({ approved: false, metadata: { reason: 'This card is not recognized.' } });
    expect(await balanceOf(cardAccount(other.userId))).toBe(5000);
  });

  it('answers a redelivered request the same way, with one hold', async () => {
    const card = await fundedCard(5000);
    const evt = request(card, 3000);
    const answers = await Promise.all([
      deliver(stack.apiUrl, evt),
      deliver(stack.apiUrl, evt),
      deliver(stack.apiUrl, evt),
    ]);
    expect(answers.map((a) => a.body.approved)).toEqual([true, true, true]);
    expect(await balanceOf(holdAccount(card.userId))).toBe(3000);
    expect(await balanceOf(cardAccount(card.userId))).toBe(2000);
  });

  it('approves exactly k of 200 concurrent purchases when the balance fits k', async () => {
    const k = 37;
    const card = await fundedCard(k * 100);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => deliver(stack.apiUrl, request(card, 100))),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.approved)).toHaveLength(k);
    expect(await balanceOf(cardAccount(card.userId))).toBe(0);
    expect(await balanceOf(holdAccount(card.userId))).toBe(k * 100);
  }, 120_000);
});

describe('settlement', () => {
  async function approved(cents: number, funded = 10_000) {
    const card = await fundedCard(funded);
    const auth = authorizationObject({ ...card, amountCents: cents });
    const res = await deliver(stack.apiUrl, event('issuing_authorization.request', auth));
    expect(res.body.approved).toBe(true);
    return { card, auth };
  }

  it('an exact capture settles the hold and records the purchase for a receipt', async () => {
    const { card, auth } = await approved(2500);
    const tx = transactionObject({ cardId: card.cardId, authorizationId: auth.id, amountCents: 2500 });
    await deliver(stack.apiUrl, event('issuing_transaction.created', tx));
    await deliver(
      stack.apiUrl,
      event('issuing_authorization.updated', {
        ...auth,
        status: 'closed',
        amount: 0,
        pending_request: null,
        transactions: [tx],
      }),
    );
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
    expect(await balanceOf(cardAccount(card.userId))).toBe(7500);
    expect(await stack.getItem(keys.purchase(tx.id))).toMatchObject({
      amountCents: 2500,
      receiptStatus: 'awaiting',
      userId: card.userId,
    });
  });

  it('a partial capture releases the rest when the authorization closes', async () => {
    const { card, auth } = await approved(2500);
    const tx = transactionObject({ cardId: card.cardId, authorizationId: auth.id, amountCents: 2000 });
    await deliver(stack.apiUrl, event('issuing_transaction.created', tx));
    await deliver(
      stack.apiUrl,
      event(
        'issuing_authorization.updated',
        authorizationObject({
          ...card,
          id: auth.id,
          amountCents: 0,
          status: 'closed',
          captures: [{ id: tx.id, amountCents: 2000 }],
        }),
      ),
    );
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
    expect(await balanceOf(cardAccount(card.userId))).toBe(8000);
  });

  it('an over-capture takes the whole hold and records the excess as debt', async () => {
    const { card, auth } = await approved(2500);
    const tx = transactionObject({ cardId: card.cardId, authorizationId: auth.id, amountCents: 2700 });
    await deliver(stack.apiUrl, event('issuing_transaction.created', tx));
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
    expect(await balanceOf(debtAccount(card.userId))).toBe(-200);
  });

  it('a capture with no authorization at all is recorded as debt, never lost', async () => {
    const card = await fundedCard(1000);
    const tx = transactionObject({ cardId: card.cardId, authorizationId: null, amountCents: 300 });
    await deliver(stack.apiUrl, event('issuing_transaction.created', tx));
    expect(await balanceOf(debtAccount(card.userId))).toBe(-300);
    expect(await balanceOf(cardAccount(card.userId))).toBe(1000);
  });

  it('a reversal releases the hold; a merchant refund credits the card', async () => {
    const { card, auth } = await approved(1500);
    await deliver(
      stack.apiUrl,
      event(
        'issuing_authorization.updated',
        authorizationObject({ ...card, id: auth.id, amountCents: 0, status: 'reversed' }),
      ),
    );
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
    expect(await balanceOf(cardAccount(card.userId))).toBe(10_000);

    const refund = transactionObject({ cardId: card.cardId, amountCents: 400, type: 'refund' });
    await deliver(stack.apiUrl, event('issuing_transaction.created', refund));
    await deliver(stack.apiUrl, event('issuing_transaction.created', refund));
    expect(await balanceOf(cardAccount(card.userId))).toBe(10_400);
  });

  it('every delivery order and repetition ends in the same ledger as one in-order delivery', async () => {
    async function scenario(order: (events: unknown[]) => unknown[]) {
      const { card, auth } = await approved(5000);
      const capture1 = transactionObject({
        cardId: card.cardId,
        authorizationId: auth.id,
        amountCents: 3000,
      });
      const capture2 = transactionObject({
        cardId: card.cardId,
        authorizationId: auth.id,
        amountCents: 1200,
      });
      const closed = authorizationObject({
        ...card,
        id: auth.id,
        amountCents: 0,
        status: 'closed',
        captures: [
          { id: capture1.id, amountCents: 3000 },
          { id: capture2.id, amountCents: 1200 },
        ],
      });
      const refund = transactionObject({ cardId: card.cardId, amountCents: 500, type: 'refund' });
      const events = [
        event('issuing_authorization.created', auth),
        event('issuing_transaction.created', capture1),
        event('issuing_transaction.created', capture2),
        event('issuing_authorization.updated', closed),
        event('issuing_transaction.created', refund),
      ];
      for (const e of order(events)) expect((await deliver(stack.apiUrl, e)).status).toBe(200);
      const summary = async (account: Parameters<typeof statement>[0]) =>
        (await statement(account)).map((l) => `${l.kind}:${l.amountCents}`).sort();
      return {
        card: await balanceOf(cardAccount(card.userId)),
        hold: await balanceOf(holdAccount(card.userId)),
        debt: await balanceOf(debtAccount(card.userId)),
        cardLines: await summary(cardAccount(card.userId)),
        holdLines: await summary(holdAccount(card.userId)),
      };
    }
    const inOrder = await scenario((e) => e);
    expect(inOrder).toMatchObject({ card: 10_000 - 4200 + 500, hold: 0, debt: 0 });
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 6; trial++) {
      const shuffledWithRepeats = (events: unknown[]) =>
        events
          .flatMap((e) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => e))
          .map((e) => ({ e, k: random() }))
          .sort((a, b) => a.k - b.k)
          .map(({ e }) => e);
      expect(await scenario(shuffledWithRepeats)).toEqual(inOrder);
    }
  }, 120_000);
});

describe('a $0 request (the merchant verifying the card)', () => {
  it('is answered by the rules and recorded, holding nothing: approved on an active card, declined with the plain reason otherwise', async () => {
    const card = await fundedCard(0);
    const evt = request(card, 0);
    const res = await deliver(stack.apiUrl, evt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ approved: true, metadata: {} });
    expect(res.headers.get('stripe-version')).toBeTruthy();
    expect(await stack.getItem(keys.authorization(evt.data.object.id))).toMatchObject({
      approved: true,
      amountCents: 0,
      heldCents: 0,
    });
    expect(await stack.getItem(keys.journal(`AUTH#${evt.data.object.id}`))).toBeUndefined();
    expect(await balanceOf(cardAccount(card.userId))).toBe(0);
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
    // Redelivered: the same answer, still nothing posted.
    expect((await deliver(stack.apiUrl, evt)).body).toEqual(res.body);

    const declines = [
      [{ cardStatus: 'inactive' as const }, {}, 'Your card is frozen. Please contact your manager.'],
      [
        {},
        { merchant: 'Lucky Casino', category: 'betting_casino_gambling' },
        'Lucky Casino (Betting and casinos) is not a learning merchant.',
      ],
    ] as const;
    for (const [cardOptions, extra, reason] of declines) {
      const declined = await fundedCard(5000, cardOptions);
      const verification = request(declined, 0, extra);
      const answer = await deliver(stack.apiUrl, verification);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ approved: false, metadata: { reason } });
      expect(await stack.getItem(keys.authorization(verification.data.object.id))).toMatchObject({
        approved: false,
        reason,
        heldCents: 0,
      });
      expect(await balanceOf(cardAccount(declined.userId))).toBe(5000);
    }
  });
});

describe('incremental authorizations (the merchant asks for more on the same authorization)', () => {
  /** The first request of a purchase, approved. */
  async function approvedFirst(funded: number, cents: number) {
    const card = await fundedCard(funded);
    const first = event(
      'issuing_authorization.request',
      authorizationObject({ ...card, amountCents: cents }),
    );
    expect((await deliver(stack.apiUrl, first)).body.approved).toBe(true);
    return { card, first, id: first.data.object.id as string };
  }

  /** Stripe's next request on the same authorization: the earlier ones listed, the extra cents pending. */
  function increment(
    card: { cardId: string; userId: string },
    id: string,
    authorizedCents: number,
    extraCents: number,
    history: { amountCents: number; approved?: boolean }[],
  ) {
    return event(
      'issuing_authorization.request',
      authorizationObject({ ...card, id, amountCents: authorizedCents, pendingCents: extraCents, history }),
    );
  }

  it('approves an increment within the balance and holds the extra; redeliveries hold nothing more', async () => {
    const { card, first, id } = await approvedFirst(5000, 2000);
    const more = increment(card, id, 2000, 1000, [{ amountCents: 2000 }]);
    const answers = await Promise.all([
      deliver(stack.apiUrl, more),
      deliver(stack.apiUrl, more),
      deliver(stack.apiUrl, more),
    ]);
    expect(answers.map((a) => a.body.approved)).toEqual([true, true, true]);
    expect(await balanceOf(holdAccount(card.userId))).toBe(3000);
    expect(await balanceOf(cardAccount(card.userId))).toBe(2000);
    expect(await stack.getItem(keys.authorization(id))).toMatchObject({
      approved: true,
      amountCents: 3000,
      heldCents: 3000,
      lastRequest: 1,
    });
    expect(await stack.getItem(keys.journal(`AUTH#${id}#1`))).toBeDefined();
    // The first request redelivered late: its own answer, no second hold.
    expect((await deliver(stack.apiUrl, first)).body.approved).toBe(true);
    expect(await balanceOf(holdAccount(card.userId))).toBe(3000);
  });

  it('declines an increment above what is left, with the reason; the first hold stays', async () => {
    const { card, id } = await approvedFirst(5000, 4000);
    const res = await deliver(stack.apiUrl, increment(card, id, 4000, 1500, [{ amountCents: 4000 }]));
    expect(res.body).toEqual({
      approved: false,
      metadata: { reason: '$15.00 is above your $10.00 balance.' },
    });
    expect(await balanceOf(holdAccount(card.userId))).toBe(4000);
    expect(await balanceOf(cardAccount(card.userId))).toBe(1000);
    expect(await stack.getItem(keys.authorization(id))).toMatchObject({
      approved: true,
      heldCents: 4000,
      requests: { 1: { approved: false, reason: '$15.00 is above your $10.00 balance.', amountCents: 1500 } },
    });
  });

  it('an increment and another purchase racing for the same dollars: only one gets them', async () => {
    const { card, id } = await approvedFirst(3000, 2000);
    const [more, other] = await Promise.all([
      deliver(stack.apiUrl, increment(card, id, 2000, 800, [{ amountCents: 2000 }])),
      deliver(stack.apiUrl, request(card, 800)),
    ]);
    expect([more.body.approved, other.body.approved].filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(cardAccount(card.userId))).toBe(200);
    expect(await balanceOf(holdAccount(card.userId))).toBe(2800);
  });

  it('settles the whole amount after an increment; an older event does not release the increment', async () => {
    const { card, id } = await approvedFirst(5000, 2000);
    expect(
      (await deliver(stack.apiUrl, increment(card, id, 2000, 1000, [{ amountCents: 2000 }]))).body.approved,
    ).toBe(true);
    // Stripe's `created` for the first request, delivered late: it lists one request and 20.00.
    const late = authorizationObject({ ...card, id, amountCents: 2000, history: [{ amountCents: 2000 }] });
    expect((await deliver(stack.apiUrl, event('issuing_authorization.created', late))).status).toBe(200);
    expect(await balanceOf(holdAccount(card.userId))).toBe(3000);

    const tx = transactionObject({ cardId: card.cardId, authorizationId: id, amountCents: 3000 });
    await deliver(stack.apiUrl, event('issuing_transaction.created', tx));
    const closed = authorizationObject({
      ...card,
      id,
      amountCents: 0,
      status: 'closed',
      captures: [{ id: tx.id, amountCents: 3000 }],
      history: [{ amountCents: 2000 }, { amountCents: 1000 }],
    });
    await deliver(stack.apiUrl, event('issuing_authorization.updated', closed));
    expect(await balanceOf(holdAccount(card.userId))).toBe(0);
    expect(await balanceOf(cardAccount(card.userId))).toBe(2000);
    expect(await balanceOf(debtAccount(card.userId))).toBe(0);
  });

  it('a reversal back to an amount released once before releases again after an increment', async () => {
    const { card, id } = await approvedFirst(5000, 2000);
    const pending = (cents: number, history: number[]) =>
      event(
        'issuing_authorization.updated',
        authorizationObject({
          ...card,
          id,
          amountCents: cents,
          history: history.map((c) => ({ amountCents: c })),
        }),
      );
    await deliver(stack.apiUrl, pending(1000, [2000])); // the merchant gives back 10.00
    expect(await balanceOf(holdAccount(card.userId))).toBe(1000);
    expect(
      (await deliver(stack.apiUrl, increment(card, id, 1000, 1000, [{ amountCents: 2000 }]))).body.approved,
    ).toBe(true);
    expect(await balanceOf(holdAccount(card.userId))).toBe(2000);
    await deliver(stack.apiUrl, pending(1000, [2000, 1000])); // and gives 10.00 back again
    expect(await balanceOf(holdAccount(card.userId))).toBe(1000);
    expect(await balanceOf(cardAccount(card.userId))).toBe(4000);
  });
});
