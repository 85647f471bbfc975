/**
 * The Stripe adapter against the emulator through the real SDK: a charge or a
 * refund made for a purpose is made once, even when a retry comes with another
 * idempotency key (as one does after Stripe's 24-hour key window).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charge, createCustomer, refund, stripe } from '../../lambdas/src/adapters/stripe';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;
/** Days pass for the emulator: its idempotency keys expire after 24 hours, as Stripe's do. */
let daysLater = 0;

beforeAll(async () => {
  stack = await startIntegrationStack({
    stripe: true,
    stripeClock: () => Date.now() + daysLater * 86_400_000,
  });
});
afterAll(async () => {
  await stack?.stop();
});

async function customer(token = 'tok_visa') {
  return createCustomer({ teamId: randomUUID(), email: 'a@example.com', name: 'Acme', token }, randomUUID());
}

describe('charges and refunds happen once per purpose', () => {
  it('a second attempt for a purpose that succeeded returns the first charge', async () => {
    const customerId = await customer();
    const args = { customerId, amountCents: 2500, description: 'Budget', purpose: 'JOIN#u1', metadata: {} };
    const first = await charge(args, 'attempt-1');
    daysLater = 3; // a retry days later, after Stripe forgot the first key
    const second = await charge({ ...args, amountCents: 9900 }, 'attempt-1').finally(() => {
      daysLater = 0;
    });
    expect(first.status).toBe('succeeded');
    expect(second).toEqual(first);
    const other = await charge({ ...args, purpose: 'JOIN#u2' }, 'attempt-3');
    expect(other.status).toBe('succeeded');
    expect(other).not.toEqual(first);
    const charges = await (await stripe()).charges.list({ customer: customerId });
    expect(charges.data.map((c) => c.amount).sort()).toEqual([2500, 2500]);
  });

  it('a declined purpose is tried again under a new attempt key', async () => {
    const customerId = await customer('tok_visa');
    const s = await stripe();
    const declining = await s.customers.createSource(customerId, { source: 'tok_chargeCustomerFail' });
    await s.customers.update(customerId, { default_source: declining.id });
    const args = {
      customerId,
      amountCents: 1000,
      description: 'Budget',
      purpose: 'CYCLE#t#2026-11',
      metadata: {},
    };
    expect((await charge(args, 'day-1')).status).toBe('declined');
    const good = (await s.customers.listSources(customerId, { object: 'card' })).data.find(
      (c) => c.id !== declining.id,
    );
    await s.customers.update(customerId, { default_source: good?.id as string });
    expect((await charge(args, 'day-1')).status).toBe('declined'); // the same attempt is replayed
    expect((await charge(args, 'day-2')).status).toBe('succeeded');
  });

  it('a refund for a purpose is made once, whatever the retry', async () => {
    const customerId = await customer();
    const made = await charge(
      { customerId, amountCents: 5000, description: 'Budget', purpose: 'DEPOSIT#k#u', metadata: {} },
      'a',
    );
    if (made.status !== 'succeeded') throw new Error('charge failed');
    const args = { chargeId: made.chargeId, amountCents: 1200, purpose: 'REDEEM#u#s#c', metadata: {} };
    const first = await refund(args);
    expect(await refund(args)).toBe(first);
    daysLater = 3; // Stripe has forgotten the idempotency key by now
    try {
      expect(await refund(args)).toBe(first);
    } finally {
      daysLater = 0;
    }
    const retrieved = await (await stripe()).charges.retrieve(made.chargeId);
    expect(retrieved.amount_refunded).toBe(1200);
  });
});
