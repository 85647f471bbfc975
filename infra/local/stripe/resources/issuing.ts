/**
 * Issuing cardholders, virtual cards and ephemeral keys. The emulator makes a
 * Luhn-valid Visa number, expiry and CVC for each card and keeps them to
 * itself: the card object never carries `number` or `cvc`, as on Stripe; only
 * the card-details frame shows them, to a holder of a valid ephemeral key.
 */
import type Stripe from 'stripe';
import { paginate, type Route, readCurrency } from '../api';
import { luhnCheckDigit } from '../cardNumbers';
import type { EmulatorContext } from '../context';
import { invalidRequest, noSuch } from '../errors';
import { newId, randomBase62, randomDigits } from '../ids';
import { applyMetadata, type Params } from '../params';
import { type SpendingControls as Controls, type Interval, intervals } from '../spendingControls';
import { type EphemeralKeyRecord, type IssuingCardRecord, newestFirst } from '../store';
import { changedFields } from './customers';

/** Ephemeral keys for Issuing Elements live about 15 minutes. */
export const EPHEMERAL_KEY_SECONDS = 15 * 60;

/** Issued numbers start 4000 0099: Visa, and clear of Stripe's payment test cards. */
const ISSUING_BIN = '40000099';

function readList(p: Params, key: string): string[] | undefined {
  const list = p.stringArray(key);
  for (const item of list ?? []) {
    if (!/^[a-z0-9_]+$/i.test(item)) throw invalidRequest(`Invalid ${p.name(key)}: ${item}`, p.name(key));
  }
  return list;
}

/** The `spending_controls` hash of cards and cardholders: only the fields sent. */
function readSpendingControls(p: Params | undefined): Partial<Controls> | undefined {
  if (!p) return undefined;
  const controls: Partial<Controls> = {};
  const allowed = readList(p, 'allowed_categories');
  const blocked = readList(p, 'blocked_categories');
  const allowedCountries = readList(p, 'allowed_merchant_countries');
  const blockedCountries = readList(p, 'blocked_merchant_countries');
  if (allowed !== undefined) controls.allowed_categories = allowed.length ? allowed : null;
  if (blocked !== undefined) controls.blocked_categories = blocked.length ? blocked : null;
  if (allowedCountries !== undefined)
    controls.allowed_merchant_countries = allowedCountries.length ? allowedCountries : null;
  if (blockedCountries !== undefined)
    controls.blocked_merchant_countries = blockedCountries.length ? blockedCountries : null;
  const limits = p.objectArray('spending_limits');
  if (limits !== undefined) {
    controls.spending_limits = limits.map((limit) => ({
      amount: limit.integer('amount', { required: true, min: 0 }) as number,
      interval: limit.enum('interval', intervals, { required: true }) as Interval,
      categories: readList(limit, 'categories') ?? null,
    }));
  }
  p.string('spending_limits_currency');
  return controls;
}

function mergeControls(
  current: Stripe.Issuing.Card.SpendingControls,
  update: Partial<Controls> | undefined,
): Stripe.Issuing.Card.SpendingControls {
  if (!update) return current;
  const next = { ...current, ...update } as Stripe.Issuing.Card.SpendingControls;
  next.spending_limits_currency = next.spending_limits?.length ? 'usd' : null;
  return next;
}

const emptyControls = (): Stripe.Issuing.Card.SpendingControls => ({
  allowed_card_presences: null,
  allowed_categories: null,
  allowed_merchant_countries: null,
  blocked_card_presences: null,
  blocked_categories: null,
  blocked_merchant_countries: null,
  spending_limits: [],
  spending_limits_currency: null,
});

// ---------------------------------------------------------------- cardholders

export function getCardholder(ctx: EmulatorContext, id: string, param?: string): Stripe.Issuing.Cardholder {
  const cardholder = ctx.state.cardholders[id];
  if (!cardholder) throw param ? noSuch('cardholder', id, param, 400) : noSuch('issuing.cardholder', id);
  return cardholder;
}

