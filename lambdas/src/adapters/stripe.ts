/**
 * Stripe, through the official SDK only, behind one port. Billing (the team's
 * customer, cards on file, charges, refunds) and Issuing (cardholders, virtual
 * cards, spending controls, ephemeral keys). Webhook signatures are checked
 * without the SDK (stripeSignature.ts), the keys read in stripeKeys.ts. Locally
 * the SDK talks to infra/local/stripe (STRIPE_API_URL); nothing else differs.
 *
 * Money is integer cents in and out. Calls that create or move anything take an
 * idempotency key, so a retried request creates or charges once.
 */

import { LEARNING_CATEGORIES } from '@shared/domain/spendPolicy';
import Stripe from 'stripe';
import { stripeConfig } from '../platform/config';
import { readStripeKey } from './stripeKeys';
import { STRIPE_API_VERSION } from './stripeVersion';

let client: Stripe | undefined;

export async function stripe(): Promise<Stripe> {
  if (!client) {
    const secretKey = await readStripeKey('secretKey');
    const local = stripeConfig().STRIPE_API_URL;
    const url = local ? new URL(local) : undefined;
    client = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
      ...(url
        ? { host: url.hostname, port: url.port, protocol: url.protocol.replace(':', '') as 'http' | 'https' }
        : {}),
    });
  }
  return client;
}

// --- Billing --------------------------------------------------------------------

export interface CardOnFile {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

function cardOnFile(source: Stripe.CustomerSource | Stripe.Card): CardOnFile {
  const card = source as Stripe.Card;
  return {
    id: card.id,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
}

/** A card error the customer should see (declined, expired, ...), as opposed to an outage. */
export class CardDeclined extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

function asCardDeclined(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError)
    throw new CardDeclined(error.message, error.decline_code ?? error.code);
  throw error;
}

/** Stripe answered with an error or could not be reached (an outage, a timeout), as opposed to our own failure. */
export function isStripeFailure(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError;
}

export async function createCustomer(
  args: { teamId: string; email: string; name: string; token: string },
  idempotencyKey: string,
): Promise<string> {
  try {
    const customer = await (await stripe()).customers.create(
      { email: args.email, name: args.name, source: args.token, metadata: { teamId: args.teamId } },
      { idempotencyKey },
    );
    return customer.id;
  } catch (error) {
    asCardDeclined(error);
  }
}

export async function addCard(
  customerId: string,
  token: string,
  idempotencyKey: string,
): Promise<CardOnFile> {
  try {
    return cardOnFile(
      await (await stripe()).customers.createSource(customerId, { source: token }, { idempotencyKey }),
    );
  } catch (error) {
    asCardDeclined(error);
  }
}

export async function listCards(
  customerId: string,
): Promise<{ cards: CardOnFile[]; defaultCardId: string | null }> {
  const s = await stripe();
  const [customer, sources] = await Promise.all([
    s.customers.retrieve(customerId),
    s.customers.listSources(customerId, { object: 'card', limit: 100 }),
  ]);
  const defaultSource =
    'deleted' in customer && customer.deleted ? null : (customer as Stripe.Customer).default_source;
  return {
    cards: sources.data.map(cardOnFile),
    defaultCardId: typeof defaultSource === 'string' ? defaultSource : (defaultSource?.id ?? null),
  };
}

export async function setDefaultCard(customerId: string, cardId: string): Promise<void> {
  await (await stripe()).customers.update(customerId, { default_source: cardId });
}

export async function deleteCard(customerId: string, cardId: string): Promise<void> {
  await (await stripe()).customers.deleteSource(customerId, cardId);
}

/** The card a charge went to, as the card on file names it ("Visa", "4242"); never more of the number. */
export interface ChargedCard {
  brand: string;
  last4: string;
}

/** The charged card of a charge: its source card (brand as the cards on file say it), else its payment method. */
export function chargedCard(charge: Stripe.Charge): ChargedCard | undefined {
  const source = charge.source as Stripe.Card | null;
  if (source?.object === 'card' && source.last4) return { brand: source.brand, last4: source.last4 };
  const card = charge.payment_method_details?.card;
  return card?.last4 ? { brand: card.brand ?? 'Card', last4: card.last4 } : undefined;
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string; card?: ChargedCard }
  | { status: 'declined'; code?: string; message: string };

/** How many of a customer's newest charges are searched for one already made for a purpose. */
const CHARGE_LOOKBACK = 300;

/**
 * The customer's succeeded charge made for `purpose`, if any. Stripe keeps an
 * idempotency key for 24 hours only; this lookup is what makes a retry days
 * later (a crashed monthly run, a member funded after a card update) find the
 * money already taken instead of charging again.
 */
export async function succeededChargeFor(customerId: string, purpose: string): Promise<string | undefined> {
  return (await succeededCharge(customerId, purpose))?.id;
}

async function succeededCharge(customerId: string, purpose: string): Promise<Stripe.Charge | undefined> {
  let seen = 0;
  for await (const c of (await stripe()).charges.list({ customer: customerId, limit: 100 })) {
    if (c.status === 'succeeded' && c.metadata?.purpose === purpose) return c;
    if (++seen >= CHARGE_LOOKBACK) break;
  }
  return undefined;
}

/**
 * Charges the customer's default card for `purpose` (what it pays for, e.g.
 * `JOIN#<user>`), once: a succeeded charge for the same purpose is returned
 * rather than repeated. `attemptKey` is Stripe's idempotency key for this try;
 * give a declined purpose a new attempt key to try again. A decline is a
 * result, not an exception.
 */
export async function charge(
  args: {
    customerId: string;
    amountCents: number;
    description: string;
    purpose: string;
    metadata: Record<string, string>;
  },
  attemptKey: string,
): Promise<ChargeResult> {
  const earlier = await succeededCharge(args.customerId, args.purpose);
  if (earlier) return succeeded(earlier);
  try {
    const result = await (await stripe()).charges.create(
      {
        customer: args.customerId,
        amount: args.amountCents,
        currency: 'usd',
        description: args.description,
        metadata: { ...args.metadata, purpose: args.purpose },
      },
      { idempotencyKey: attemptKey },
    );
    if (result.status === 'succeeded') return succeeded(result);
    return {
      status: 'declined',
      message: result.failure_message ?? 'The card was declined.',
      code: result.failure_code ?? undefined,
    };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      return { status: 'declined', message: error.message, code: error.decline_code ?? error.code };
    }
    throw error;
  }
}

