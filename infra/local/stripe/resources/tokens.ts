/**
 * POST /v1/tokens: the only call browsers make with a publishable key
 * (Stripe.js sends the key in the body as `key=pk_test_...`). Card details
 * are checked the way Stripe checks them at tokenization; how a test card
 * behaves later (declines) is kept with the card, not its number.
 */
import type Stripe from 'stripe';
import type { Route } from '../api';
import {
  behaviourOf,
  brandOf,
  type CardBehaviour,
  cvcValid,
  fundingOf,
  isExpired,
  luhnValid,
  magicTokens,
  normalizePan,
} from '../cardNumbers';
import type { EmulatorContext } from '../context';
import { cardError, invalidRequest, noSuch } from '../errors';
import { cardFingerprint, newId } from '../ids';
import type { Params } from '../params';

interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string;
  name?: string;
  address_line1?: string;
  address_line2?: string;
  address_city?: string;
  address_state?: string;
  address_zip?: string;
  address_country?: string;
}

function readCardInput(card: Params): CardInput {
  const input: CardInput = {
    number: normalizePan(card.string('number', { required: true }) as string),
    exp_month: card.integer('exp_month', { required: true }) as number,
    exp_year: card.integer('exp_year', { required: true }) as number,
    cvc: card.string('cvc'),
    name: card.string('name', { maxLength: 5000 }),
    address_line1: card.string('address_line1'),
    address_line2: card.string('address_line2'),
    address_city: card.string('address_city'),
    address_state: card.string('address_state'),
    address_zip: card.string('address_zip'),
    address_country: card.string('address_country'),
  };
  card.string('currency'); // accepted and ignored, as for debit cards used for payouts
  return input;
}

/** Stripe's tokenization checks, in Stripe's order, as 402 card errors. */
export function validateCard(input: CardInput, now: Date): void {
  if (!/^\d+$/.test(input.number)) {
    throw cardError('invalid_number', 'The card number is not a valid credit card number.', {
      param: 'number',
    });
  }
  if (!luhnValid(input.number)) {
    throw cardError('incorrect_number', 'Your card number is incorrect.', { param: 'number' });
  }
  if (input.exp_month < 1 || input.exp_month > 12) {
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", {
      param: 'exp_month',
    });
  }
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  if (year < now.getUTCFullYear() || year > now.getUTCFullYear() + 50) {
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", { param: 'exp_year' });
  }
  if (isExpired(input.exp_month, year, now)) {
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", {
      param: 'exp_month',
    });
  }
  if (input.cvc !== undefined && !cvcValid(input.cvc, brandOf(input.number))) {
    throw cardError('invalid_cvc', "Your card's security code is invalid.", { param: 'cvc' });
  }
}

/** A card object as a token carries it (no `customer` yet). */
function cardObject(input: CardInput): Stripe.Card {
  const brand = brandOf(input.number);
  return {
    id: newId('card'),
    object: 'card',
    address_city: input.address_city ?? null,
    address_country: input.address_country ?? null,
    address_line1: input.address_line1 ?? null,
    address_line1_check: input.address_line1 ? 'pass' : null,
    address_line2: input.address_line2 ?? null,
    address_state: input.address_state ?? null,
    address_zip: input.address_zip ?? null,
    address_zip_check: input.address_zip ? 'pass' : null,
    brand,
    country: 'US',
    cvc_check: input.cvc ? 'unchecked' : null,
    dynamic_last4: null,
    exp_month: input.exp_month,
    exp_year: input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year,
    fingerprint: cardFingerprint(input.number),
    funding: fundingOf(input.number),
    last4: input.number.slice(-4),
    metadata: {},
    name: input.name ?? null,
    networks: { preferred: null },
    regulated_status: 'unregulated',
    tokenization_method: null,
  };
}

export function createToken(ctx: EmulatorContext, input: CardInput, clientIp: string | null): Stripe.Token {
  validateCard(input, new Date(ctx.nowMs()));
  const card = cardObject(input);
  const token: Stripe.Token = {
    id: newId('tok'),
    object: 'token',
    card,
    client_ip: clientIp,
    created: ctx.now(),
    livemode: false,
    type: 'card',
    used: false,
  };
  ctx.state.tokens[token.id] = token;
  ctx.state.cardBehaviours[card.id] = behaviourOf(input.number);
  ctx.store.save();
  return token;
}

/**
 * Redeems a token for its card: a stored token once only, or one of Stripe's
 * test tokens (`tok_visa`, ...) any number of times, each time a new card.
 */
export function redeemToken(
  ctx: EmulatorContext,
  tokenId: string,
  param: string,
): { card: Stripe.Card; behaviour: CardBehaviour } {
  const magic = magicTokens[tokenId];
  if (magic) {
    const year = new Date(ctx.nowMs()).getUTCFullYear() + 3;
    const card = cardObject({ number: magic, exp_month: 12, exp_year: year, cvc: '123' });
    return { card, behaviour: behaviourOf(magic) };
  }
  const token = ctx.state.tokens[tokenId];
  if (!token?.card) throw invalidRequest(`No such token: '${tokenId}'`, param, 'resource_missing');
  if (token.used) {
    throw invalidRequest(
      `You cannot use a Stripe token more than once: ${tokenId}.`,
      param,
      'token_already_used',
    );
  }
  token.used = true;
  const behaviour = ctx.state.cardBehaviours[token.card.id] ?? { kind: 'ok' };
  return { card: structuredClone(token.card), behaviour };
}

export const tokenRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/tokens',
    publishable: true,
    handle(ctx, req) {
      const card = req.params.object('card', { required: true }) as Params;
      const input = readCardInput(card);
      req.params.string('key'); // Stripe.js sends the publishable key in the body; checked by the server
      req.params.string('guid');
      req.params.string('muid');
      req.params.string('sid');
      req.params.string('payment_user_agent');
      req.params.integer('time_on_page');
      req.params.done();
      return { body: createToken(ctx, input, req.clientIp) };
    },
  },
  {
    method: 'GET',
    path: '/v1/tokens/:id',
    handle(ctx, req) {
      req.params.done();
      const token = ctx.state.tokens[req.path.id as string];
      if (!token) throw noSuch('token', req.path.id as string);
      return { body: token };
    },
  },
];
