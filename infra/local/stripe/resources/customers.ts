/**
 * Customers and their card sources. Attaching a card runs Stripe's card check:
 * the decline test cards fail here (402), except 4000000000000341, which
 * attaches and then declines every charge.
 */
import type Stripe from 'stripe';
import { type ListObject, paginate, type Route } from '../api';
import type { EmulatorContext, RequestMeta } from '../context';
import { declineError, invalidRequest, noSuch } from '../errors';
import { newId, randomBase62 } from '../ids';
import { applyMetadata, type MetadataUpdate, type Params } from '../params';
import { type CustomerRecord, newestFirst } from '../store';
import { redeemToken } from './tokens';

export function getCustomer(ctx: EmulatorContext, id: string, param?: string): CustomerRecord {
  const customer = ctx.state.customers[id];
  if (!customer || customer.deleted)
    throw param ? noSuch('customer', id, param, 400) : noSuch('customer', id);
  return customer;
}

export function customerCards(ctx: EmulatorContext, customerId: string): Stripe.Card[] {
  return newestFirst(ctx.state.cards).filter((c) => c.customer === customerId);
}

export function renderCustomer(ctx: EmulatorContext, customer: CustomerRecord): Stripe.Customer {
  const url = `/v1/customers/${customer.id}/sources`;
  const sources: ListObject<Stripe.Card> = {
    object: 'list',
    data: customerCards(ctx, customer.id),
    has_more: false,
    url,
  };
  // Stripe lists sources only when expanded; the emulator always includes them.
  return { ...structuredClone(customer), sources };
}

function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

function readEmail(params: Params): string | null | undefined {
  const email = params.nullableString('email', { maxLength: 512 });
  if (email && !isEmail(email))
    throw invalidRequest(`Invalid email address: ${email}`, 'email', 'email_invalid');
  return email;
}

/** Turns a token into a card on the customer, after Stripe's card check. */
function attachSource(
  ctx: EmulatorContext,
  customer: CustomerRecord,
  tokenId: string,
  param: string,
  metadata: MetadataUpdate | undefined,
  meta: RequestMeta,
): Stripe.Card {
  if (!tokenId.startsWith('tok_')) {
    throw invalidRequest(`The emulator attaches tokens (tok_...) only, got '${tokenId}'.`, param);
  }
  const { card, behaviour } = redeemToken(ctx, tokenId, param);
  if (behaviour.kind === 'decline') {
    throw declineError(behaviour.decline);
  }
  delete card.networks;
  const attached: Stripe.Card = {
    ...card,
    customer: customer.id,
    cvc_check: card.cvc_check ? 'pass' : null,
    metadata: applyMetadata({}, metadata),
  };
  ctx.state.cards[attached.id] = attached;
  ctx.state.cardBehaviours[attached.id] = behaviour;
  if (!customer.default_source) customer.default_source = attached.id;
  ctx.store.save();
  ctx.event('customer.source.created', attached, { request: meta });
  return attached;
}