function succeeded(charge: Stripe.Charge): ChargeResult {
  const card = chargedCard(charge);
  return { status: 'succeeded', chargeId: charge.id, ...(card ? { card } : {}) };
}

/**
 * Refunds part of a charge for `purpose`, once: a refund of the charge already
 * made for the same purpose is returned rather than repeated (beyond Stripe's
 * 24-hour idempotency window too).
 */
export async function refund(args: {
  chargeId: string;
  amountCents: number;
  purpose: string;
  metadata: Record<string, string>;
}): Promise<string> {
  const s = await stripe();
  for await (const r of s.refunds.list({ charge: args.chargeId, limit: 100 })) {
    if (r.metadata?.purpose === args.purpose && r.status !== 'failed' && r.status !== 'canceled') return r.id;
  }
  const result = await s.refunds.create(
    {
      charge: args.chargeId,
      amount: args.amountCents,
      metadata: { ...args.metadata, purpose: args.purpose },
    },
    { idempotencyKey: args.purpose },
  );
  return result.id;
}

// --- Issuing --------------------------------------------------------------------

/**
 * Merchant categories a learning budget is for (shared/src/domain/spendPolicy.ts),
 * mirrored into every card's spending controls; the webhook applies the same rule.
 */
export { LEARNING_CATEGORIES };

export interface IssuedCard {
  cardId: string;
  cardholderId: string;
  last4: string;
  expMonth: number;
  expYear: number;
  status: 'active' | 'inactive' | 'canceled';
}

export async function issueVirtualCard(
  args: {
    userId: string;
    teamId: string;
    name: string;
    email: string;
    billing: { line1: string; city: string; state: string; postalCode: string };
    spendingLimitCents: number;
  },
  idempotencyKey: string,
): Promise<IssuedCard> {
  const s = await stripe();
  const holder = await s.issuing.cardholders.create(
    {
      type: 'individual',
      name: args.name,
      email: args.email,
      status: 'active',
      billing: {
        address: {
          line1: args.billing.line1,
          city: args.billing.city,
          state: args.billing.state,
          postal_code: args.billing.postalCode,
          country: 'US',
        },
      },
      metadata: { userId: args.userId, teamId: args.teamId },
    },
    { idempotencyKey: `${idempotencyKey}:cardholder` },
  );
  const card = await s.issuing.cards.create(
    {
      cardholder: holder.id,
      currency: 'usd',
      type: 'virtual',
      status: 'active',
      spending_controls: {
        spending_limits: [{ amount: args.spendingLimitCents, interval: 'all_time' }],
        allowed_categories: [
          ...LEARNING_CATEGORIES,
        ] as Stripe.Issuing.CardCreateParams.SpendingControls.AllowedCategory[],
      },
      metadata: { userId: args.userId, teamId: args.teamId },
    },
    { idempotencyKey: `${idempotencyKey}:card` },
  );
  return {
    cardId: card.id,
    cardholderId: holder.id,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    status: card.status as IssuedCard['status'],
  };
}

export async function setCardStatus(
  cardId: string,
  status: 'active' | 'inactive' | 'canceled',
): Promise<void> {
  await (await stripe()).issuing.cards.update(cardId, { status });
}

/** The backstop: the card can never spend more, over its lifetime, than was ever put on it. */
export async function setSpendingLimit(cardId: string, lifetimeLimitCents: number): Promise<void> {
  await (await stripe()).issuing.cards.update(cardId, {
    spending_controls: {
      spending_limits: [{ amount: lifetimeLimitCents, interval: 'all_time' }],
      allowed_categories: [
        ...LEARNING_CATEGORIES,
      ] as Stripe.Issuing.CardUpdateParams.SpendingControls.AllowedCategory[],
    },
  });
}

/** A short-lived key that lets the card owner's browser show the card in the issuer's frame. */
export async function createCardKey(
  cardId: string,
  nonce?: string,
): Promise<{ secret: string; expires: number }> {
  const key = await (await stripe()).ephemeralKeys.create(
    { issuing_card: cardId, ...(nonce ? { nonce } : {}) },
    { apiVersion: STRIPE_API_VERSION },
  );
  return { secret: key.secret ?? '', expires: key.expires };
}
