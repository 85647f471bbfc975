/**
 * Contract test of the local Stripe emulator (infra/local/stripe), driven only
 * through the real `stripe` SDK, plus plain fetch for the pages and the
 * /_emulator/ controls. Every object kind it makes is compared with Stripe's
 * own example object (test/fixtures/stripe/fixtures3.json, vendored from Stripe's OpenAPI repository); webhooks go
 * to a small receiver here that verifies each signature with
 * `stripe.webhooks.constructEvent`, as the product does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StripeEmulator, startStripeEmulator } from '../../infra/local/stripe';
import { freePort } from '../support/ports';

const WEBHOOK_SECRET = 'whsec_emulator_contract_test';
const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/stripe/fixtures3.json', import.meta.url), 'utf8'),
).resources as Record<string, Record<string, unknown>>;

// ------------------------------------------------------------------ webhook receiver

interface Received {
  id: string;
  type: string;
  object: any;
  previous?: any;
}

/** What the receiver answers to `issuing_authorization.request`. */
type Answer = {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only once this settles (a late answer), then call `sent`. */
  holdUntil?: Promise<void>;
  sent?: () => void;
};
const approve = (metadata?: Record<string, string>): Answer => ({
  body: JSON.stringify({ approved: true, ...(metadata ? { metadata } : {}) }),
});
const decline = (metadata?: Record<string, string>): Answer => ({
  body: JSON.stringify({ approved: false, ...(metadata ? { metadata } : {}) }),
});

class Receiver {
  received: Received[] = [];
  badSignatures = 0;
  answer: (auth: any) => Answer = () => approve();
  private server: Server | undefined;
  private readonly verifier = new Stripe('sk_test_receiver');
  url = '';

  async start(): Promise<void> {
    const port = await freePort();
    this.server = createServer(async (req, res) => {
      const raw = await readRaw(req);
      let event: Stripe.Event;
      try {
        event = this.verifier.webhooks.constructEvent(
          raw,
          req.headers['stripe-signature'] as string,
          WEBHOOK_SECRET,
        );
      } catch {
        this.badSignatures++;
        res.writeHead(400).end();
        return;
      }
      const data = event.data as { object: any; previous_attributes?: any };
      this.received.push({
        id: event.id,
        type: event.type,
        object: data.object,
        previous: data.previous_attributes,
      });
      if (event.type !== 'issuing_authorization.request') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        return;
      }
      const answer = this.answer(data.object);
      if (answer.holdUntil) await answer.holdUntil;
      res
        .writeHead(answer.status ?? 200, {
          'content-type': 'application/json',
          'stripe-version': Stripe.API_VERSION,
          ...answer.headers,
        })
        .end(answer.body ?? '');
      // Written (the network may have hung up by then: a late answer reaches nobody).
      answer.sent?.();
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}/stripe/webhook`;
  }

  /** Types of the card network's events (authorizations and transactions) received, in order. */
  types(): string[] {
    return this.network().map((r) => r.type);
  }

  network(): Received[] {
    return this.received.filter((r) => /^issuing_(authorization|transaction)\./.test(r.type));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }
}

async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// ------------------------------------------------------------------ setup

const receiver = new Receiver();
let emulator: StripeEmulator;
let stripe: Stripe;
let browserStripe: Stripe;
let clockOffsetMs = 0;
const logLines: string[] = [];

function sdk(key: string, port: number): Stripe {
  return new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
}

beforeAll(async () => {
  await receiver.start();
  emulator = await startStripeEmulator({
    port: await freePort(),
    log: (line) => logLines.push(line),
    webhookUrl: receiver.url,
    webhookSecret: WEBHOOK_SECRET,
    webhookRetryDelaysMs: [],
    clock: () => Date.now() + clockOffsetMs,
    // The tests below run Stripe's expiry themselves (`/_emulator/expire_due`).
    expiryCheckMs: false,
  });
  stripe = sdk('sk_test_emulator_contract', emulator.port);
  browserStripe = sdk('pk_test_emulator_contract', emulator.port);
});

afterAll(async () => {
  await emulator?.stop();
  await receiver.stop();
});

beforeEach(async () => {
  await emulator.admin.idle();
  receiver.received = [];
  receiver.answer = () => approve();
  clockOffsetMs = 0;
});

afterAll(() => {
  // Every webhook the emulator sent carried a valid signature.
  expect(receiver.badSignatures).toBe(0);
});

const nextYear = new Date().getUTCFullYear() + 1;

async function tokenFor(number: string, extra: Record<string, string> = {}): Promise<Stripe.Token> {
  return browserStripe.tokens.create({
    card: { number, exp_month: '12', exp_year: String(nextYear), cvc: '123', name: 'Ada Lovelace', ...extra },
  });
}

async function issuedCard(
  controls?: Stripe.Issuing.CardCreateParams.SpendingControls,
  status: 'active' | 'inactive' = 'active',
) {
  const cardholder = await stripe.issuing.cardholders.create({
    type: 'individual',
    name: 'Grace Hopper',
    email: `grace+${Date.now()}@example.com`,
    billing: {
      address: { line1: '1 Main St', city: 'Arlington', state: 'VA', postal_code: '22201', country: 'US' },
    },
  });
  const card = await stripe.issuing.cards.create({
    cardholder: cardholder.id,
    currency: 'usd',
    type: 'virtual',
    status,
    ...(controls ? { spending_controls: controls } : {}),
  });
  return { cardholder, card, details: emulator.admin.cardDetails(card.id) };
}

async function pay(
  details: { number: string; exp_month: number; exp_year: number; cvc: string },
  amount: string,
  category = 'book_stores',
  override: Record<string, string> = {},
) {
  const form = new URLSearchParams({
    number: details.number,
    exp: `${String(details.exp_month).padStart(2, '0')}/${String(details.exp_year % 100).padStart(2, '0')}`,
    cvc: details.cvc,
    merchant_name: 'Example Books',
    category,
    amount,
    ...override,
  });
  const res = await fetch(`${emulator.url}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const html = await res.text();
  const authorizationId = /<code>(iauth_\w+)<\/code>/.exec(html)?.[1];
  return { status: res.status, html, authorizationId };
}

async function adminPost(path: string, body: unknown = {}) {
  const res = await fetch(`${emulator.url}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function stripeError(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected a Stripe error');
}

// ------------------------------------------------------------------ shape contract

type JsonType = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';
const jsonType = (v: unknown): JsonType =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as 'object' | 'string' | 'number' | 'boolean');

/**
 * Every key of Stripe's example object is present in ours, with the same JSON
 * type wherever both are non-null, recursively. Where ours is null and the
 * example is not, the field must be one Stripe documents as nullable (listed
 * per object kind in `nullable`, checked against the SDK's `| null` types);
 * nested objects of a known kind (an issuing card's cardholder) follow their
 * own kind's list. `polymorphic` fields hold a different kind of object than
 * Stripe's example (an event's `data.object`, a charge's source).
 */
function shapeProblems(
  fixture: unknown,
  ours: unknown,
  path: string,
  kind: string,
  relative: string,
): string[] {
  const problems: string[] = [];
  if (jsonType(fixture) === 'array' && jsonType(ours) === 'array') {
    const [f] = fixture as unknown[];
    const [o] = ours as unknown[];
    if (f !== undefined && o !== undefined) {
      problems.push(...shapeProblems(f, o, `${path}[]`, kind, `${relative}[]`));
    }
    return problems;
  }
  if (jsonType(fixture) !== 'object' || jsonType(ours) !== 'object') return problems;
  const ownKind = (ours as { object?: string }).object;
  if (ownKind && ownKind in nullable && ownKind !== kind) {
    kind = ownKind;
    relative = '';
  }
  for (const [key, f] of Object.entries(fixture as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key;
    const rel = relative ? `${relative}.${key}` : key;
    if (!(key in (ours as object))) {
      problems.push(`${at} is missing`);
      continue;
    }
    const o = (ours as Record<string, unknown>)[key];
    if (f === null) continue;
    if (o === null) {
      if (!nullable[kind]?.includes(rel)) problems.push(`${at} is null; Stripe's example has ${jsonType(f)}`);
      continue;
    }
    if (jsonType(f) !== jsonType(o)) {
      problems.push(`${at} is ${jsonType(o)}; Stripe's example has ${jsonType(f)}`);
      continue;
    }
    if (!polymorphic[kind]?.includes(rel)) problems.push(...shapeProblems(f, o, at, kind, rel));
  }
  return problems;
}

