/**
 * The browser-facing pages: the sandbox merchant checkout (GET/POST
 * /checkout, GET /checkout/authorizations/:id) and the card-details frame
 * (GET /issuing-elements/card?card=ic_...&ephemeral_key=ek_test_...).
 * The checkout lists the active issued cards as plain links; GET
 * /checkout?card=ic_... renders the form with that card's number, expiry and
 * CVC filled in, so picking one works without JavaScript.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorAdmin } from './admin';
import { groupPan, normalizePan, parseExpiry } from './cardNumbers';
import { findCategory } from './categories';
import type { EmulatorContext } from './context';
import { parseForm } from './form';
import { parseDollars } from './money';
import type { CardNetwork } from './network';
import {
  authorizationPage,
  type CheckoutValues,
  cardDetailsFrame,
  checkoutPage,
  FRAME_SCRIPT_HASH,
  forbiddenFrame,
  messagePage,
  notFoundCardPage,
  type TestCardsSection,
} from './pages';
import { cardForEphemeralKey } from './resources/issuing';
import { newestFirst } from './store';

/** The checkout is the emulator's own page: it frames nothing and is framed by nothing. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The card-details frame is shown inside the product's pages, on whatever
 * local port they run: any loopback origin may frame it (no X-Frame-Options).
 * No IPv6 literal: CSP's host-source grammar has none, and Chrome logs
 * `http://[::1]:*` as an invalid source (the local stack serves on 127.0.0.1).
 */
const FRAME_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${FRAME_SCRIPT_HASH}; base-uri 'none'; form-action 'none'; frame-ancestors 'self' http://127.0.0.1:* http://localhost:*`;

function sendHtml(res: ServerResponse, status: number, html: string, csp = PAGE_CSP): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = parseForm(Buffer.concat(chunks).toString('utf8'));
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (typeof v === 'string') flat[k] = v;
  return flat;
}

/** The checkout lists this many test cards at most; `?card=` still fills in any active one. */
const MAX_TEST_CARDS = 20;

/** The active issued cards the checkout offers, newest first. */
function testCards(ctx: EmulatorContext, selected?: string, notice?: string): TestCardsSection {
  const active = newestFirst(ctx.state.issuingCards).filter(
    (card) => card.status === 'active' && ctx.state.issuingSecrets[card.id],
  );
  return {
    cards: active.slice(0, MAX_TEST_CARDS).map((card) => ({
      id: card.id,
      cardholderName: ctx.state.cardholders[card.cardholder]?.name ?? '',
      brand: card.brand,
      last4: card.last4,
    })),
    total: active.length,
    selected,
    notice,
  };
}

/** GET /checkout?card=ic_...: the form filled in with that card's details, if it is an active issued card. */
function prefilledCheckout(ctx: EmulatorContext, cardId: string | null): string {
  if (cardId === null) return checkoutPage({}, undefined, testCards(ctx));
  const card =
    /^ic_\w+$/.test(cardId) && Object.hasOwn(ctx.state.issuingCards, cardId)
      ? ctx.state.issuingCards[cardId]
      : undefined;
  const secret = card ? ctx.state.issuingSecrets[card.id] : undefined;
  if (!card || !secret || card.status !== 'active') {
    const why = card
      ? `Card ${card.id} is ${card.status}, not active`
      : 'There is no issued card with that id';
    return checkoutPage({}, undefined, testCards(ctx, undefined, `${why}: choose one of the cards below.`));
  }
  const exp = `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
  return checkoutPage(
    { number: groupPan(secret.number), exp, cvc: secret.cvc },
    undefined,
    testCards(ctx, card.id),
  );
}

/** Serves the pages; answers false when the path is not one of them. */
export async function handlePages(
  ctx: EmulatorContext,
  network: CardNetwork,
  admin: EmulatorAdmin,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (url.pathname === '/checkout' && method === 'GET') {
    sendHtml(res, 200, prefilledCheckout(ctx, url.searchParams.get('card')));
    return true;
  }
  if (url.pathname === '/checkout' && method === 'POST') {
    const form = await readForm(req);
    const values: CheckoutValues = {
      number: form.number,
      exp: form.exp,
      merchant_name: form.merchant_name,
      category: form.category,
      amount: form.amount,
    };
    const expiry = parseExpiry(form.exp ?? '');
    const amount = parseDollars(form.amount ?? '');
    const category = findCategory(form.category ?? '');
    const problem = !expiry
      ? 'Enter the expiry as MM/YY.'
      : !/^\d{3,4}$/.test(form.cvc ?? '')
        ? 'Enter the 3-digit CVC.'
        : !form.merchant_name?.trim()
          ? 'Enter a merchant name.'
          : !category
            ? 'Choose a merchant category.'
            : amount === undefined
              ? 'Enter an amount in dollars, such as 12.50.'
              : undefined;
    if (problem || !expiry || !category || amount === undefined) {
      sendHtml(res, 400, checkoutPage(values, problem, testCards(ctx)));
      return true;
    }
    const outcome = await network.authorize({
      number: normalizePan(form.number ?? ''),
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: form.cvc ?? '',
      amount,
      merchant: { name: (form.merchant_name ?? '').trim(), category: category.name },
    });
    if (!outcome.authorization) {
      sendHtml(res, 200, notFoundCardPage(outcome.message));
      return true;
    }
    // Show the capture that follows an approval, rather than a page that is stale at once.
    if (outcome.approved) await admin.idle();
    const auth = network.renderAuthorization(network.getAuthorization(outcome.authorization.id));
    sendHtml(res, 200, authorizationPage(outcome, auth));
    return true;
  }
  const shown = /^\/checkout\/authorizations\/(iauth_\w+)$/.exec(url.pathname);
  if (shown && method === 'GET') {
    const record = ctx.state.authorizations[shown[1] as string];
    if (!record) sendHtml(res, 404, messagePage('Not found', 'No such authorization.'));
    else sendHtml(res, 200, authorizationPage(undefined, network.renderAuthorization(record)));
    return true;
  }
  if (url.pathname === '/issuing-elements/card' && method === 'GET') {
    const cardId = url.searchParams.get('card') ?? '';
    const key = url.searchParams.get('ephemeral_key') ?? '';
    if (!cardForEphemeralKey(ctx, key, cardId)) {
      sendHtml(
        res,
        403,
        forbiddenFrame('Card details are unavailable: the key is missing, expired, or for another card.'),
        FRAME_CSP,
      );
      return true;
    }
    const card = ctx.state.issuingCards[cardId];
    const secret = ctx.state.issuingSecrets[cardId];
    if (!card || !secret) {
      sendHtml(res, 404, forbiddenFrame('No such card.'), FRAME_CSP);
      return true;
    }
    sendHtml(
      res,
      200,
      cardDetailsFrame({
        number: secret.number,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        cvc: secret.cvc,
      }),
      FRAME_CSP,
    );
    return true;
  }
  return false;
}