function readBilling(p: Params, required: boolean): Stripe.Issuing.Cardholder.Billing | undefined {
  const billing = p.object('billing', { required });
  if (!billing) return undefined;
  const address = billing.object('address', { required: true }) as Params;
  return {
    address: {
      line1: address.string('line1', { required: true }) as string,
      line2: address.string('line2') ?? null,
      city: address.string('city', { required: true }) as string,
      state: address.string('state') ?? null,
      postal_code: address.string('postal_code', { required: true }) as string,
      country: address.string('country', { required: true }) as string,
    },
  };
}

function readIndividual(p: Params): Stripe.Issuing.Cardholder.Individual | undefined {
  const individual = p.object('individual');
  if (!individual) return undefined;
  const dob = individual.object('dob');
  const read = {
    first_name: individual.string('first_name') ?? null,
    last_name: individual.string('last_name') ?? null,
    dob: dob
      ? {
          day: dob.integer('day', { required: true, min: 1, max: 31 }) as number,
          month: dob.integer('month', { required: true, min: 1, max: 12 }) as number,
          year: dob.integer('year', { required: true, min: 1900, max: 2100 }) as number,
        }
      : null,
  };
  return { ...read, verification: null };
}

const cardholderStatuses = ['active', 'inactive', 'blocked'] as const;

// ---------------------------------------------------------------- cards

export function getIssuingCard(ctx: EmulatorContext, id: string, param?: string): IssuingCardRecord {
  const card = ctx.state.issuingCards[id];
  if (!card) throw param ? noSuch('card', id, param, 400) : noSuch('issuing.card', id);
  return card;
}

export function renderIssuingCard(ctx: EmulatorContext, card: IssuingCardRecord): Stripe.Issuing.Card {
  const cardholder = ctx.state.cardholders[card.cardholder];
  return { ...structuredClone(card), cardholder: structuredClone(cardholder) as Stripe.Issuing.Cardholder };
}

function newCardNumber(ctx: EmulatorContext): string {
  const taken = new Set(Object.values(ctx.state.issuingSecrets).map((s) => s.number));
  for (;;) {
    const partial = ISSUING_BIN + randomDigits(7);
    const number = partial + luhnCheckDigit(partial);
    if (!taken.has(number)) return number;
  }
}

/** Stripe never re-activates a canceled card. */
function assertNotCanceled(card: IssuingCardRecord): void {
  if (card.status === 'canceled') {
    throw invalidRequest(`Card ${card.id} is canceled; a canceled card cannot be changed.`, 'status');
  }
}

// ---------------------------------------------------------------- ephemeral keys

/** The card an ephemeral key secret opens, if the key is valid now. */
export function cardForEphemeralKey(ctx: EmulatorContext, secret: string, cardId: string): boolean {
  const key = Object.values(ctx.state.ephemeralKeys).find((k) => k.secret === secret);
  if (!key || key.expires <= ctx.now()) return false;
  return key.associated_objects.some((o) => o.type === 'issuing.card' && o.id === cardId);
}

