/**
 * What the card network leaves behind, readable through the API: Issuing
 * authorizations and transactions, and events. Plus Stripe's own test
 * helpers for Issuing (`stripe.testHelpers.issuing...`), which map onto the
 * same network operations as the emulator's admin endpoints.
 */
import { paginate, type Route, readCreatedFilter } from '../api';
import { invalidRequest, noSuch } from '../errors';
import type { CardNetwork } from '../network';
import { applyMetadata, type Params } from '../params';
import { newestFirst } from '../store';

function readMerchant(p: Params | undefined) {
  return {
    name: p?.string('name') ?? 'Emulator Test Merchant',
    category: p?.string('category') ?? 'book_stores',
    city: p?.string('city'),
    state: p?.string('state'),
    postalCode: p?.string('postal_code'),
    country: p?.string('country'),
    url: p?.string('url'),
    // Accepted so Stripe-shaped requests pass; the emulator makes its own.
    ignored: [p?.string('network_id'), p?.string('terminal_id')],
  };
}

export function activityRoutes(network: CardNetwork): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/issuing/authorizations/:id',
      handle(_ctx, req) {
        req.params.done();
        return { body: network.renderAuthorization(network.getAuthorization(req.path.id as string)) };
      },
    },
    {
      method: 'POST',
      path: '/v1/issuing/authorizations/:id',
      handle(ctx, req) {
        const auth = network.getAuthorization(req.path.id as string);
        const metadata = req.params.metadata();
        req.params.done();
        auth.metadata = applyMetadata(auth.metadata, metadata);
        ctx.store.save();
        return { body: network.renderAuthorization(auth) };
      },
    },
    {
      method: 'GET',
      path: '/v1/issuing/authorizations',
      handle(ctx, req) {
        const card = req.params.string('card');
        const cardholder = req.params.string('cardholder');
        const status = req.params.string('status');
        const created = readCreatedFilter(req.params);
        const all = newestFirst(ctx.state.authorizations).filter(
          (a) =>
            created(a) &&
            (!card || a.card === card) &&
            (!cardholder || a.cardholder === cardholder) &&
            (!status || a.status === status),
        );
        const list = paginate(
          '/v1/issuing/authorizations',
          all.map((a) => network.renderAuthorization(a)),
          req.params,
        );
        req.params.done();
        return { body: list };
      },
    },
    {
      method: 'GET',
      path: '/v1/issuing/transactions/:id',
      handle(_ctx, req) {
        req.params.done();
        return { body: network.getTransaction(req.path.id as string) };
      },
    },
    {
      method: 'GET',
      path: '/v1/issuing/transactions',
      handle(ctx, req) {
        const card = req.params.string('card');
        const cardholder = req.params.string('cardholder');
        const type = req.params.string('type');
        const created = readCreatedFilter(req.params);
        const all = newestFirst(ctx.state.transactions).filter(
          (t) =>
            created(t) &&
            (!card || t.card === card) &&
            (!cardholder || t.cardholder === cardholder) &&
            (!type || t.type === type),
        );
        const list = paginate('/v1/issuing/transactions', all, req.params);
        req.params.done();
        return { body: list };
      },
    },
    {
      method: 'GET',
      path: '/v1/events/:id',
      handle(ctx, req) {
        req.params.done();
        const event = ctx.state.events.find((e) => e.id === req.path.id);
        if (!event) throw noSuch('event', req.path.id as string);
        return { body: event };
      },
    },
    {
      method: 'GET',
      path: '/v1/events',
      handle(ctx, req) {
        const type = req.params.string('type');
        const types = req.params.stringArray('types');
        if (type && types) throw invalidRequest('You may pass either type or types, not both.', 'types');
        const wanted = (t: string) =>
          (!type || t === type || (type.endsWith('.*') && t.startsWith(type.slice(0, -1)))) &&
          (!types || types.includes(t));
        const all = [...ctx.state.events].reverse().filter((e) => wanted(e.type));
        const list = paginate('/v1/events', all, req.params);
        req.params.done();
        return { body: list };
      },
    },
    // Stripe's Issuing test helpers, on the same network operations as /_emulator/.
    {
      method: 'POST',
      path: '/v1/test_helpers/issuing/authorizations/:id/capture',
      handle(_ctx, req) {
        const amount = req.params.integer('capture_amount', { min: 1 });
        req.params.boolean('close_authorization');
        req.params.object('purchase_details'); // accepted, not modelled
        req.params.done();
        network.capture(req.path.id as string, amount, req.meta);
        return { body: network.renderAuthorization(network.getAuthorization(req.path.id as string)) };
      },
    },
    {
      method: 'POST',
      path: '/v1/test_helpers/issuing/authorizations/:id/reverse',
      handle(_ctx, req) {
        const amount = req.params.integer('reverse_amount', { min: 1 });
        req.params.done();
        return { body: network.reverse(req.path.id as string, amount, req.meta) };
      },
    },
    {
      method: 'POST',
      path: '/v1/test_helpers/issuing/authorizations/:id/expire',
      handle(_ctx, req) {
        req.params.done();
        return { body: network.expire(req.path.id as string, req.meta) };
      },
    },
    {
      method: 'POST',
      path: '/v1/test_helpers/issuing/transactions/:id/refund',
      handle(_ctx, req) {
        const amount = req.params.integer('refund_amount', { min: 1 });
        req.params.done();
        return { body: network.refund(req.path.id as string, amount, req.meta) };
      },
    },
    {
      method: 'POST',
      path: '/v1/test_helpers/issuing/transactions/create_force_capture',
      handle(_ctx, req) {
        const card = req.params.string('card', { required: true }) as string;
        const amount = req.params.integer('amount', { required: true, min: 1 }) as number;
        req.params.string('currency');
        const { ignored: _ignored, ...merchant } = readMerchant(req.params.object('merchant_data'));
        req.params.done();
        return { body: network.forceCapture({ card, amount, merchant }, req.meta) };
      },
    },
  ];
}
