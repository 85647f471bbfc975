/**
 * Charges and refunds. A declined test card answers 402 card_error with the
 * decline code and, like Stripe, still leaves a charge with status 'failed'
 * (its id is in the error's `charge`). Amounts are integer cents.
 */
import type Stripe from 'stripe';
import { paginate, type Route, readCreatedFilter, readCurrency } from '../api';
import { type CardBehaviour, type CardBrand, networkOf } from '../cardNumbers';
import type { EmulatorContext } from '../context';
import { cardError, declineError, invalidRequest, noSuch } from '../errors';
import { newId, randomDigits } from '../ids';
import { formatCents } from '../money';
import { applyMetadata } from '../params';
import { type ChargeRecord, newestFirst } from '../store';
import { changedFields, getCustomer } from './customers';
import { redeemToken } from './tokens';

/** Stripe's minimum and maximum charge in USD. */
const MIN_CHARGE = 50;
const MAX_CHARGE = 99_999_999;

export function renderCharge(ctx: EmulatorContext, charge: ChargeRecord): Stripe.Charge {
  const refunds = newestFirst(ctx.state.refunds).filter((r) => r.charge === charge.id);
  return {
    ...structuredClone(charge),
    refunds: { object: 'list', data: refunds, has_more: false, url: `/v1/charges/${charge.id}/refunds` },
  };
}

function getCharge(ctx: EmulatorContext, id: string, param?: string): ChargeRecord {
  const charge = ctx.state.charges[id];
  if (!charge) throw param ? noSuch('charge', id, param, 400) : noSuch('charge', id);
  return charge;
}

/** Which card pays: an explicit source (a card of the customer, or a token), else the customer's default. */
function pickCard(
  ctx: EmulatorContext,
  customerId: string | undefined,
  source: string | undefined,
): { card: Stripe.Card; behaviour: CardBehaviour } {
  if (source?.startsWith('tok_')) return redeemToken(ctx, source, 'source');
  if (!customerId && !source)
    throw invalidRequest('Must provide source or customer.', 'source', 'parameter_missing');
  if (source) {
    const card = ctx.state.cards[source];
    if (!card || (customerId && card.customer !== customerId)) {
      throw invalidRequest(
        customerId
          ? `Customer ${customerId} does not have a linked source with ID ${source}.`
          : `No such source: '${source}'`,
        'source',
        'resource_missing',
      );
    }
    return { card, behaviour: ctx.state.cardBehaviours[card.id] ?? { kind: 'ok' } };
  }
  const customer = getCustomer(ctx, customerId as string, 'customer');
  const defaultId = typeof customer.default_source === 'string' ? customer.default_source : null;
  const card = defaultId ? ctx.state.cards[defaultId] : undefined;
  if (!card)
    throw cardError('missing', 'Cannot charge a customer that has no active card', { param: 'card' });
  return { card, behaviour: ctx.state.cardBehaviours[card.id] ?? { kind: 'ok' } };
}

function paymentMethodDetails(
  card: Stripe.Card,
  amount: number,
  approved: boolean,
): Stripe.Charge.PaymentMethodDetails {
  const network = networkOf(card.brand as CardBrand);
  return {
    type: 'card',
    card: {
      amount_authorized: approved ? amount : null,
      authorization_code: approved ? randomDigits(6) : null,
      brand: network,
      checks: {
        address_line1_check: card.address_line1_check,
        address_postal_code_check: card.address_zip_check,
        cvc_check: card.cvc_check,
      },
      country: card.country,
      electronic_commerce_indicator: null,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      extended_authorization: { status: 'disabled' },
      fingerprint: card.fingerprint ?? null,
      funding: card.funding,
      incremental_authorization: { status: 'unavailable' },
      installments: null,
      last4: card.last4,
      mandate: null,
      multicapture: { status: 'unavailable' },
      network,
      network_token: { used: false },
      network_transaction_id: approved ? randomDigits(15) : null,
      overcapture: { maximum_amount_capturable: amount, status: 'unavailable' },
      regulated_status: 'unregulated',
      three_d_secure: null,
      transaction_link_id: null,
      wallet: null,
    },
  };
}