export const customerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/customers',
    handle(ctx, req) {
      const p = req.params;
      const email = readEmail(p);
      const name = p.nullableString('name', { maxLength: 256 });
      const description = p.nullableString('description', { maxLength: 350 });
      const phone = p.nullableString('phone', { maxLength: 20 });
      const metadata = p.metadata();
      const source = p.string('source');
      p.done();
      const customer: CustomerRecord = {
        id: newId('cus', 14),
        object: 'customer',
        address: null,
        balance: 0,
        created: ctx.now(),
        currency: null,
        default_source: null,
        delinquent: false,
        description: description ?? null,
        discount: null,
        email: email ?? null,
        invoice_prefix: randomBase62(8).toUpperCase(),
        invoice_settings: {
          custom_fields: null,
          default_payment_method: null,
          footer: null,
          rendering_options: null,
        },
        livemode: false,
        metadata: applyMetadata({}, metadata),
        name: name ?? null,
        next_invoice_sequence: 1,
        phone: phone ?? null,
        preferred_locales: [],
        shipping: null,
        tax_exempt: 'none',
        test_clock: null,
      };
      // Stripe creates nothing when the card check fails, so attach before storing.
      const card = source ? attachSource(ctx, customer, source, 'source', undefined, req.meta) : undefined;
      ctx.state.customers[customer.id] = customer;
      if (card) customer.default_source = card.id;
      ctx.store.save();
      ctx.event('customer.created', renderCustomer(ctx, customer), { request: req.meta });
      return { body: renderCustomer(ctx, customer) };
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id',
    handle(ctx, req) {
      req.params.done();
      return { body: renderCustomer(ctx, getCustomer(ctx, req.path.id as string)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/customers',
    handle(ctx, req) {
      const email = req.params.string('email');
      const all = newestFirst(ctx.state.customers).filter((c) => !email || c.email === email);
      const list = paginate(
        '/v1/customers',
        all.map((c) => renderCustomer(ctx, c)),
        req.params,
      );
      req.params.done();
      return { body: list };
    },
  },
  {
    method: 'POST',
    path: '/v1/customers/:id',
    handle(ctx, req) {
      const customer = getCustomer(ctx, req.path.id as string);
      const p = req.params;
      const email = readEmail(p);
      const name = p.nullableString('name', { maxLength: 256 });
      const description = p.nullableString('description', { maxLength: 350 });
      const phone = p.nullableString('phone', { maxLength: 20 });
      const metadata = p.metadata();
      const defaultSource = p.string('default_source');
      const source = p.string('source');
      p.done();
      if (defaultSource && ctx.state.cards[defaultSource]?.customer !== customer.id) {
        throw noSuch('source', defaultSource, 'default_source', 400);
      }
      const before = renderCustomer(ctx, customer);
      if (source) {
        // Stripe: `source` on update replaces the default source with a new card.
        const card = attachSource(ctx, customer, source, 'source', undefined, req.meta);
        customer.default_source = card.id;
      }
      if (email !== undefined) customer.email = email;
      if (name !== undefined) customer.name = name;
      if (description !== undefined) customer.description = description;
      if (phone !== undefined) customer.phone = phone;
      if (defaultSource) customer.default_source = defaultSource;
      customer.metadata = applyMetadata(customer.metadata, metadata);
      ctx.store.save();
      const after = renderCustomer(ctx, customer);
      ctx.event('customer.updated', after, { previous: changedFields(before, after), request: req.meta });
      return { body: after };
    },
  },
  {
    method: 'POST',
    path: '/v1/customers/:id/sources',
    handle(ctx, req) {
      const customer = getCustomer(ctx, req.path.id as string);
      const source = req.params.string('source', { required: true }) as string;
      const metadata = req.params.metadata();
      req.params.done();
      return { body: attachSource(ctx, customer, source, 'source', metadata, req.meta) };
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id/sources',
    handle(ctx, req) {
      const customer = getCustomer(ctx, req.path.id as string);
      req.params.enum('object', ['card']);
      const list = paginate(
        `/v1/customers/${customer.id}/sources`,
        customerCards(ctx, customer.id),
        req.params,
      );
      req.params.done();
      return { body: list };
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id/sources/:card',
    handle(ctx, req) {
      const customer = getCustomer(ctx, req.path.id as string);
      req.params.done();
      const card = ctx.state.cards[req.path.card as string];
      if (!card || card.customer !== customer.id) throw noSuch('source', req.path.card as string);
      return { body: card };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/customers/:id/sources/:card',
    handle(ctx, req) {
      const customer = getCustomer(ctx, req.path.id as string);
      req.params.done();
      const cardId = req.path.card as string;
      const card = ctx.state.cards[cardId];
      if (!card || card.customer !== customer.id) throw noSuch('source', cardId);
      delete ctx.state.cards[cardId];
      if (customer.default_source === cardId) {
        // As on Stripe: the most recently added remaining card becomes the default.
        customer.default_source = customerCards(ctx, customer.id)[0]?.id ?? null;
      }
      ctx.store.save();
      ctx.event('customer.source.deleted', card, { request: req.meta });
      return { body: { id: cardId, object: 'card', deleted: true } };
    },
  },
];

/** The `previous_attributes` of an `.updated` event: the top-level fields that changed. */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const a = after as Record<string, unknown>;
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify(a[key])) previous[key] = value;
  }
  return previous;
}
