/**
 * The emulator's own controls, for tests and for the checkout result page:
 * play the merchant's side of the network (capture, reverse, expire, force
 * capture, refund), replay webhooks (duplicates, out of order), inspect what
 * was sent, reset. The same operations are functions on the handle (`admin`)
 * and HTTP endpoints under /_emulator/ (JSON or form bodies; amounts in cents
 * as `amount`, or in dollars as `amount_dollars` from the HTML forms).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { normalizePan, parseExpiry } from './cardNumbers';
import type { EmulatorContext } from './context';
import { invalidRequest, noSuch, StripeApiError } from './errors';
import { parseForm } from './form';
import { parseDollars } from './money';
import type { AuthorizeInput, AuthorizeOutcome, CardNetwork, MerchantInput } from './network';
import { messagePage } from './pages';
import { getIssuingCard } from './resources/issuing';
import type { DeliveryRecord, EventRecord } from './store';
import type { WebhookTarget } from './webhooks';

export interface EmulatorAdmin {
  /** Pays with a card number as a merchant would (same flow as the checkout page). */
  authorize(input: AuthorizeInput): Promise<AuthorizeOutcome>;
  /** Captures an approved authorization: all of it by default, or `amount` cents (less or more). */
  capture(authorizationId: string, amount?: number): Stripe.Issuing.Transaction;
  /** Reverses all of an authorization's hold, or `amount` cents of it. */
  reverse(authorizationId: string, amount?: number): Stripe.Issuing.Authorization;
  /** Expires an uncaptured authorization (status `expired`, hold released). */
  expire(authorizationId: string): Stripe.Issuing.Authorization;
  /**
   * Expires every approval left uncaptured for 7 days of the emulator's clock,
   * as Stripe does on its own, and waits until the webhooks are answered.
   * Time travel calls it as the clock moves; the emulator also runs it once a minute.
   */
  expireDue(): Promise<Stripe.Issuing.Authorization[]>;
  /** A capture with no authorization before it. */
  forceCapture(input: {
    card: string;
    amount: number;
    merchant?: Partial<MerchantInput>;
  }): Stripe.Issuing.Transaction;
  /** Refunds all of a capture, or `amount` cents of it. */
  refund(transactionId: string, amount?: number): Stripe.Issuing.Transaction;
  /** Sends an event again, now, exactly as before (a duplicate delivery). */
  redeliver(eventId: string): Promise<DeliveryRecord>;
  /** Sends these events now, one after another, in this order (e.g. out of order). */
  deliver(eventIds: readonly string[]): Promise<DeliveryRecord[]>;
  /** Every event made, oldest first; optionally one type only. */
  events(type?: string): EventRecord[];
  /** Every webhook attempt, oldest first. */
  deliveries(): DeliveryRecord[];
  /** The number, expiry and CVC of an issued card (what the card-details frame shows). */
  cardDetails(cardId: string): { number: string; exp_month: number; exp_year: number; cvc: string };
  /** Capture approved authorizations after `delayMs` from now on, or leave them pending (false). */
  setAutoCapture(delayMs: number | false): void;
  /** Waits until pending auto-captures are done and queued webhooks are sent. */
  idle(): Promise<void>;
  /** Forgets everything (and empties the data file). */
  reset(): void;
}

export function createAdmin(
  ctx: EmulatorContext,
  network: CardNetwork,
  setWebhook: (target: WebhookTarget | undefined) => void,
): EmulatorAdmin & { setWebhook: typeof setWebhook } {
  const findEvent = (id: string): EventRecord => {
    const event = ctx.state.events.find((e) => e.id === id);
    if (!event) throw noSuch('event', id);
    return event;
  };
  const admin: EmulatorAdmin & { setWebhook: typeof setWebhook } = {
    authorize: (input) => network.authorize(input),
    capture: (id, amount) => network.capture(id, amount),
    reverse: (id, amount) => network.reverse(id, amount),
    expire: (id) => network.expire(id),
    async expireDue() {
      const expired = network.expireDue();
      if (expired.length > 0) await admin.idle();
      return expired;
    },
    forceCapture: (input) =>
      network.forceCapture({
        card: input.card,
        amount: input.amount,
        merchant: { name: 'Emulator Test Merchant', category: 'book_stores', ...input.merchant },
      }),
    refund: (id, amount) => network.refund(id, amount),
    setAutoCapture: (delayMs) => network.setAutoCapture(delayMs),
    async redeliver(eventId) {
      return (await ctx.webhooks.send(findEvent(eventId))).record;
    },
    async deliver(eventIds) {
      const events = eventIds.map(findEvent); // all known before anything is sent
      const records: DeliveryRecord[] = [];
      for (const event of events) records.push((await ctx.webhooks.send(event)).record);
      return records;
    },
    events: (type) => ctx.state.events.filter((e) => !type || e.type === type),
    deliveries: () => [...ctx.state.deliveries],
    cardDetails(cardId) {
      const card = getIssuingCard(ctx, cardId);
      const secret = ctx.state.issuingSecrets[cardId] as { number: string; cvc: string };
      return { number: secret.number, exp_month: card.exp_month, exp_year: card.exp_year, cvc: secret.cvc };
    },
    async idle() {
      // A capture queues events, and a delivery may be followed by a capture: settle both.
      do {
        await network.idle();
        await ctx.webhooks.idle();
      } while (network.busy() || ctx.webhooks.busy());
    },
    reset() {
      ctx.store.reset();
      ctx.log('state reset');
    },
    setWebhook,
  };
  return admin;
}

type Body = Record<string, unknown>;

async function readBody(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      return parsed as Body;
    } catch {
      throw invalidRequest('The body is not a JSON object.');
    }
  }
  return parseForm(text);
}

