/**
 * The card network and Stripe Issuing's authorization engine, as the product
 * meets them:
 *
 * 1. A merchant asks to authorize an amount on a card number, expiry and CVC.
 * 2. Stripe checks the details, the card's and cardholder's status and its own
 *    spending controls; a failure declines at once (no webhook asked).
 * 3. Otherwise `issuing_authorization.request` goes to the product, which has
 *    2 seconds to answer `{"approved": true|false}` (200, JSON, Stripe-Version
 *    header). No usable answer in time declines (Stripe's default).
 * 4. `issuing_authorization.created` follows with the final state.
 * 5. An approved authorization is captured shortly after (configurable):
 *    `issuing_transaction.created` (amount negative: money leaving the card)
 *    then `issuing_authorization.updated` (status closed).
 *
 * 6. An approval nobody captures expires 7 days after it was made, by the
 *    emulator's clock (`expireDue`): status `expired`, hold released,
 *    `issuing_authorization.updated`, as Stripe does. It can still be captured.
 *
 * Reversals, partial and over-captures, captures without an authorization,
 * refunds and expiry on demand are driven from the admin endpoints.
 */
import type Stripe from 'stripe';
import { isExpired } from './cardNumbers';
import { findCategory } from './categories';
import { type EmulatorContext, noRequest, type RequestMeta } from './context';
import { invalidRequest, noSuch } from './errors';
import { newId, randomDigits } from './ids';
import { getIssuingCard, renderIssuingCard } from './resources/issuing';
import { checkSpendingControls, type PastSpend, type SpendingControls } from './spendingControls';
import type { AuthorizationRecord } from './store';

export interface MerchantInput {
  name: string;
  /** Stripe's category name, e.g. `book_stores`. */
  category: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  url?: string;
}

export interface AuthorizeInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  /** Integer cents. */
  amount: number;
  merchant: MerchantInput;
}

export interface AuthorizeOutcome {
  approved: boolean;
  /** `request_history.reason` (e.g. webhook_approved, spending_controls), or `card_not_found`. */
  reason: string;
  /** The reason in plain words. */
  message: string;
  /** Absent only when the number matches no card (the network never reaches Stripe). */
  authorization?: Stripe.Issuing.Authorization;
}

export interface NetworkOptions {
  /** Capture approved authorizations after this delay; false leaves them pending. */
  autoCaptureDelayMs: number | false;
  /** How long the product has to answer the real-time request (Stripe: 2 s). */
  authorizationTimeoutMs: number;
}

/**
 * How long an uncaptured approval holds money before Stripe expires it. Stripe
 * says "usually up to 7 days for most merchant categories" (up to 31 for
 * lodging and the like); the emulator uses 7 for every category.
 */
export const AUTHORIZATION_VALIDITY_SECONDS = 7 * 24 * 60 * 60;

const reasonText: Record<string, string> = {
  card_not_found: 'The card number does not match any card the emulator issued.',
  verification_failed: 'The card details are incorrect (CVC or expiry date does not match).',
  card_inactive: 'The card is inactive (frozen).',
  card_canceled: 'The card is canceled.',
  card_expired: 'The card has expired.',
  cardholder_inactive: 'The cardholder is inactive.',
  cardholder_blocked: 'The cardholder is blocked.',
  spending_controls: "Stripe's spending controls on the card declined it.",
  webhook_approved: 'Approved by the product.',
  webhook_declined: 'Declined by the product.',
  webhook_timeout: 'The product did not answer in time.',
  webhook_error: 'The product did not give a usable answer.',
};

export function describeReason(reason: string): string {
  return reasonText[reason] ?? reason;
}

type Decision = { approved: boolean; reason: string; detail?: string; metadata?: Record<string, string> };

/** Reads the product's answer to `issuing_authorization.request` as Stripe does. */
export function readWebhookDecision(
  outcome: 'delivered' | 'failed' | 'timeout' | 'error',
  response: { status: number; headers: Headers; text: string } | undefined,
  requestedAmount: number,
  note?: string,
): Decision {
  const error = (detail: string): Decision => ({ approved: false, reason: 'webhook_error', detail });
  if (outcome === 'timeout') return { approved: false, reason: 'webhook_timeout', detail: note };
  if (!response) return error(note ?? 'the webhook could not be reached');
  if (response.status !== 200) return error(`the webhook answered HTTP ${response.status}, not 200`);
  if (!response.headers.get('stripe-version')) return error('the answer has no Stripe-Version header');
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return error('the answer is not JSON');
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof (body as { approved?: unknown }).approved !== 'boolean'
  ) {
    return error('the answer has no boolean "approved"');
  }
  const { approved, metadata, amount } = body as { approved: boolean; metadata?: unknown; amount?: unknown };
  if (amount !== undefined && amount !== requestedAmount) {
    return error('"amount" may only be set when pending_request.is_amount_controllable is true');
  }
  if (metadata !== undefined) {
    const ok =
      typeof metadata === 'object' &&
      metadata !== null &&
      !Array.isArray(metadata) &&
      Object.values(metadata).every((v) => typeof v === 'string');
    if (!ok) return error('"metadata" must be an object of strings');
  }
  return {
    approved,
    reason: approved ? 'webhook_approved' : 'webhook_declined',
    metadata: metadata as Record<string, string> | undefined,
  };
}

