import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { readWebhookDecision } from '../../infra/local/stripe/network';
import {
  checkSpendingControls,
  type SpendingControls,
  windowStart,
} from '../../infra/local/stripe/spendingControls';
import { isEnabled, signatureHeader } from '../../infra/local/stripe/webhooks';

const controls = (over: Partial<SpendingControls>): SpendingControls => ({
  allowed_categories: null,
  blocked_categories: null,
  allowed_merchant_countries: null,
  blocked_merchant_countries: null,
  spending_limits: [],
  ...over,
});
const now = Date.UTC(2030, 4, 15, 12) / 1000; // Wednesday 15 May 2030, 12:00 UTC
const books = { amount: 1000, category: 'book_stores', country: 'US' };

describe("Stripe Issuing's spending controls (emulated)", () => {
  it('declines a category outside allowed_categories or inside blocked_categories', () => {
    expect(checkSpendingControls(controls({ allowed_categories: ['book_stores'] }), books, [], now).ok).toBe(
      true,
    );
    expect(
      checkSpendingControls(
        controls({ allowed_categories: ['book_stores'] }),
        { ...books, category: 'drinking_places' },
        [],
        now,
      ),
    ).toEqual({ ok: false, message: 'merchant category drinking_places is not in allowed_categories' });
    expect(checkSpendingControls(controls({ blocked_categories: ['book_stores'] }), books, [], now).ok).toBe(
      false,
    );
    expect(checkSpendingControls(controls({ allowed_categories: [] }), books, [], now).ok).toBe(true);
  });

  it('declines a merchant country that is not allowed', () => {
    expect(
      checkSpendingControls(
        controls({ allowed_merchant_countries: ['US'] }),
        { ...books, country: 'FR' },
        [],
        now,
      ).ok,
    ).toBe(false);
    expect(checkSpendingControls(controls({ blocked_merchant_countries: ['US'] }), books, [], now).ok).toBe(
      false,
    );
  });

  it('counts everything spent against an all_time limit, to the cent', () => {
    const limit = controls({ spending_limits: [{ amount: 2500, interval: 'all_time' }] });
    const past = [{ amount: 1500, category: 'book_stores', created: 0 }];
    expect(checkSpendingControls(limit, books, past, now).ok).toBe(true); // 2500 exactly
    expect(checkSpendingControls(limit, { ...books, amount: 1001 }, past, now).ok).toBe(false);
  });

  it('applies per_authorization limits to the amount alone', () => {
    const limit = controls({ spending_limits: [{ amount: 999, interval: 'per_authorization' }] });
    expect(checkSpendingControls(limit, books, [], now).ok).toBe(false);
    expect(checkSpendingControls(limit, { ...books, amount: 999 }, [], now).ok).toBe(true);
  });

  it('counts only spending inside the window, and only in the limit’s categories', () => {
    const monthly = controls({
      spending_limits: [{ amount: 2000, interval: 'monthly', categories: ['book_stores'] }],
    });
    const lastMonth = Date.UTC(2030, 3, 30) / 1000;
    const thisMonth = Date.UTC(2030, 4, 1) / 1000;
    const past = [
      { amount: 1500, category: 'book_stores', created: lastMonth },
      { amount: 500, category: 'book_stores', created: thisMonth },
      { amount: 5000, category: 'educational_services', created: thisMonth },
    ];
    expect(checkSpendingControls(monthly, books, past, now).ok).toBe(true); // 500 + 1000
    expect(checkSpendingControls(monthly, { ...books, amount: 1501 }, past, now).ok).toBe(false);
    expect(
      checkSpendingControls(monthly, { ...books, category: 'educational_services', amount: 99999 }, past, now)
        .ok,
    ).toBe(true);
  });

  it('starts windows on calendar boundaries in UTC (weeks on Sunday)', () => {
    expect(windowStart('daily', now)).toBe(Date.UTC(2030, 4, 15) / 1000);
    expect(windowStart('weekly', now)).toBe(Date.UTC(2030, 4, 12) / 1000);
    expect(windowStart('monthly', now)).toBe(Date.UTC(2030, 4, 1) / 1000);
    expect(windowStart('yearly', now)).toBe(Date.UTC(2030, 0, 1) / 1000);
    expect(windowStart('all_time', now)).toBe(0);
  });
});

describe('webhook signatures', () => {
  it('are what stripe.webhooks.constructEvent verifies', () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'issuing_card.created',
      data: { object: {} },
    });
    const header = signatureHeader(payload, 'whsec_test', Math.floor(Date.now() / 1000));
    const event = new Stripe('sk_test_x').webhooks.constructEvent(payload, header, 'whsec_test');
    expect(event.id).toBe('evt_1');
    expect(() => new Stripe('sk_test_x').webhooks.constructEvent(payload, header, 'whsec_other')).toThrow();
  });

  it('match the SDK’s own test header for the same timestamp', () => {
    const payload = '{"id":"evt_2"}';
    const timestamp = 1_900_000_000;
    const expected = new Stripe('sk_test_x').webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_a',
      timestamp,
    });
    expect(signatureHeader(payload, 'whsec_a', timestamp)).toBe(expected);
  });

  it('go out for enabled event types only', () => {
    expect(isEnabled('issuing_card.created', ['*'])).toBe(true);
    expect(isEnabled('issuing_card.created', ['issuing_card.*'])).toBe(true);
    expect(isEnabled('issuing_cardholder.created', ['issuing_card.*'])).toBe(false);
    expect(isEnabled('charge.succeeded', ['charge.failed'])).toBe(false);
  });
});

describe("reading the product's answer to issuing_authorization.request", () => {
  const answer = (body: string, status = 200, version: string | null = '2026-10-28.endive') => ({
    status,
    headers: new Headers(version ? { 'stripe-version': version } : {}),
    text: body,
  });

  it('approves or declines on a boolean `approved`, keeping metadata', () => {
    expect(readWebhookDecision('delivered', answer('{"approved":true}'), 500)).toEqual({
      approved: true,
      reason: 'webhook_approved',
      metadata: undefined,
    });
    expect(
      readWebhookDecision('delivered', answer('{"approved":false,"metadata":{"why":"balance"}}'), 500),
    ).toEqual({
      approved: false,
      reason: 'webhook_declined',
      metadata: { why: 'balance' },
    });
  });

  it.each([
    ['a non-200 status', answer('{"approved":true}', 500)],
    ['no Stripe-Version header', answer('{"approved":true}', 200, null)],
    ['a body that is not JSON', answer('approved')],
    ['"approved" as a string', answer('{"approved":"true"}')],
    ['metadata with a number', answer('{"approved":true,"metadata":{"n":1}}')],
    ['an amount while the amount is not controllable', answer('{"approved":true,"amount":100}')],
  ])('declines with webhook_error on %s', (_what, response) => {
    expect(readWebhookDecision('delivered', response, 500)).toMatchObject({
      approved: false,
      reason: 'webhook_error',
    });
  });

  it('declines with webhook_timeout when no answer came in time', () => {
    expect(readWebhookDecision('timeout', undefined, 500)).toMatchObject({
      approved: false,
      reason: 'webhook_timeout',
    });
    expect(readWebhookDecision('error', undefined, 500, 'ECONNREFUSED')).toEqual({
      approved: false,
      reason: 'webhook_error',
      detail: 'ECONNREFUSED',
    });
  });
});