function str(body: Body, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number')
    throw invalidRequest(`${key} must be a string`, key);
  return String(value);
}

/** `amount` in cents, or `amount_dollars` as typed on the HTML page; neither means "all". */
function amountOf(body: Body, required = false): number | undefined {
  const dollars = str(body, 'amount_dollars');
  if (dollars !== undefined) {
    const cents = parseDollars(dollars);
    if (cents === undefined) throw invalidRequest(`Invalid amount: ${dollars}`, 'amount_dollars');
    return cents;
  }
  const raw = str(body, 'amount');
  if (raw === undefined) {
    if (required) throw invalidRequest('Missing required param: amount.', 'amount');
    return undefined;
  }
  if (!/^\d+$/.test(raw))
    throw invalidRequest(`Invalid integer: ${raw} (amounts are integer cents)`, 'amount');
  return Number(raw);
}

function merchantOf(body: Body): MerchantInput {
  return {
    name: str(body, 'merchant_name') ?? 'Emulator Test Merchant',
    category: str(body, 'category') ?? 'book_stores',
    city: str(body, 'merchant_city'),
    country: str(body, 'merchant_country'),
  };
}

/** Reads card details for /_emulator/authorize: `exp` as MM/YY, or `exp_month` and `exp_year`. */
export function authorizeInputOf(body: Body): AuthorizeInput {
  const number = normalizePan(str(body, 'number') ?? '');
  const exp = str(body, 'exp');
  const parsed = exp ? parseExpiry(exp) : undefined;
  if (exp && !parsed) throw invalidRequest('exp must be MM/YY', 'exp');
  const expMonth = parsed?.month ?? Number(str(body, 'exp_month'));
  const expYearRaw = parsed?.year ?? Number(str(body, 'exp_year'));
  return {
    number,
    expMonth,
    expYear: expYearRaw < 100 ? 2000 + expYearRaw : expYearRaw,
    cvc: str(body, 'cvc') ?? '',
    amount: amountOf(body, true) as number,
    merchant: merchantOf(body),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body, null, 2));
}

/** Only paths on this server, so a form cannot redirect elsewhere. */
function safeReturn(path: string | undefined): string | undefined {
  return path && /^\/checkout(\/[\w-]*)*$/.test(path) ? path : undefined;
}

/** Serves /_emulator/*; answers false when the path is not one of them. */
export async function handleAdmin(
  admin: ReturnType<typeof createAdmin>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  const parts = url.pathname.split('/').filter(Boolean).slice(1); // drop "_emulator"
  const [a, b, c] = parts;
  let returnTo: string | undefined;
  try {
    const body = method === 'POST' ? await readBody(req) : {};
    returnTo = safeReturn(str(body, 'return_to'));
    let result: unknown;
    if (method === 'GET' && a === 'events' && !b) {
      const type = url.searchParams.get('type') ?? undefined;
      const deliveries = admin.deliveries();
      result = {
        data: admin
          .events(type)
          .map((e) => ({ ...e, deliveries: deliveries.filter((d) => d.event === e.id) })),
      };
    } else if (method === 'GET' && a === 'deliveries' && !b) result = { data: admin.deliveries() };
    else if (method === 'GET' && a === 'issuing' && b === 'cards' && c && parts[3] === 'details') {
      result = admin.cardDetails(c);
    } else if (method !== 'POST') return false;
    else if (a === 'authorize' && !b) result = await admin.authorize(authorizeInputOf(body));
    else if (a === 'authorizations' && b && c === 'capture') result = admin.capture(b, amountOf(body));
    else if (a === 'authorizations' && b && c === 'reverse') result = admin.reverse(b, amountOf(body));
    else if (a === 'authorizations' && b && c === 'expire') result = admin.expire(b);
    else if (a === 'expire_due' && !b) result = { data: await admin.expireDue() };
    else if (a === 'force_capture' && !b) {
      result = admin.forceCapture({
        card: str(body, 'card') ?? '',
        amount: amountOf(body, true) as number,
        merchant: merchantOf(body),
      });
    } else if (a === 'transactions' && b && c === 'refund') result = admin.refund(b, amountOf(body));
    else if (a === 'events' && b && c === 'redeliver') result = await admin.redeliver(b);
    else if (a === 'events' && b === 'deliver' && !c) {
      const ids = body.ids;
      const list = Array.isArray(ids) ? ids : ids && typeof ids === 'object' ? Object.values(ids) : undefined;
      if (!list?.every((id) => typeof id === 'string'))
        throw invalidRequest('ids must be a list of event ids', 'ids');
      result = { data: await admin.deliver(list as string[]) };
    } else if (a === 'webhook' && !b) {
      const target = str(body, 'url');
      admin.setWebhook(target ? { url: target, secret: str(body, 'secret') ?? '' } : undefined);
      result = { url: target ?? null };
    } else if (a === 'auto_capture' && !b) {
      const delay = body.delay_ms;
      const off = delay === false || delay === 'false' || delay === undefined;
      if (!off && !/^\d+$/.test(String(delay)))
        throw invalidRequest('delay_ms must be a number of ms or false', 'delay_ms');
      admin.setAutoCapture(off ? false : Number(delay));
      result = { delay_ms: off ? false : Number(delay) };
    } else if (a === 'idle' && !b) {
      await admin.idle();
      result = { idle: true };
    } else if (a === 'reset' && !b) {
      admin.reset();
      result = { reset: true };
    } else return false;
    if (returnTo) {
      // An HTML form on the result page: back to it, showing the new state.
      await admin.idle();
      res.writeHead(303, { location: returnTo });
      res.end();
    } else sendJson(res, 200, result);
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    if (returnTo) {
      res.writeHead(error.status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(messagePage('Not done', error.message, returnTo));
    } else sendJson(res, error.status, { error: error.body });
  }
  return true;
}
