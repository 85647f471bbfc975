/**
 * Stripe events built from Stripe's own example objects (fixtures3.json) and
 * signed exactly as Stripe signs them, for tests that play Stripe.
 */
import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { CLIENT_IP_HEADER, newClientIp, TEST_WEBHOOK_SECRET } from './integrationStack';

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/stripe/fixtures3.json', import.meta.url), 'utf8'),
).resources as Record<string, any>;

const stripe = new Stripe('sk_test_unused');
let counter = 0;
const nextId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(counter++).toString(36).padStart(4, '0')}`;

export function authorizationObject(args: {
  id?: string;
  cardId: string;
  userId?: string;
  amountCents: number;
  merchant?: string;
  category?: string;
  status?: 'pending' | 'closed' | 'reversed';
  captures?: { id: string; amountCents: number }[];
  /**
   * What a pending request asks for, when not the whole amount: an incremental
   * authorization asks for the extra cents, `amountCents` being what is authorized so far.
   */
  pendingCents?: number;
  /** Earlier requests, as Stripe lists them in `request_history` (increments come after the first). */
  history?: { amountCents: number; approved?: boolean }[];
}) {
  const base = structuredClone(fixtures['issuing.authorization']);
  const pendingCents = args.pendingCents ?? args.amountCents;
  return {
    ...base,
    id: args.id ?? nextId('iauth'),
    amount: args.status && args.status !== 'pending' ? 0 : args.amountCents,
    status: args.status ?? 'pending',
    card: { ...base.card, id: args.cardId, metadata: args.userId ? { userId: args.userId } : {} },
    merchant_data: {
      ...base.merchant_data,
      name: args.merchant ?? 'Powell’s Books',
      category: args.category ?? 'book_stores',
    },
    pending_request:
      args.status && args.status !== 'pending'
        ? null
        : { ...base.pending_request, amount: pendingCents, merchant_amount: pendingCents },
    request_history: (args.history ?? []).map((r, i) => ({
      amount: r.amountCents,
      amount_details: { atm_fee: null, cashback_amount: null },
      approved: r.approved ?? true,
      authorization_code: r.approved === false ? null : `S${String(100000 + i)}`,
      created: Math.floor(Date.now() / 1000),
      currency: 'usd',
      merchant_amount: r.amountCents,
      merchant_currency: 'usd',
      network_risk_score: null,
      reason: r.approved === false ? 'webhook_declined' : 'webhook_approved',
      reason_message: null,
      requested_at: Math.floor(Date.now() / 1000),
    })),
    transactions: (args.captures ?? []).map((c) => ({
      ...structuredClone(fixtures['issuing.transaction']),
      id: c.id,
      amount: -c.amountCents,
      type: 'capture',
    })),
  };
}

export function transactionObject(args: {
  id?: string;
  cardId: string;
  authorizationId?: string | null;
  amountCents: number;
  type?: 'capture' | 'refund';
  merchant?: string;
}) {
  const base = structuredClone(fixtures['issuing.transaction']);
  const type = args.type ?? 'capture';
  return {
    ...base,
    id: args.id ?? nextId('ipi'),
    card: args.cardId,
    authorization: args.authorizationId ?? null,
    amount: type === 'capture' ? -args.amountCents : args.amountCents,
    type,
    created: Math.floor(Date.now() / 1000),
    merchant_data: {
      ...base.merchant_data,
      name: args.merchant ?? 'Powell’s Books',
      category: 'book_stores',
    },
  };
}

export function event(type: string, object: unknown, id = nextId('evt')) {
  return {
    ...structuredClone(fixtures.event),
    id,
    type,
    data: { object },
    created: Math.floor(Date.now() / 1000),
  };
}

export function sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
}

/** Delivers an event to the webhook as Stripe would: raw JSON body, signed. */
export async function deliver(apiUrl: string, evt: unknown, options: { signature?: string } = {}) {
  const payload = JSON.stringify(evt);
  const response = await fetch(`${apiUrl}/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [CLIENT_IP_HEADER]: newClientIp(),
      'stripe-signature': options.signature ?? sign(payload),
    },
    body: payload,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}