/** Top-level keys ours has beyond the example: only those named here, each for a reason. */
const allowedExtras: Record<string, string[]> = {
  // Stripe includes `sources` when expanded; the emulator always does.
  customer: ['sources'],
  // Returned on creation: the secret the card-details frame takes, and what it opens.
  ephemeral_key: ['secret', 'associated_objects'],
  token: [],
  card: [],
  charge: [],
  refund: [],
  'issuing.cardholder': [],
  'issuing.card': [],
  'issuing.authorization': [],
  'issuing.transaction': [],
  event: [],
};

/** Fields Stripe documents as nullable (the SDK types say `| null`) that the emulator may leave null. */
const nullable: Record<string, string[]> = {
  customer: ['address', 'currency', 'discount', 'invoice_settings.rendering_options', 'shipping'],
  card: [],
  token: [],
  charge: [
    'balance_transaction',
    'billing_details.address.country',
    'description',
    'payment_method_details.card.installments',
    'payment_method_details.card.three_d_secure',
    'payment_method_details.card.wallet',
    'receipt_url',
    'shipping',
    'transfer_data',
  ],
  refund: [],
  'issuing.cardholder': ['billing.address.line2', 'company', 'individual', 'phone_number'],
  'issuing.card': ['latest_fraud_warning', 'lifecycle_controls', 'shipping'],
  'issuing.authorization': [
    'fleet',
    'fuel',
    'pending_request',
    'verification_data.authentication_exemption',
    'verification_data.three_d_secure',
  ],
  'issuing.transaction': ['wallet'],
  event: [],
  ephemeral_key: [],
};

const polymorphic: Record<string, string[]> = {
  // Stripe's example charge was paid with an ACH source object; ours with a card.
  charge: ['source'],
  event: ['data.object'],
};

function expectStripeShape(kind: string, object: unknown): void {
  const fixture = fixtures[kind];
  expect(fixture, `fixture ${kind}`).toBeDefined();
  const problems = shapeProblems(fixture, object, '', kind, '');
  const extras = Object.keys(object as object).filter((k) => !(k in (fixture as object)));
  const unexpected = extras.filter((k) => !(allowedExtras[kind] ?? []).includes(k));
  expect([...problems, ...unexpected.map((k) => `${k} is not in Stripe's example`)]).toEqual([]);
  expect((object as { object: string }).object).toBe(
    kind === 'ephemeral_key' ? 'ephemeral_key' : fixture?.object,
  );
}

describe("objects have the shape of Stripe's own examples (fixtures3.json)", () => {
  const made: Record<string, unknown> = {};

  beforeAll(async () => {
    const token = await tokenFor('4242424242424242', { address_line1: '1 Main St', address_zip: '22201' });
    made.token = token;
    const customer = await stripe.customers.create({
      email: 'billing@example.com',
      name: 'Example Co',
      metadata: { team: 't1' },
      source: token.id,
    });
    made.customer = await stripe.customers.retrieve(customer.id);
    const [card] = (await stripe.customers.listSources(customer.id, { object: 'card' })).data;
    made.card = card;
    const charge = await stripe.charges.create({ amount: 2500, currency: 'usd', customer: customer.id });
    made.refund = await stripe.refunds.create({ charge: charge.id, amount: 500 });
    made.charge = await stripe.charges.retrieve(charge.id);
    const issued = await issuedCard();
    made['issuing.cardholder'] = await stripe.issuing.cardholders.retrieve(issued.cardholder.id);
    made['issuing.card'] = await stripe.issuing.cards.retrieve(issued.card.id);
    made.ephemeral_key = await stripe.ephemeralKeys.create(
      { issuing_card: issued.card.id },
      { apiVersion: Stripe.API_VERSION },
    );
    const paid = await pay(issued.details, '12.34');
    await emulator.admin.idle();
    made['issuing.authorization'] = await stripe.issuing.authorizations.retrieve(
      paid.authorizationId as string,
    );
    const [tx] = (await stripe.issuing.transactions.list({ card: issued.card.id })).data;
    made['issuing.transaction'] = tx;
    made.event = (await stripe.events.list({ limit: 1 })).data[0];
  });

  it.each(Object.keys(allowedExtras))('%s', (kind) => {
    expectStripeShape(kind, made[kind]);
  });

  it('ids carry Stripe’s prefixes', () => {
    const prefixes: Record<string, string> = {
      token: 'tok_',
      customer: 'cus_',
      card: 'card_',
      charge: 'ch_',
      refund: 're_',
      'issuing.cardholder': 'ich_',
      'issuing.card': 'ic_',
      'issuing.authorization': 'iauth_',
      'issuing.transaction': 'ipi_',
      event: 'evt_',
      ephemeral_key: 'ephkey_',
    };
    for (const [kind, prefix] of Object.entries(prefixes)) {
      expect((made[kind] as { id: string }).id.startsWith(prefix), kind).toBe(true);
    }
    expect((made.ephemeral_key as { secret: string }).secret).toMatch(/^ek_test_/);
  });

  it('events carry the object as it was, and previous_attributes on updates', () => {
    const events = emulator.admin.events();
    const updated = events.find((e) => e.type === 'issuing_authorization.updated');
    expect(updated?.data.previous_attributes).toMatchObject({ status: 'pending' });
    expect(updated?.data.object).toMatchObject({ status: 'closed' });
    expectStripeShape('issuing.authorization', updated?.data.object);
  });
});