export const chargeRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/charges',
    handle(ctx, req) {
      const p = req.params;
      const amount = p.integer('amount', { required: true }) as number;
      const currency = readCurrency(p) as 'usd';
      const customerId = p.string('customer');
      const source = p.string('source');
      const description = p.nullableString('description', { maxLength: 40_000 }) ?? null;
      const metadata = p.metadata();
      const capture = p.boolean('capture') ?? true;
      const receiptEmail = p.nullableString('receipt_email') ?? null;
      const statementDescriptor = p.nullableString('statement_descriptor', { maxLength: 22 }) ?? null;
      const statementSuffix = p.nullableString('statement_descriptor_suffix', { maxLength: 22 }) ?? null;
      const transferGroup = p.nullableString('transfer_group') ?? null;
      p.done();
      if (amount < MIN_CHARGE) {
        throw invalidRequest(
          `Amount must be at least ${formatCents(MIN_CHARGE)} usd`,
          'amount',
          'amount_too_small',
        );
      }
      if (amount > MAX_CHARGE) {
        throw invalidRequest(
          `Amount must be no more than ${formatCents(MAX_CHARGE)}`,
          'amount',
          'amount_too_large',
        );
      }
      if (customerId) getCustomer(ctx, customerId, 'customer');
      const { card, behaviour } = pickCard(ctx, customerId, source);
      const decline = behaviour.kind === 'ok' ? undefined : behaviour.decline;
      const approved = !decline;
      const cvcFailed = decline?.code === 'incorrect_cvc';
      const chargedCard: Stripe.Card = { ...card, cvc_check: cvcFailed ? 'fail' : card.cvc_check };
      const charge: ChargeRecord = {
        id: newId('ch'),
        object: 'charge',
        amount,
        amount_captured: approved && capture ? amount : 0,
        amount_refunded: 0,
        application: null,
        application_fee: null,
        application_fee_amount: null,
        balance_transaction: approved && capture ? newId('txn') : null,
        billing_details: {
          address: {
            city: card.address_city,
            country: card.address_country,
            line1: card.address_line1,
            line2: card.address_line2,
            postal_code: card.address_zip,
            state: card.address_state,
          },
          email: null,
          name: card.name,
          phone: null,
          tax_id: null,
        },
        calculated_statement_descriptor: statementDescriptor ?? 'LEARNING BUDGET',
        captured: approved && capture,
        created: ctx.now(),
        currency,
        customer: customerId ?? null,
        description,
        disputed: false,
        failure_balance_transaction: null,
        failure_code: decline?.code ?? null,
        failure_message: decline?.message ?? null,
        fraud_details: {},
        livemode: false,
        metadata: applyMetadata({}, metadata),
        on_behalf_of: null,
        outcome: {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: approved ? 'approved_by_network' : 'declined_by_network',
          reason: decline?.declineCode ?? null,
          risk_level: 'normal',
          risk_score: 20,
          seller_message: approved
            ? 'Payment complete.'
            : 'The bank did not return any further details with this decline.',
          type: approved ? 'authorized' : 'issuer_declined',
        },
        paid: approved,
        payment_intent: null,
        payment_method: card.id,
        payment_method_details: paymentMethodDetails(chargedCard, amount, approved),
        receipt_email: receiptEmail,
        receipt_number: null,
        receipt_url: null,
        refunded: false,
        review: null,
        shipping: null,
        source: chargedCard as Stripe.CustomerSource,
        source_transfer: null,
        statement_descriptor: statementDescriptor,
        statement_descriptor_suffix: statementSuffix,
        status: approved ? 'succeeded' : 'failed',
        transfer_data: null,
        transfer_group: transferGroup,
      };
      ctx.state.charges[charge.id] = charge;
      ctx.store.save();
      ctx.event(approved ? 'charge.succeeded' : 'charge.failed', renderCharge(ctx, charge), {
        request: req.meta,
      });
      if (decline) throw declineError(decline, charge.id);
      return { body: renderCharge(ctx, charge) };
    },
  },
  {
    method: 'GET',
    path: '/v1/charges/:id',
    handle(ctx, req) {
      req.params.done();
      return { body: renderCharge(ctx, getCharge(ctx, req.path.id as string)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/charges',
    handle(ctx, req) {
      const customer = req.params.string('customer');
      const created = readCreatedFilter(req.params);
      const all = newestFirst(ctx.state.charges).filter(
        (c) => created(c) && (!customer || c.customer === customer),
      );
      const list = paginate(
        '/v1/charges',
        all.map((c) => renderCharge(ctx, c)),
        req.params,
      );
      req.params.done();
      return { body: list };
    },
  },
  {
    method: 'POST',
    path: '/v1/charges/:id/capture',
    handle(ctx, req) {
      const charge = getCharge(ctx, req.path.id as string);
      const amount = req.params.integer('amount', { min: 1 }) ?? charge.amount;
      req.params.done();
      if (charge.status !== 'succeeded' || charge.captured) {
        throw invalidRequest(
          `Charge ${charge.id} has already been captured.`,
          undefined,
          'charge_already_captured',
        );
      }
      if (amount > charge.amount) {
        throw invalidRequest(
          `You cannot capture more than ${formatCents(charge.amount)} on this charge.`,
          'amount',
          'amount_too_large',
        );
      }
      const before = renderCharge(ctx, charge);
      charge.captured = true;
      charge.amount_captured = amount;
      // Stripe refunds the part not captured at once.
      charge.amount_refunded = charge.amount - amount;
      charge.balance_transaction = newId('txn');
      ctx.store.save();
      const after = renderCharge(ctx, charge);
      ctx.event('charge.captured', after, { previous: changedFields(before, after), request: req.meta });
      return { body: after };
    },
  },
  {
    method: 'POST',
    path: '/v1/refunds',
    handle(ctx, req) {
      const p = req.params;
      const chargeId = p.string('charge', { required: true }) as string;
      const requested = p.integer('amount', { min: 1 });
      const reason = p.enum('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
      const metadata = p.metadata();
      p.done();
      const charge = getCharge(ctx, chargeId, 'charge');
      if (charge.status !== 'succeeded' || !charge.captured) {
        throw invalidRequest(
          `Charge ${charge.id} cannot be refunded: it is ${charge.status === 'failed' ? 'failed' : 'not captured'}.`,
          'charge',
        );
      }
      const remaining = charge.amount_captured - charge.amount_refunded;
      if (remaining <= 0) {
        throw invalidRequest(
          `Charge ${charge.id} has already been refunded.`,
          'charge',
          'charge_already_refunded',
        );
      }
      const amount = requested ?? remaining;
      if (amount > remaining) {
        throw invalidRequest(
          `Refund amount (${formatCents(amount)}) is greater than unrefunded amount on charge (${formatCents(remaining)})`,
          'amount',
        );
      }
      const refund: Stripe.Refund = {
        id: newId('re'),
        object: 'refund',
        amount,
        balance_transaction: newId('txn'),
        charge: charge.id,
        created: ctx.now(),
        currency: charge.currency,
        customer: charge.customer,
        customer_account: null,
        destination_details: {
          card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
          type: 'card',
        },
        metadata: applyMetadata({}, metadata),
        payment_intent: null,
        payment_method: charge.payment_method,
        reason,
        receipt_number: null,
        source_transfer_reversal: null,
        status: 'succeeded',
        transfer_reversal: null,
      };
      const before = renderCharge(ctx, charge);
      ctx.state.refunds[refund.id] = refund;
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded >= charge.amount_captured;
      ctx.store.save();
      const after = renderCharge(ctx, charge);
      ctx.event('refund.created', refund, { request: req.meta });
      ctx.event('charge.refunded', after, { previous: changedFields(before, after), request: req.meta });
      return { body: refund };
    },
  },
  {
    method: 'GET',
    path: '/v1/refunds/:id',
    handle(ctx, req) {
      req.params.done();
      const refund = ctx.state.refunds[req.path.id as string];
      if (!refund) throw noSuch('refund', req.path.id as string);
      return { body: refund };
    },
  },
  {
    method: 'GET',
    path: '/v1/refunds',
    handle(ctx, req) {
      const charge = req.params.string('charge');
      const created = readCreatedFilter(req.params);
      const all = newestFirst(ctx.state.refunds).filter(
        (r) => created(r) && (!charge || r.charge === charge),
      );
      const list = paginate('/v1/refunds', all, req.params);
      req.params.done();
      return { body: list };
    },
  },
];