export class CardNetwork {
  private readonly work = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly options: NetworkOptions,
  ) {}

  /** Changes when approved authorizations are captured from now on (false: left pending). */
  setAutoCapture(delayMs: number | false): void {
    this.options.autoCaptureDelayMs = delayMs;
  }

  renderAuthorization(auth: AuthorizationRecord): Stripe.Issuing.Authorization {
    const { state } = this.ctx;
    return {
      ...structuredClone(auth),
      card: renderIssuingCard(this.ctx, getIssuingCard(this.ctx, auth.card)),
      transactions: auth.transactions.map((id) =>
        structuredClone(state.transactions[id] as Stripe.Issuing.Transaction),
      ),
    };
  }

  getAuthorization(id: string): AuthorizationRecord {
    const auth = this.ctx.state.authorizations[id];
    if (!auth) throw noSuch('issuing.authorization', id);
    return auth;
  }

  getTransaction(id: string): Stripe.Issuing.Transaction {
    const tx = this.ctx.state.transactions[id];
    if (!tx) throw noSuch('issuing.transaction', id);
    return tx;
  }

  /** Runs one authorization end to end; resolves once it is approved or declined. */
  async authorize(input: AuthorizeInput): Promise<AuthorizeOutcome> {
    const { ctx } = this;
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
      throw invalidRequest('amount must be a positive integer number of cents', 'amount');
    }
    const cardId = Object.entries(ctx.state.issuingSecrets).find(([, s]) => s.number === input.number)?.[0];
    if (!cardId) {
      ctx.log(`authorization for an unknown card number ending ${input.number.slice(-4)}: declined`);
      return { approved: false, reason: 'card_not_found', message: describeReason('card_not_found') };
    }
    const card = getIssuingCard(ctx, cardId);
    const secret = ctx.state.issuingSecrets[cardId] as { number: string; cvc: string };
    const cvcMatch = input.cvc === secret.cvc;
    const expiryMatch = input.expMonth === card.exp_month && input.expYear === card.exp_year;
    const auth = this.newAuthorization(card.id, card.cardholder, input, cvcMatch, expiryMatch);
    ctx.state.authorizations[auth.id] = auth;
    ctx.store.save();

    const early = this.stripeChecks(auth, cvcMatch && expiryMatch);
    const decision: Decision = early ?? (await this.askProduct(auth));
    this.decide(auth, decision);
    const rendered = this.renderAuthorization(auth);
    ctx.event('issuing_authorization.created', rendered);
    const message = decision.detail
      ? `${describeReason(decision.reason).replace(/\.$/, '')}: ${decision.detail}.`
      : describeReason(decision.reason);
    ctx.log(
      `${auth.id} ${input.amount} cents at ${input.merchant.name} (${input.merchant.category}): ${decision.approved ? 'approved' : 'declined'}, ${message}`,
    );
    if (decision.approved && this.options.autoCaptureDelayMs !== false) this.captureLater(auth.id);
    return { approved: decision.approved, reason: decision.reason, message, authorization: rendered };
  }

  private newAuthorization(
    cardId: string,
    cardholderId: string,
    input: AuthorizeInput,
    cvcMatch: boolean,
    expiryMatch: boolean,
  ): AuthorizationRecord {
    const { amount } = input;
    return {
      id: newId('iauth'),
      object: 'issuing.authorization',
      amount: 0,
      amount_details: { atm_fee: null, cashback_amount: null },
      approved: false,
      authorization_method: 'online',
      balance_transactions: [],
      card: cardId,
      card_presence: 'not_present',
      cardholder: cardholderId,
      created: this.ctx.now(),
      currency: 'usd',
      fleet: null,
      fuel: null,
      livemode: false,
      merchant_amount: 0,
      merchant_currency: 'usd',
      merchant_data: merchantData(input.merchant),
      metadata: {},
      network_data: {
        acquiring_institution_id: randomDigits(6),
        system_trace_audit_number: randomDigits(6),
        transaction_id: randomDigits(15),
      },
      pending_request: {
        amount,
        amount_details: { atm_fee: null, cashback_amount: null },
        currency: 'usd',
        is_amount_controllable: false,
        merchant_amount: amount,
        merchant_currency: 'usd',
        network_risk_score: null,
      },
      request_history: [],
      status: 'pending',
      token: null,
      transactions: [],
      verification_data: {
        address_line1_check: 'not_provided',
        address_postal_code_check: 'not_provided',
        authentication_exemption: null,
        cvc_check: cvcMatch ? 'match' : 'mismatch',
        expiry_check: expiryMatch ? 'match' : 'mismatch',
        postal_code: null,
        three_d_secure: null,
      },
      verified_by_fraud_challenge: null,
      wallet: null,
    };
  }

  /** What Stripe declines before asking the product. */
  private stripeChecks(auth: AuthorizationRecord, detailsMatch: boolean): Decision | undefined {
    const { ctx } = this;
    const card = getIssuingCard(ctx, auth.card);
    const cardholder = ctx.state.cardholders[card.cardholder];
    if (!detailsMatch) return { approved: false, reason: 'verification_failed' };
    if (card.status === 'canceled') return { approved: false, reason: 'card_canceled' };
    if (card.status !== 'active') return { approved: false, reason: 'card_inactive' };
    if (isExpired(card.exp_month, card.exp_year, new Date(ctx.nowMs()))) {
      return { approved: false, reason: 'card_expired' };
    }
    if (cardholder?.status === 'blocked') return { approved: false, reason: 'cardholder_blocked' };
    if (cardholder && cardholder.status !== 'active')
      return { approved: false, reason: 'cardholder_inactive' };
    const request = {
      amount: auth.pending_request?.amount ?? 0,
      category: auth.merchant_data.category,
      country: auth.merchant_data.country ?? 'US',
    };
    const verdicts = [
      checkSpendingControls(
        card.spending_controls as SpendingControls,
        request,
        this.pastSpend((a) => a.card === card.id),
        ctx.now(),
      ),
      checkSpendingControls(
        cardholder?.spending_controls as SpendingControls | null,
        request,
        this.pastSpend((a) => a.cardholder === card.cardholder),
        ctx.now(),
      ),
    ];
    for (const verdict of verdicts) {
      if (!verdict.ok) return { approved: false, reason: 'spending_controls', detail: verdict.message };
    }
    return undefined;
  }

  /** Held and captured amounts of the card (or cardholder) the filter picks. */
  private pastSpend(match: (owner: { card: string; cardholder: string | null }) => boolean): PastSpend[] {
    const { state } = this.ctx;
    const spent: PastSpend[] = [];
    for (const auth of Object.values(state.authorizations)) {
      if (match(auth) && auth.approved && auth.status === 'pending') {
        spent.push({ amount: auth.amount, category: auth.merchant_data.category, created: auth.created });
      }
    }
    for (const tx of Object.values(state.transactions)) {
      const owner = { card: tx.card as string, cardholder: tx.cardholder as string | null };
      if (match(owner) && tx.type === 'capture') {
        const auth =
          typeof tx.authorization === 'string' ? state.authorizations[tx.authorization] : undefined;
        spent.push({
          amount: -tx.amount,
          category: tx.merchant_data.category,
          created: auth?.created ?? tx.created,
        });
      }
    }
    return spent;
  }

  /** Sends the real-time request and reads the answer. */
  private async askProduct(auth: AuthorizationRecord): Promise<Decision> {
    const { ctx } = this;
    const event = ctx.event('issuing_authorization.request', this.renderAuthorization(auth), {
      deliver: false,
    });
    const sent = await ctx.webhooks.send(event, this.options.authorizationTimeoutMs, 'application/json');
    return readWebhookDecision(
      sent.record.outcome,
      sent.response,
      auth.pending_request?.amount ?? 0,
      sent.record.note,
    );
  }

  private decide(auth: AuthorizationRecord, decision: Decision): void {
    const requested = auth.pending_request?.amount ?? 0;
    auth.request_history.push({
      amount: requested,
      amount_details: { atm_fee: null, cashback_amount: null },
      approved: decision.approved,
      authorization_code: decision.approved ? randomDigits(6) : null,
      created: this.ctx.now(),
      currency: 'usd',
      merchant_amount: requested,
      merchant_currency: 'usd',
      network_risk_score: null,
      reason: decision.reason as Stripe.Issuing.Authorization.RequestHistory.Reason,
      reason_message: decision.detail ?? null,
      requested_at: auth.created,
    });
    auth.approved = decision.approved;
    auth.amount = decision.approved ? requested : 0;
    auth.merchant_amount = auth.amount;
    auth.pending_request = null;
    // Declined authorizations are closed at once; approved ones hold until captured.
    auth.status = decision.approved ? 'pending' : 'closed';
    if (decision.metadata) auth.metadata = { ...auth.metadata, ...decision.metadata };
    this.ctx.store.save();
  }

  private captureLater(authorizationId: string): void {
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        try {
          const auth = this.ctx.state.authorizations[authorizationId];
          // An admin may have reversed or captured it meanwhile.
          if (auth?.status === 'pending' && auth.amount > 0) this.capture(authorizationId);
        } catch (error) {
          this.ctx.log(`auto-capture of ${authorizationId} failed: ${(error as Error).message}`);
        }
        resolve();
      }, this.options.autoCaptureDelayMs || 0);
      this.timers.add(timer);
    });
    this.work.add(done);
    void done.finally(() => this.work.delete(done));
  }

  private newTransaction(
    fields: Pick<
      Stripe.Issuing.Transaction,
      'amount' | 'type' | 'authorization' | 'card' | 'cardholder' | 'merchant_data'
    >,
  ): Stripe.Issuing.Transaction {
    const now = new Date(this.ctx.nowMs());
    return {
      id: newId('ipi'),
      object: 'issuing.transaction',
      amount: fields.amount,
      amount_details: { atm_fee: null, cashback_amount: null },
      authorization: fields.authorization,
      balance_transaction: newId('txn'),
      card: fields.card,
      cardholder: fields.cardholder,
      created: this.ctx.now(),
      currency: 'usd',
      dispute: null,
      livemode: false,
      merchant_amount: fields.amount,
      merchant_currency: 'usd',
      merchant_data: structuredClone(fields.merchant_data),
      metadata: {},
      network_data: {
        authorization_code: randomDigits(6),
        processing_date: now.toISOString().slice(0, 10),
        transaction_id: randomDigits(15),
      },
      token: null,
      type: fields.type,
      wallet: null,
    };
  }

  private store(tx: Stripe.Issuing.Transaction, meta: RequestMeta): void {
    this.ctx.state.transactions[tx.id] = tx;
    this.ctx.store.save();
    this.ctx.event('issuing_transaction.created', tx, { request: meta });
  }

  private updated(auth: AuthorizationRecord, before: Stripe.Issuing.Authorization, meta: RequestMeta) {
    const after = this.renderAuthorization(auth);
    const previous: Record<string, unknown> = {};
    for (const key of ['amount', 'merchant_amount', 'status', 'transactions'] as const) {
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
    }
    this.ctx.store.save();
    this.ctx.event('issuing_authorization.updated', after, { previous, request: meta });
    return after;
  }

  /**
   * Captures an approved authorization: the whole held amount by default, or
   * any amount (less is a partial capture, more an over-capture). Expired
   * authorizations can still be captured, as on Stripe.
   */
  capture(
    authorizationId: string,
    amount?: number,
    meta: RequestMeta = noRequest,
  ): Stripe.Issuing.Transaction {
    const auth = this.getAuthorization(authorizationId);
    if (!auth.approved)
      throw invalidRequest(`Authorization ${auth.id} was declined; there is nothing to capture.`);
    if (auth.status !== 'pending' && auth.status !== 'expired') {
      throw invalidRequest(`Authorization ${auth.id} is ${auth.status}; it cannot be captured.`);
    }
    const value = amount ?? auth.amount;
    if (!Number.isSafeInteger(value) || value <= 0)
      throw invalidRequest('capture amount must be positive', 'amount');
    const before = this.renderAuthorization(auth);
    const tx = this.newTransaction({
      type: 'capture',
      amount: -value, // Stripe's sign: a capture takes money off the card
      authorization: auth.id,
      card: auth.card,
      cardholder: auth.cardholder,
      merchant_data: auth.merchant_data,
    });
    auth.status = 'closed';
    auth.transactions.push(tx.id);
    this.store(tx, meta);
    this.updated(auth, before, meta);
    return tx;
  }

  /** The merchant gives back part or all of the hold; all of it makes the status `reversed`. */
  reverse(
    authorizationId: string,
    amount?: number,
    meta: RequestMeta = noRequest,
  ): Stripe.Issuing.Authorization {
    const auth = this.getAuthorization(authorizationId);
    if (!auth.approved || auth.status !== 'pending') {
      throw invalidRequest(
        `Authorization ${auth.id} is not an approved pending authorization; it cannot be reversed.`,
      );
    }
    const value = amount ?? auth.amount;
    if (!Number.isSafeInteger(value) || value <= 0 || value > auth.amount) {
      throw invalidRequest(`reverse amount must be between 1 and ${auth.amount}`, 'amount');
    }
    const before = this.renderAuthorization(auth);
    auth.amount -= value;
    auth.merchant_amount = auth.amount;
    if (auth.amount === 0) auth.status = 'reversed';
    return this.updated(auth, before, meta);
  }

  /** Stripe expires uncaptured authorizations (status `expired`); the hold is released. */
  expire(authorizationId: string, meta: RequestMeta = noRequest): Stripe.Issuing.Authorization {
    const auth = this.getAuthorization(authorizationId);
    if (!auth.approved || auth.status !== 'pending') {
      throw invalidRequest(
        `Authorization ${auth.id} is not an approved pending authorization; it cannot expire.`,
      );
    }
    const before = this.renderAuthorization(auth);
    auth.status = 'expired';
    return this.updated(auth, before, meta);
  }

  /**
   * Expires every approval still pending 7 days after it was made (by the
   * emulator's clock, which time travel moves), oldest first, as Stripe's own
   * expiry does. Returns the authorizations it expired.
   */
  expireDue(): Stripe.Issuing.Authorization[] {
    const cutoff = this.ctx.now() - AUTHORIZATION_VALIDITY_SECONDS;
    const due = Object.values(this.ctx.state.authorizations).filter(
      (auth) => auth.approved && auth.status === 'pending' && auth.created <= cutoff,
    );
    const expired = due.map((auth) => this.expire(auth.id));
    if (expired.length > 0) this.ctx.log(`expired ${expired.length} authorization(s) not captured in 7 days`);
    return expired;
  }

  /** A capture with no authorization before it (merchants can do that; the product must cope). */
  forceCapture(
    input: { card: string; amount: number; merchant: MerchantInput },
    meta: RequestMeta = noRequest,
  ): Stripe.Issuing.Transaction {
    const card = getIssuingCard(this.ctx, input.card, 'card');
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
      throw invalidRequest('amount must be positive', 'amount');
    }
    const tx = this.newTransaction({
      type: 'capture',
      amount: -input.amount,
      authorization: null,
      card: card.id,
      cardholder: card.cardholder,
      merchant_data: merchantData(input.merchant),
    });
    this.store(tx, meta);
    return tx;
  }

  /** The merchant refunds part or all of a capture: a `refund` transaction with a positive amount. */
  refund(transactionId: string, amount?: number, meta: RequestMeta = noRequest): Stripe.Issuing.Transaction {
    const { state } = this.ctx;
    const capture = this.getTransaction(transactionId);
    if (capture.type !== 'capture') throw invalidRequest(`Transaction ${capture.id} is not a capture.`);
    const refunded = (state.refundsOf[capture.id] ?? []).reduce(
      (sum, id) => sum + (state.transactions[id]?.amount ?? 0),
      0,
    );
    const remaining = -capture.amount - refunded;
    const value = amount ?? remaining;
    if (!Number.isSafeInteger(value) || value <= 0 || value > remaining) {
      throw invalidRequest(`refund amount must be between 1 and ${remaining}`, 'amount');
    }
    const tx = this.newTransaction({
      type: 'refund',
      amount: value,
      authorization: capture.authorization,
      card: capture.card,
      cardholder: capture.cardholder,
      merchant_data: capture.merchant_data,
    });
    state.refundsOf[capture.id] = [...(state.refundsOf[capture.id] ?? []), tx.id];
    this.store(tx, meta);
    return tx;
  }

  busy(): boolean {
    return this.work.size > 0;
  }

  /** Resolves once no capture is waiting on its timer. */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.all(this.work);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.work.clear();
  }
}

function merchantData(merchant: MerchantInput): Stripe.Issuing.Authorization.MerchantData {
  return {
    category: merchant.category as Stripe.Issuing.Authorization.MerchantData['category'],
    category_code: findCategory(merchant.category)?.code ?? '5999',
    city: merchant.city ?? 'San Francisco',
    country: merchant.country ?? 'US',
    name: merchant.name,
    network_id: randomDigits(10),
    postal_code: merchant.postalCode ?? '94107',
    state: merchant.state ?? 'CA',
    tax_id: null,
    terminal_id: null,
    url: merchant.url ?? null,
  };
}