// ------------------------------------------------------------------ API keys and wire format

describe('API keys, errors and wire format', () => {
  it('refuses a request without a key, a live key, and a publishable key for server calls', async () => {
    const none = await fetch(`${emulator.url}/v1/customers`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.type).toBe('invalid_request_error');
    const live = await stripeError(sdk('sk_live_abcdefghijkl', emulator.port).customers.list());
    expect(live).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const publishable = await stripeError(browserStripe.customers.create({ email: 'x@example.com' }));
    expect(publishable).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(publishable.statusCode).toBe(401);
  });

  it('answers 404 resource_missing for an unknown object and 400 for an unknown parameter', async () => {
    const missing = await stripeError(stripe.customers.retrieve('cus_nope'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing.statusCode).toBe(404);
    expect(missing.code).toBe('resource_missing');
    expect(missing.message).toBe("No such customer: 'cus_nope'");
    const unknown = await stripeError(stripe.customers.create({ emial: 'typo@example.com' } as any));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.message).toBe('Received unknown parameter: emial');
    expect(unknown.param).toBe('emial');
  });

  it('parses nested bracket notation and validates nested values', async () => {
    const { cardholder } = await issuedCard();
    const error = await stripeError(
      stripe.issuing.cards.create({
        cardholder: cardholder.id,
        currency: 'usd',
        type: 'virtual',
        spending_controls: { spending_limits: [{ amount: 'lots' as any, interval: 'all_time' }] },
      }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.param).toBe('spending_controls[spending_limits][0][amount]');
  });

  it('sends Request-Id and answers unknown routes like Stripe', async () => {
    const res = await fetch(`${emulator.url}/v1/subscriptions`, {
      headers: { authorization: 'Bearer sk_test_x' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(((await res.json()) as any).error.message).toMatch(
      /Unrecognized request URL \(GET: \/v1\/subscriptions\)/,
    );
  });
});

// ------------------------------------------------------------------ tokens

describe('POST /v1/tokens', () => {
  it('makes a token wrapping a card, with brand, last4, expiry, funding and country', async () => {
    const token = await tokenFor('4000056655665556');
    expect(token).toMatchObject({ object: 'token', type: 'card', used: false, livemode: false });
    expect(token.card).toMatchObject({
      brand: 'Visa',
      last4: '5556',
      exp_month: 12,
      exp_year: nextYear,
      funding: 'debit',
      country: 'US',
    });
    expect(JSON.stringify(token)).not.toContain('4000056655665556');
    const amex = await browserStripe.tokens.create({
      card: { number: '378282246310005', exp_month: '1', exp_year: String(nextYear), cvc: '1234' },
    });
    expect(amex.card?.brand).toBe('American Express');
  });

  it.each([
    ['a number failing Luhn', { number: '4242424242424241' }, 'incorrect_number', 'number'],
    ['an expiry year in the past', { exp_year: '2001' }, 'invalid_expiry_year', 'exp_year'],
    ['an impossible expiry month', { exp_month: '13' }, 'invalid_expiry_month', 'exp_month'],
    ['a CVC of two digits', { cvc: '12' }, 'invalid_cvc', 'cvc'],
    ['a CVC with letters', { cvc: '12a' }, 'invalid_cvc', 'cvc'],
  ])('refuses %s with 402 %s', async (_what, override, code, param) => {
    const error = await stripeError(tokenFor('4242424242424242', override as Record<string, string>));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.statusCode).toBe(402);
    expect(error.code).toBe(code);
    expect(error.param).toBe(param);
  });

  it('refuses a card that expired earlier this year', async () => {
    const now = new Date();
    if (now.getUTCMonth() === 0) return; // January: no earlier month this year
    const error = await stripeError(
      tokenFor('4242424242424242', {
        exp_month: String(now.getUTCMonth()),
        exp_year: String(now.getUTCFullYear()),
      }),
    );
    expect(error.code).toBe('invalid_expiry_month');
  });

  it('answers CORS for browsers, which send the publishable key in the body', async () => {
    const preflight = await fetch(`${emulator.url}/v1/tokens`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const res = await fetch(`${emulator.url}/v1/tokens`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:3000', 'content-type': 'application/x-www-form-urlencoded' },
      body: `card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=${nextYear}&card[cvc]=123&key=pk_test_browser`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await res.json()) as any).id).toMatch(/^tok_/);
  });

  it('uses a token once only', async () => {
    const token = await tokenFor('4242424242424242');
    const customer = await stripe.customers.create({ source: token.id });
    const again = await stripeError(stripe.customers.createSource(customer.id, { source: token.id }));
    expect(again.code).toBe('token_already_used');
  });
});

// ------------------------------------------------------------------ customers and sources

describe('customers and their cards', () => {
  it('keeps the first card as default, moves the default when it is deleted, and ends at null', async () => {
    const customer = await stripe.customers.create({
      email: 'owner@example.com',
      name: 'Owner',
      description: 'team',
    });
    expect(customer.default_source).toBeNull();
    const first = (await stripe.customers.createSource(customer.id, {
      source: (await tokenFor('4242424242424242')).id,
    })) as Stripe.Card;
    const second = (await stripe.customers.createSource(customer.id, {
      source: (await tokenFor('5555555555554444')).id,
    })) as Stripe.Card;
    expect(second.brand).toBe('MasterCard');
    expect(second.customer).toBe(customer.id);
    let current = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(current.default_source).toBe(first.id);
    expect(current.sources?.data.map((s) => s.id)).toEqual([second.id, first.id]);

    const list = await stripe.customers.listSources(customer.id, { object: 'card', limit: 1 });
    expect(list).toMatchObject({
      object: 'list',
      has_more: true,
      url: `/v1/customers/${customer.id}/sources`,
    });

    await stripe.customers.update(customer.id, { default_source: second.id });
    const deleted = await stripe.customers.deleteSource(customer.id, second.id);
    expect(deleted).toMatchObject({ id: second.id, deleted: true });
    current = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(current.default_source).toBe(first.id);
    await stripe.customers.deleteSource(customer.id, first.id);
    current = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(current.default_source).toBeNull();
  });

  it('updates metadata as Stripe does: set, keep, and unset with an empty value', async () => {
    const customer = await stripe.customers.create({ metadata: { a: '1', b: '2' } });
    const updated = await stripe.customers.update(customer.id, {
      metadata: { a: '', c: '3' },
      email: 'new@example.com',
    });
    expect(updated.metadata).toEqual({ b: '2', c: '3' });
    expect(updated.email).toBe('new@example.com');
  });

  it('refuses a default_source that is not the customer’s', async () => {
    const customer = await stripe.customers.create({});
    const error = await stripeError(stripe.customers.update(customer.id, { default_source: 'card_other' }));
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('resource_missing');
  });
});

// ------------------------------------------------------------------ charges and test cards

describe("charges with Stripe's test cards", () => {
  it('4242424242424242 succeeds', async () => {
    const customer = await stripe.customers.create({ source: (await tokenFor('4242424242424242')).id });
    const charge = await stripe.charges.create({
      amount: 2500,
      currency: 'usd',
      customer: customer.id,
      description: 'Monthly budget',
      metadata: { cycle: '2024-05' },
    });
    expect(charge).toMatchObject({
      status: 'succeeded',
      paid: true,
      captured: true,
      amount: 2500,
      amount_captured: 2500,
    });
    expect(charge.payment_method).toBe(customer.default_source);
    expect(charge.payment_method_details?.card?.last4).toBe('4242');
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline'],
    ['4000000000009995', 'card_declined', 'insufficient_funds'],
    ['4000000000000069', 'expired_card', 'expired_card'],
    ['4000000000000127', 'incorrect_cvc', 'incorrect_cvc'],
    ['4000000000000119', 'processing_error', 'processing_error'],
  ])('%s declines with %s/%s and leaves a failed charge', async (number, code, declineCode) => {
    const error = await stripeError(
      stripe.charges.create({ amount: 1000, currency: 'usd', source: (await tokenFor(number)).id }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.statusCode).toBe(402);
    expect(error.code).toBe(code);
    expect(error.decline_code).toBe(declineCode);
    const chargeId = (error.raw as { charge?: string }).charge as string;
    const failed = await stripe.charges.retrieve(chargeId);
    expect(failed).toMatchObject({ status: 'failed', paid: false, failure_code: code, amount_captured: 0 });
    expect(failed.outcome?.reason).toBe(declineCode);
  });

  it.each([
    ['4000000000000002', 'generic_decline'],
    ['4000000000009995', 'insufficient_funds'],
  ])('%s cannot be attached to a customer (%s)', async (number, declineCode) => {
    const customer = await stripe.customers.create({});
    const error = await stripeError(
      stripe.customers.createSource(customer.id, { source: (await tokenFor(number)).id }),
    );
    expect(error.decline_code).toBe(declineCode);
    const after = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(after.sources?.data).toEqual([]);
  });

  it('4000000000000341 attaches fine but declines every charge', async () => {
    const customer = await stripe.customers.create({ source: (await tokenFor('4000000000000341')).id });
    expect(customer.default_source).toMatch(/^card_/);
    for (let i = 0; i < 2; i++) {
      const error = await stripeError(
        stripe.charges.create({ amount: 2500, currency: 'usd', customer: customer.id }),
      );
      expect(error.code).toBe('card_declined');
    }
  });

  it('refuses to charge a customer with no card, and amounts under 50 cents', async () => {
    const customer = await stripe.customers.create({});
    const noCard = await stripeError(
      stripe.charges.create({ amount: 2500, currency: 'usd', customer: customer.id }),
    );
    expect(noCard.code).toBe('missing');
    const tiny = await stripeError(
      stripe.charges.create({ amount: 49, currency: 'usd', source: 'tok_visa' }),
    );
    expect(tiny.code).toBe('amount_too_small');
  });

  it('refunds partially and fully, never more than what is left', async () => {
    const charge = await stripe.charges.create({ amount: 5000, currency: 'usd', source: 'tok_visa' });
    const partial = await stripe.refunds.create({
      charge: charge.id,
      amount: 1200,
      metadata: { why: 'redeem' },
    });
    expect(partial).toMatchObject({
      amount: 1200,
      status: 'succeeded',
      charge: charge.id,
      metadata: { why: 'redeem' },
    });
    expect(await stripe.refunds.retrieve(partial.id)).toEqual(partial);
    const over = await stripeError(stripe.refunds.create({ charge: charge.id, amount: 3801 }));
    expect(over.statusCode).toBe(400);
    expect(over.message).toMatch(/greater than unrefunded amount/);
    const rest = await stripe.refunds.create({ charge: charge.id });
    expect(rest.amount).toBe(3800);
    const after = await stripe.charges.retrieve(charge.id);
    expect(after).toMatchObject({ amount_refunded: 5000, refunded: true });
    expect(after.refunds?.data.map((r) => r.id)).toEqual([rest.id, partial.id]);
    const again = await stripeError(stripe.refunds.create({ charge: charge.id, amount: 1 }));
    expect(again.code).toBe('charge_already_refunded');
  });

  it('lists charges and refunds by created (exact or a range), paged', async () => {
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(await stripe.charges.create({ amount: 100 + i, currency: 'usd', source: 'tok_visa' }));
    const created = made[0]?.created as number;
    const ids = async (params: Stripe.ChargeListParams) => {
      const seen: string[] = [];
      for await (const c of stripe.charges.list({ ...params, limit: 1 })) seen.push(c.id);
      return seen;
    };
    const since = await ids({ created: { gte: created } });
    for (const c of made) expect(since).toContain(c.id);
    expect(await ids({ created: { lt: created } })).not.toContain(made[0]?.id);
    expect(await ids({ created: { gt: (made[2]?.created as number) + 1 } })).toEqual([]);
    expect(await ids({ created })).toContain(made[0]?.id);
    const refund = await stripe.refunds.create({ charge: made[0]?.id as string, amount: 50 });
    const refunds = await stripe.refunds.list({ created: { gte: refund.created, lte: refund.created } });
    expect(refunds.data.map((r) => r.id)).toContain(refund.id);
    expect(
      (await stripe.refunds.list({ created: { lt: refund.created } })).data.map((r) => r.id),
    ).not.toContain(refund.id);
  });
});

// ------------------------------------------------------------------ idempotency

describe('Idempotency-Key', () => {
  it('replays the same response for the same key and body', async () => {
    const params = { amount: 700, currency: 'usd', source: 'tok_visa', metadata: { n: '1' } };
    const first = await stripe.charges.create(params, { idempotencyKey: 'charge-once-1' });
    const second = await stripe.charges.create(params, { idempotencyKey: 'charge-once-1' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    const charges = await stripe.charges.list({ limit: 100 });
    expect(charges.data.filter((c) => c.id === first.id)).toHaveLength(1);
  });

  it('refuses the same key with a different body', async () => {
    await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'customer-key-1' });
    const error = await stripeError(
      stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'customer-key-1' }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
  });

  it('replays a decline too, with the same failed charge', async () => {
    const params = { amount: 700, currency: 'usd', source: 'tok_chargeDeclined' };
    const first = await stripeError(stripe.charges.create(params, { idempotencyKey: 'declined-once' }));
    const second = await stripeError(stripe.charges.create(params, { idempotencyKey: 'declined-once' }));
    expect((second.raw as any).charge).toBe((first.raw as any).charge);
  });
});

// ------------------------------------------------------------------ issuing cards

describe('Issuing cardholders and cards', () => {
  it('issues a virtual Visa whose number and CVC never appear in the API', async () => {
    const { cardholder, card, details } = await issuedCard({
      spending_limits: [{ amount: 2500, interval: 'all_time' }],
      allowed_categories: ['book_stores', 'educational_services'],
    });
    expect(card).toMatchObject({ brand: 'Visa', type: 'virtual', status: 'active', currency: 'usd' });
    expect(card.cardholder.id).toBe(cardholder.id);
    expect(card.spending_controls.spending_limits).toEqual([
      { amount: 2500, interval: 'all_time', categories: null },
    ]);
    expect(card.spending_controls.allowed_categories).toEqual(['book_stores', 'educational_services']);
    expect(details.number).toMatch(/^40000099\d{8}$/);
    expect(details.number.slice(-4)).toBe(card.last4);
    expect(details.exp_year).toBe(new Date().getUTCFullYear() + 3);
    const fetched = await stripe.issuing.cards.retrieve(card.id);
    const text = JSON.stringify(fetched);
    expect(text).not.toContain(details.number);
    expect(fetched).not.toHaveProperty('number');
    expect(fetched).not.toHaveProperty('cvc');
  });

  it('freezes and unfreezes; a canceled card stays canceled', async () => {
    const { card } = await issuedCard();
    expect((await stripe.issuing.cards.update(card.id, { status: 'inactive' })).status).toBe('inactive');
    expect((await stripe.issuing.cards.update(card.id, { status: 'active' })).status).toBe('active');
    const raised = await stripe.issuing.cards.update(card.id, {
      spending_controls: { spending_limits: [{ amount: 5000, interval: 'all_time' }] },
      metadata: { employee: 'u1' },
    });
    expect(raised.spending_controls.spending_limits?.[0]?.amount).toBe(5000);
    expect(raised.metadata).toEqual({ employee: 'u1' });
    await stripe.issuing.cards.update(card.id, { status: 'canceled' });
    const error = await stripeError(stripe.issuing.cards.update(card.id, { status: 'active' }));
    expect(error.statusCode).toBe(400);
    expect((await stripe.issuing.cards.retrieve(card.id)).status).toBe('canceled');
  });

  it('new cards are inactive unless asked otherwise, as on Stripe', async () => {
    const { cardholder } = await issuedCard();
    const card = await stripe.issuing.cards.create({
      cardholder: cardholder.id,
      currency: 'usd',
      type: 'virtual',
    });
    expect(card.status).toBe('inactive');
  });
});

// ------------------------------------------------------------------ the card network

describe('the checkout page and real-time authorizations', () => {
  it('serves an accessible checkout page with no external resources', async () => {
    const res = await fetch(`${emulator.url}/checkout`);
    const html = await res.text();
    expect(res.status).toBe(200);
    for (const id of ['number', 'exp', 'cvc', 'merchant_name', 'category', 'amount']) {
      expect(html).toContain(`<label for="${id}"`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('value="book_stores"');
    expect(html).toContain('value="fast_food_restaurants"');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('approval: request, created, then the capture (transaction created, authorization closed), in order', async () => {
    const { card, details } = await issuedCard();
    receiver.answer = () => approve({ ledger_entry: 'le_1' });
    const paid = await pay(details, '12.34');
    expect(paid.status).toBe(200);
    expect(paid.html).toContain('Approved');
    await emulator.admin.idle();
    expect(receiver.types()).toEqual([
      'issuing_authorization.request',
      'issuing_authorization.created',
      'issuing_transaction.created',
      'issuing_authorization.updated',
    ]);
    const [request, created, transaction, updated] = receiver.network();
    expect(request?.object).toMatchObject({
      id: paid.authorizationId,
      status: 'pending',
      approved: false,
      amount: 0,
      pending_request: { amount: 1234, currency: 'usd' },
      merchant_data: { name: 'Example Books', category: 'book_stores', category_code: '5942' },
      card: { id: card.id },
    });
    expect(created?.object).toMatchObject({
      approved: true,
      amount: 1234,
      status: 'pending',
      pending_request: null,
      metadata: { ledger_entry: 'le_1' },
      request_history: [{ approved: true, reason: 'webhook_approved', amount: 1234 }],
    });
    expect(transaction?.object).toMatchObject({
      type: 'capture',
      amount: -1234,
      authorization: paid.authorizationId,
      card: card.id,
    });
    expect(updated?.object).toMatchObject({
      status: 'closed',
      transactions: [{ id: transaction?.object.id }],
    });
    const auth = await stripe.issuing.authorizations.retrieve(paid.authorizationId as string);
    expect(auth.status).toBe('closed');
    const tx = await stripe.issuing.transactions.retrieve(transaction?.object.id);
    expect(tx.amount).toBe(-1234);
  });

  it('a decline by the product: no capture follows, and the reason is shown', async () => {
    const { details } = await issuedCard();
    receiver.answer = () => decline({ decline_reason: '$41.20 is above your $12.40 balance' });
    const paid = await pay(details, '41.20');
    expect(paid.html).toContain('Declined');
    expect(paid.html).toContain('$41.20 is above your $12.40 balance');
    await emulator.admin.idle();
    expect(receiver.types()).toEqual(['issuing_authorization.request', 'issuing_authorization.created']);
    const auth = await stripe.issuing.authorizations.retrieve(paid.authorizationId as string);
    expect(auth).toMatchObject({ approved: false, status: 'closed', amount: 0 });
    expect(auth.request_history[0]?.reason).toBe('webhook_declined');
  });

  it('no answer within 2 seconds declines with webhook_timeout', async () => {
    const { details } = await issuedCard();
    // The approval is held back until the payment has its result: had the network waited for
    // it, the payment would never finish (and the test would time out).
    let release = () => {};
    const holdUntil = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = () => {};
    const lateAnswerSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    receiver.answer = () => ({ ...approve(), holdUntil, sent });
    const paid = await pay(details, '5.00');
    expect(paid.html).toContain('Declined');
    const auth = await stripe.issuing.authorizations.retrieve(paid.authorizationId as string);
    expect(auth.request_history[0]?.reason).toBe('webhook_timeout');
    // Now the approval arrives, late: it changes nothing.
    release();
    await lateAnswerSent;
    await emulator.admin.idle();
    expect(receiver.types()).not.toContain('issuing_transaction.created');
  });

  it.each([
    ['a 500', { status: 500, body: '{}' }],
    ['no Stripe-Version header', { headers: { 'stripe-version': '' }, body: '{"approved":true}' }],
    ['a body without "approved"', { body: '{"ok":true}' }],
  ])('an answer with %s declines with webhook_error', async (_what, answer) => {
    const { details } = await issuedCard();
    receiver.answer = () => answer as Answer;
    const paid = await pay(details, '5.00');
    const auth = await stripe.issuing.authorizations.retrieve(paid.authorizationId as string);
    expect(auth.approved).toBe(false);
    expect(auth.request_history[0]?.reason).toBe('webhook_error');
  });

  it("Stripe's spending controls decline without asking the product", async () => {
    const { details, card } = await issuedCard({
      allowed_categories: ['book_stores', 'educational_services'],
      spending_limits: [{ amount: 2000, interval: 'all_time' }],
    });
    const wrongCategory = await pay(details, '3.00', 'fast_food_restaurants');
    expect(wrongCategory.html).toContain('Declined');
    const overLimit = await pay(details, '20.01');
    expect(overLimit.html).toContain('Declined');
    await emulator.admin.idle();
    expect(receiver.types()).not.toContain('issuing_authorization.request');
    for (const id of [wrongCategory.authorizationId, overLimit.authorizationId]) {
      const auth = await stripe.issuing.authorizations.retrieve(id as string);
      expect(auth.request_history[0]?.reason).toBe('spending_controls');
    }
    // Within the limit the product is asked; approved amounts count toward the all-time limit.
    const ok = await pay(details, '15.00');
    expect(ok.html).toContain('Approved');
    await emulator.admin.idle();
    const rest = await pay(details, '5.01');
    expect(rest.html).toContain('Declined');
    const fits = await pay(details, '5.00');
    expect(fits.html).toContain('Approved');
    await emulator.admin.idle();
    const list = await stripe.issuing.authorizations.list({ card: card.id, limit: 10 });
    expect(list.data).toHaveLength(5);
  });

  it('wrong CVC or expiry declines (verification_failed); an unknown number reaches no card', async () => {
    const { details } = await issuedCard();
    const wrongCvc = await pay(details, '5.00', 'book_stores', {
      cvc: details.cvc === '999' ? '998' : '999',
    });
    expect(wrongCvc.html).toContain('Declined');
    const auth = await stripe.issuing.authorizations.retrieve(wrongCvc.authorizationId as string);
    expect(auth.request_history[0]?.reason).toBe('verification_failed');
    expect(auth.verification_data.cvc_check).toBe('mismatch');
    const wrongExpiry = await pay({ ...details, exp_year: details.exp_year + 1 }, '5.00');
    expect(wrongExpiry.html).toContain('Declined');
    const unknown = await pay({ ...details, number: '4000009900000002' }, '5.00');
    expect(unknown.html).toContain('does not match any card');
    expect(unknown.authorizationId).toBeUndefined();
    await emulator.admin.idle();
    expect(receiver.types()).toEqual(['issuing_authorization.created', 'issuing_authorization.created']);
  });

  it('a frozen or canceled card declines (card_inactive, card_canceled)', async () => {
    const { details, card } = await issuedCard(undefined, 'inactive');
    const frozen = await pay(details, '5.00');
    expect(
      (await stripe.issuing.authorizations.retrieve(frozen.authorizationId as string)).request_history[0]
        ?.reason,
    ).toBe('card_inactive');
    await stripe.issuing.cards.update(card.id, { status: 'canceled' });
    const canceled = await pay(details, '5.00');
    expect(
      (await stripe.issuing.authorizations.retrieve(canceled.authorizationId as string)).request_history[0]
        ?.reason,
    ).toBe('card_canceled');
  });

  it('checks the form and keeps what was typed', async () => {
    const { details } = await issuedCard();
    const bad = await pay(details, '12.345');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Enter an amount in dollars');
    expect(bad.html).toContain('value="Example Books"');
  });
});

// ------------------------------------------------------------------ card-details frame

describe('ephemeral keys and the card-details frame', () => {
  it('shows the number only with a valid, unexpired key for that card', async () => {
    const { card, details, cardholder } = await issuedCard();
    const other = await issuedCard();
    const key = await stripe.ephemeralKeys.create(
      { issuing_card: card.id },
      { apiVersion: Stripe.API_VERSION },
    );
    expect(key.expires - key.created).toBe(15 * 60);
    const frame = (cardId: string, secret: string) =>
      fetch(
        `${emulator.url}/issuing-elements/card?card=${cardId}&ephemeral_key=${encodeURIComponent(secret)}`,
      );

    const ok = await frame(card.id, key.secret as string);
    const html = await ok.text();
    expect(ok.status).toBe(200);
    const grouped = details.number.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(html).toContain(grouped);
    expect(html).toContain(`${String(details.exp_month).padStart(2, '0')}/${String(details.exp_year % 100)}`);
    expect(html).toContain(details.cvc);
    // As Stripe's elements: number, expiry and CVC with copy buttons; the name and address are the product's to show.
    expect(html).not.toContain(cardholder.name);
    expect(html).toContain('data-copy="number"');
    expect(ok.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(ok.headers.get('x-frame-options')).toBeNull();
    expect(ok.headers.get('content-security-policy')).toContain('frame-ancestors');
    expect(ok.headers.get('content-security-policy')).toContain('http://127.0.0.1:*');
    // Every source is one CSP's grammar has (scheme://host[:port|:*], no IPv6 literal): Chrome logs
    // any other as invalid in the console of every page that frames the card.
    const ancestors = (ok.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([name]) => name === 'frame-ancestors')
      ?.slice(1);
    expect(ancestors?.length).toBeGreaterThan(0);
    for (const source of ancestors ?? [])
      expect(source).toMatch(/^('self'|'none'|https?:\/\/(\*\.)?[a-z0-9.-]+(:(\d+|\*))?)$/);
    expect(html).not.toMatch(/(src|href)="https?:/);

    for (const res of [
      await frame(other.card.id, key.secret as string),
      await frame(card.id, 'ek_test_wrong'),
      await frame(card.id, ''),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain(grouped);
    }
    clockOffsetMs = 16 * 60 * 1000;
    const expired = await frame(card.id, key.secret as string);
    expect(expired.status).toBe(403);
  });

  it('needs a Stripe-Version header to make a key', async () => {
    const { card } = await issuedCard();
    const res = await fetch(`${emulator.url}/v1/ephemeral_keys`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/x-www-form-urlencoded' },
      body: `issuing_card=${card.id}`,
    });
    expect(res.status).toBe(400);
  });
});

// ------------------------------------------------------------------ admin: the merchant's side

describe('network controls (/_emulator/ and admin) on authorizations left pending', () => {
  beforeAll(async () => {
    // The merchant side acts by hand here: no automatic capture.
    const res = await adminPost('auto_capture', { delay_ms: false });
    expect(res.body).toEqual({ delay_ms: false });
  });
  afterAll(() => emulator.admin.setAutoCapture(50));

  it('reverses partially then fully, each with issuing_authorization.updated', async () => {
    const { details } = await issuedCard();
    const outcome = await emulator.admin.authorize({
      number: details.number,
      expMonth: details.exp_month,
      expYear: details.exp_year,
      cvc: details.cvc,
      amount: 3000,
      merchant: { name: 'Course Co', category: 'educational_services' },
    });
    const id = outcome.authorization?.id as string;
    const partial = await adminPost(`authorizations/${id}/reverse`, { amount: 1000 });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ amount: 2000, status: 'pending' });
    const full = await adminPost(`authorizations/${id}/reverse`, {});
    expect(full.body).toMatchObject({ amount: 0, status: 'reversed' });
    await emulator.admin.idle();
    const updates = receiver.received.filter((r) => r.type === 'issuing_authorization.updated');
    expect(updates.map((u) => [u.object.amount, u.previous.amount])).toEqual([
      [2000, 3000],
      [0, 2000],
    ]);
    expect(receiver.types()).not.toContain('issuing_transaction.created');
  });

  it('captures less or more than authorized, forces a capture, refunds, and expires', async () => {
    const { details, card } = await issuedCard();
    const pending = async (amount: number) => {
      const outcome = await emulator.admin.authorize({
        number: details.number,
        expMonth: details.exp_month,
        expYear: details.exp_year,
        cvc: details.cvc,
        amount,
        merchant: { name: 'Book Barn', category: 'book_stores' },
      });
      return outcome.authorization?.id as string;
    };
    const under = await pending(2000);
    const partial = await adminPost(`authorizations/${under}/capture`, { amount: 1500 });
    expect(partial.body).toMatchObject({ type: 'capture', amount: -1500, authorization: under });
    const over = await pending(2000);
    const more = await adminPost(`authorizations/${over}/capture`, { amount: 2300 });
    expect(more.body.amount).toBe(-2300);
    const forced = await adminPost('force_capture', {
      card: card.id,
      amount: 999,
      merchant_name: 'Surprise',
    });
    expect(forced.body).toMatchObject({ type: 'capture', amount: -999, authorization: null, card: card.id });
    const refund = await adminPost(`transactions/${partial.body.id}/refund`, { amount: 500 });
    expect(refund.body).toMatchObject({ type: 'refund', amount: 500, authorization: under });
    const tooMuch = await adminPost(`transactions/${partial.body.id}/refund`, { amount: 1001 });
    expect(tooMuch.status).toBe(400);
    const toExpire = await pending(700);
    const expired = await adminPost(`authorizations/${toExpire}/expire`);
    expect(expired.body.status).toBe('expired');
    await emulator.admin.idle();
    const txEvents = receiver.received
      .filter((r) => r.type === 'issuing_transaction.created')
      .map((r) => r.object.amount);
    expect(txEvents).toEqual([-1500, -2300, -999, 500]);
  });

  it('expires an approval left uncaptured for 7 days of its clock, as Stripe does, and it can still be captured', async () => {
    const { details } = await issuedCard();
    const authorize = (amount: number) =>
      emulator.admin.authorize({
        number: details.number,
        expMonth: details.exp_month,
        expYear: details.exp_year,
        cvc: details.cvc,
        amount,
        merchant: { name: 'Udemy', category: 'digital_goods_media' },
      });
    const left = (await authorize(250)).authorization?.id as string;
    const reversed = (await authorize(300)).authorization?.id as string;
    await adminPost(`authorizations/${reversed}/reverse`);
    await emulator.admin.idle();
    receiver.received = [];

    clockOffsetMs = 7 * 24 * 60 * 60 * 1000 - 2000;
    const early = await adminPost('expire_due');
    expect(early.status).toBe(200);
    expect(early.body.data.map((a: { id: string }) => a.id)).not.toContain(left);
    clockOffsetMs = 7 * 24 * 60 * 60 * 1000;
    const due = await adminPost('expire_due');
    const ids = due.body.data.map((a: { id: string }) => a.id);
    expect(ids).toContain(left);
    expect(ids).not.toContain(reversed);
    const mine = receiver.received.filter(
      (r) => r.type === 'issuing_authorization.updated' && r.object.id === left,
    );
    expect(mine.map((r) => [r.object.status, r.object.amount, r.previous.status])).toEqual([
      ['expired', 250, 'pending'],
    ]);
    expect((await stripe.issuing.authorizations.retrieve(left)).status).toBe('expired');
    // Expired once: the next run finds nothing of it.
    expect((await adminPost('expire_due')).body.data).toEqual([]);
    // Stripe: an authorization it expired may still be captured later.
    const late = await adminPost(`authorizations/${left}/capture`);
    expect(late.body).toMatchObject({ type: 'capture', amount: -250, authorization: left });
    expect((await stripe.issuing.authorizations.retrieve(left)).status).toBe('closed');
  });

  it('the result page offers the controls and they act', async () => {
    const { details } = await issuedCard();
    const outcome = await emulator.admin.authorize({
      number: details.number,
      expMonth: details.exp_month,
      expYear: details.exp_year,
      cvc: details.cvc,
      amount: 1000,
      merchant: { name: 'Book Barn', category: 'book_stores' },
    });
    const id = outcome.authorization?.id as string;
    const page = await (await fetch(`${emulator.url}/checkout/authorizations/${id}`)).text();
    expect(page).toContain(`/_emulator/authorizations/${id}/reverse`);
    const res = await fetch(`${emulator.url}/_emulator/authorizations/${id}/reverse`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `amount_dollars=4.00&return_to=${encodeURIComponent(`/checkout/authorizations/${id}`)}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect((await stripe.issuing.authorizations.retrieve(id)).amount).toBe(600);
  });

  it("Stripe's own Issuing test helpers work through the SDK", async () => {
    const { details, card } = await issuedCard();
    const outcome = await emulator.admin.authorize({
      number: details.number,
      expMonth: details.exp_month,
      expYear: details.exp_year,
      cvc: details.cvc,
      amount: 1000,
      merchant: { name: 'Book Barn', category: 'book_stores' },
    });
    const id = outcome.authorization?.id as string;
    const captured = await stripe.testHelpers.issuing.authorizations.capture(id, { capture_amount: 900 });
    expect(captured.status).toBe('closed');
    const forced = await stripe.testHelpers.issuing.transactions.createForceCapture({
      card: card.id,
      amount: 300,
      currency: 'usd',
    });
    const refunded = await stripe.testHelpers.issuing.transactions.refund(forced.id, { refund_amount: 100 });
    expect(refunded).toMatchObject({ type: 'refund', amount: 100 });
  });
});

// ------------------------------------------------------------------ replaying webhooks

describe('replaying webhooks: duplicates and out-of-order delivery', () => {
  it('duplicate delivery: the same event, same id, arrives twice', async () => {
    const { card } = await issuedCard();
    const tx = emulator.admin.forceCapture({ card: card.id, amount: 1200 });
    await emulator.admin.idle();
    const event = emulator.admin
      .events('issuing_transaction.created')
      .find((e) => (e.data.object as any).id === tx.id);
    const again = await adminPost(`events/${event?.id}/redeliver`);
    expect(again.body).toMatchObject({ outcome: 'delivered', status: 200 });
    const copies = receiver.received.filter((r) => r.id === event?.id);
    expect(copies).toHaveLength(2);
    expect(copies[0]?.object).toEqual(copies[1]?.object);
  });

  it('out-of-order delivery: events sent in the order asked', async () => {
    const { details } = await issuedCard();
    await pay(details, '8.00');
    await emulator.admin.idle();
    const ids = receiver.network().map((r) => r.id);
    receiver.received = [];
    const reversed = [...ids].reverse();
    const delivered = await adminPost('events/deliver', { ids: reversed });
    expect(delivered.body.data).toHaveLength(4);
    expect(receiver.received.map((r) => r.id)).toEqual(reversed);
  });

  it('lists every event sent, with its deliveries, and events through the API newest first', async () => {
    const { card } = await issuedCard();
    emulator.admin.forceCapture({ card: card.id, amount: 100 });
    await emulator.admin.idle();
    const res = await fetch(`${emulator.url}/_emulator/events?type=issuing_transaction.created`);
    const { data } = (await res.json()) as { data: any[] };
    expect(data.at(-1).deliveries[0]).toMatchObject({ outcome: 'delivered', status: 200 });
    const listed = await stripe.events.list({ type: 'issuing_transaction.created', limit: 2 });
    expect(listed.data[0]?.created).toBeGreaterThanOrEqual(listed.data[1]?.created ?? 0);
    expect(listed.data[0]?.id).toBe(data.at(-1).id);
    expect((await stripe.events.retrieve(data.at(-1).id)).type).toBe('issuing_transaction.created');
  });
});

// ------------------------------------------------------------------ persistence

describe('persistence to a data file', () => {
  it('attack 13: delivers after a restart the events a stop left undelivered, as Stripe retries for days', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-emulator-'));
    const dataFile = join(dir, 'stripe.json');
    try {
      const options = {
        log: () => undefined,
        webhookSecret: WEBHOOK_SECRET,
        dataFile,
        webhookRetryDelaysMs: [],
      };
      // The product is down: nothing listens at the webhook address.
      const down = `http://127.0.0.1:${await freePort()}/stripe/webhook`;
      const first = await startStripeEmulator({ ...options, port: await freePort(), webhookUrl: down });
      const customer = await sdk('sk_test_persist', first.port).customers.create({
        email: 'late@example.com',
      });
      await first.admin.idle();
      await first.stop();

      receiver.received = [];
      const second = await startStripeEmulator({
        ...options,
        port: await freePort(),
        webhookUrl: receiver.url,
      });
      try {
        await second.admin.idle();
      } finally {
        await second.stop();
      }
      const delivered = receiver.received.filter((r) => r.type === 'customer.created');
      expect(delivered.map((r) => r.object.id)).toEqual([customer.id]);

      // Delivered once: a third start sends nothing again.
      receiver.received = [];
      const third = await startStripeEmulator({
        ...options,
        port: await freePort(),
        webhookUrl: receiver.url,
      });
      try {
        await third.admin.idle();
      } finally {
        await third.stop();
      }
      expect(receiver.received.filter((r) => r.type === 'customer.created')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps customers, cards and issued card numbers across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-emulator-'));
    const dataFile = join(dir, 'stripe.json');
    try {
      const options = { log: () => undefined, webhookSecret: WEBHOOK_SECRET, dataFile };
      const first = await startStripeEmulator({ ...options, port: await freePort() });
      const client = sdk('sk_test_persist', first.port);
      const customer = await client.customers.create({ email: 'kept@example.com', source: 'tok_visa' });
      const cardholder = await client.issuing.cardholders.create({
        type: 'individual',
        name: 'Kept',
        billing: { address: { line1: '1 Main St', city: 'Arlington', postal_code: '22201', country: 'US' } },
      });
      const card = await client.issuing.cards.create({
        cardholder: cardholder.id,
        currency: 'usd',
        type: 'virtual',
      });
      const details = first.admin.cardDetails(card.id);
      await first.stop();

      const second = await startStripeEmulator({ ...options, port: await freePort() });
      try {
        const again = sdk('sk_test_persist', second.port);
        const kept = (await again.customers.retrieve(customer.id)) as Stripe.Customer;
        expect(kept.email).toBe('kept@example.com');
        expect(kept.sources?.data).toHaveLength(1);
        expect((await again.issuing.cards.retrieve(card.id)).last4).toBe(card.last4);
        expect(second.admin.cardDetails(card.id)).toEqual(details);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