export const issuingRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/issuing/cardholders',
    handle(ctx, req) {
      const p = req.params;
      const type = p.enum('type', ['individual', 'company'] as const, { required: true }) as
        | 'individual'
        | 'company';
      const name = p.string('name', { required: true, maxLength: 200 }) as string;
      const email = p.nullableString('email') ?? null;
      const phone = p.nullableString('phone_number') ?? null;
      const billing = readBilling(p, true) as Stripe.Issuing.Cardholder.Billing;
      const individual = readIndividual(p) ?? null;
      const metadata = p.metadata();
      const status = p.enum('status', ['active', 'inactive'] as const) ?? 'active';
      const controls = readSpendingControls(p.object('spending_controls'));
      const locales = p.stringArray('preferred_locales');
      p.done();
      const cardholder: Stripe.Issuing.Cardholder = {
        id: newId('ich'),
        object: 'issuing.cardholder',
        billing,
        company: type === 'company' ? { tax_id_provided: false } : null,
        created: ctx.now(),
        email,
        individual,
        livemode: false,
        metadata: applyMetadata({}, metadata),
        name,
        phone_number: phone,
        preferred_locales: (locales ?? []) as Stripe.Issuing.Cardholder.PreferredLocale[],
        requirements: { disabled_reason: null, past_due: [] },
        // Categories are checked as strings here; the SDK's union of names exists at compile time only.
        spending_controls: {
          allowed_card_presences: null,
          allowed_categories: controls?.allowed_categories ?? [],
          allowed_merchant_countries: controls?.allowed_merchant_countries ?? [],
          blocked_card_presences: null,
          blocked_categories: controls?.blocked_categories ?? [],
          blocked_merchant_countries: controls?.blocked_merchant_countries ?? [],
          spending_limits: controls?.spending_limits ?? [],
          spending_limits_currency: controls?.spending_limits?.length ? 'usd' : null,
        } as Stripe.Issuing.Cardholder.SpendingControls,
        status,
        type,
      };
      ctx.state.cardholders[cardholder.id] = cardholder;
      ctx.store.save();
      ctx.event('issuing_cardholder.created', cardholder, { request: req.meta });
      return { body: cardholder };
    },
  },
  {
    method: 'GET',
    path: '/v1/issuing/cardholders/:id',
    handle(ctx, req) {
      req.params.done();
      return { body: getCardholder(ctx, req.path.id as string) };
    },
  },
  {
    method: 'GET',
    path: '/v1/issuing/cardholders',
    handle(ctx, req) {
      const email = req.params.string('email');
      const all = newestFirst(ctx.state.cardholders).filter((c) => !email || c.email === email);
      const list = paginate('/v1/issuing/cardholders', all, req.params);
      req.params.done();
      return { body: list };
    },
  },
  {
    method: 'POST',
    path: '/v1/issuing/cardholders/:id',
    handle(ctx, req) {
      const cardholder = getCardholder(ctx, req.path.id as string);
      const p = req.params;
      const email = p.nullableString('email');
      const phone = p.nullableString('phone_number');
      const billing = readBilling(p, false);
      const individual = readIndividual(p);
      const metadata = p.metadata();
      const status = p.enum('status', cardholderStatuses);
      const controls = readSpendingControls(p.object('spending_controls'));
      p.done();
      const before = structuredClone(cardholder);
      if (email !== undefined) cardholder.email = email;
      if (phone !== undefined) cardholder.phone_number = phone;
      if (billing) cardholder.billing = billing;
      if (individual) cardholder.individual = individual;
      if (status) cardholder.status = status;
      cardholder.metadata = applyMetadata(cardholder.metadata, metadata);
      if (controls) {
        cardholder.spending_controls = {
          ...(cardholder.spending_controls as Stripe.Issuing.Cardholder.SpendingControls),
          ...controls,
        } as Stripe.Issuing.Cardholder.SpendingControls;
      }
      ctx.store.save();
      ctx.event('issuing_cardholder.updated', cardholder, {
        previous: changedFields(before, cardholder),
        request: req.meta,
      });
      return { body: cardholder };
    },
  },
  {
    method: 'POST',
    path: '/v1/issuing/cards',
    handle(ctx, req) {
      const p = req.params;
      const cardholderId = p.string('cardholder', { required: true }) as string;
      const currency = readCurrency(p) as 'usd';
      const type = p.enum('type', ['virtual', 'physical'] as const, { required: true });
      const status = p.enum('status', ['active', 'inactive'] as const) ?? 'inactive';
      const controls = readSpendingControls(p.object('spending_controls'));
      const metadata = p.metadata();
      p.done();
      if (type !== 'virtual') throw invalidRequest('The emulator issues virtual cards only.', 'type');
      getCardholder(ctx, cardholderId, 'cardholder');
      const now = new Date(ctx.nowMs());
      const card: IssuingCardRecord = {
        id: newId('ic'),
        object: 'issuing.card',
        brand: 'Visa',
        cancellation_reason: null,
        cardholder: cardholderId,
        created: ctx.now(),
        currency,
        exp_month: now.getUTCMonth() + 1,
        exp_year: now.getUTCFullYear() + 3,
        last4: '',
        latest_fraud_warning: null,
        lifecycle_controls: null,
        livemode: false,
        metadata: applyMetadata({}, metadata),
        personalization_design: null,
        replaced_by: null,
        replacement_for: null,
        replacement_reason: null,
        second_line: null,
        shipping: null,
        spending_controls: mergeControls(emptyControls(), controls),
        status,
        type: 'virtual',
        wallets: {
          apple_pay: { eligible: false, ineligible_reason: 'missing_agreement' },
          google_pay: { eligible: false, ineligible_reason: 'missing_agreement' },
          primary_account_identifier: null,
        },
      };
      const number = newCardNumber(ctx);
      card.last4 = number.slice(-4);
      ctx.state.issuingCards[card.id] = card;
      ctx.state.issuingSecrets[card.id] = { number, cvc: randomDigits(3) };
      ctx.store.save();
      const body = renderIssuingCard(ctx, card);
      ctx.event('issuing_card.created', body, { request: req.meta });
      return { body };
    },
  },
  {
    method: 'GET',
    path: '/v1/issuing/cards/:id',
    handle(ctx, req) {
      req.params.done();
      return { body: renderIssuingCard(ctx, getIssuingCard(ctx, req.path.id as string)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/issuing/cards',
    handle(ctx, req) {
      const cardholder = req.params.string('cardholder');
      const status = req.params.string('status');
      const all = newestFirst(ctx.state.issuingCards).filter(
        (c) => (!cardholder || c.cardholder === cardholder) && (!status || c.status === status),
      );
      const list = paginate(
        '/v1/issuing/cards',
        all.map((c) => renderIssuingCard(ctx, c)),
        req.params,
      );
      req.params.done();
      return { body: list };
    },
  },
  {
    method: 'POST',
    path: '/v1/issuing/cards/:id',
    handle(ctx, req) {
      const card = getIssuingCard(ctx, req.path.id as string);
      const p = req.params;
      const status = p.enum('status', ['active', 'inactive', 'canceled'] as const);
      const reason = p.enum('cancellation_reason', ['lost', 'stolen'] as const);
      const controls = readSpendingControls(p.object('spending_controls'));
      const metadata = p.metadata();
      p.done();
      if (status || controls) assertNotCanceled(card);
      const before = renderIssuingCard(ctx, card);
      if (status) card.status = status;
      if (status === 'canceled') card.cancellation_reason = reason ?? null;
      card.spending_controls = mergeControls(card.spending_controls, controls);
      card.metadata = applyMetadata(card.metadata, metadata);
      ctx.store.save();
      const after = renderIssuingCard(ctx, card);
      ctx.event('issuing_card.updated', after, { previous: changedFields(before, after), request: req.meta });
      return { body: after };
    },
  },
  {
    method: 'POST',
    path: '/v1/ephemeral_keys',
    handle(ctx, req) {
      const cardId = req.params.string('issuing_card', { required: true }) as string;
      req.params.string('nonce'); // Stripe.js sends one for Issuing Elements; nothing to check locally
      req.params.done();
      if (!req.stripeVersion) {
        throw invalidRequest('Stripe-Version header is required to create an ephemeral key.', undefined);
      }
      getIssuingCard(ctx, cardId, 'issuing_card');
      const created = ctx.now();
      const key: EphemeralKeyRecord = {
        id: newId('ephkey'),
        object: 'ephemeral_key',
        associated_objects: [{ id: cardId, type: 'issuing.card' }],
        created,
        expires: created + EPHEMERAL_KEY_SECONDS,
        livemode: false,
        secret: `ek_test_${randomBase62(96)}`,
      };
      ctx.state.ephemeralKeys[key.id] = key;
      // Expired keys are of no use to anyone: drop them as new ones are made.
      for (const [id, k] of Object.entries(ctx.state.ephemeralKeys))
        if (k.expires <= created) delete ctx.state.ephemeralKeys[id];
      ctx.store.save();
      return { body: key };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/ephemeral_keys/:id',
    handle(ctx, req) {
      req.params.done();
      const key = ctx.state.ephemeralKeys[req.path.id as string];
      if (!key) throw noSuch('ephemeral_key', req.path.id as string);
      key.expires = ctx.now();
      ctx.store.save();
      const { secret: _secret, ...shown } = key;
      return { body: shown };
    },
  },
];
