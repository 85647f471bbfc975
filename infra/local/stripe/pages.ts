/**
 * The emulator's HTML: the sandbox merchant checkout, its result page with the
 * network controls, and the card-details frame that stands in for Stripe
 * Issuing Elements. Self-contained pages: inline CSS, no external resources,
 * no scripts but the frame's copy buttons (allowed by hash). Every value shown
 * is escaped.
 */
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { groupPan } from './cardNumbers';
import { merchantCategories } from './categories';
import { formatCents } from './money';
import { describeReason } from './network';

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const styles = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f6f8fa; color: #1a1f36; }
  main { max-width: 40rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; }
  h1 { font-size: 1.5rem; margin-top: 0; }
  h2 { font-size: 1.15rem; margin-top: 2rem; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  .hint { font-weight: 400; color: #57606a; font-size: .9rem; }
  input, select { font: inherit; padding: .5rem; width: 100%; box-sizing: border-box; border: 1px solid #8c959f; border-radius: 4px; }
  input:focus, select:focus, button:focus { outline: 3px solid #0969da; outline-offset: 1px; }
  a:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; border-radius: 2px; }
  .test-cards { margin-bottom: 1.5rem; }
  .test-cards ul { list-style: none; padding: 0; margin: .5rem 0 0; }
  .test-cards li { margin: .25rem 0; }
  .test-cards a { display: inline-block; padding: .35rem .5rem; border: 1px solid #d0d7de; border-radius: 4px; color: #0a2540; }
  .test-cards a:hover { background: #f6f8fa; }
  .test-cards a[aria-current="true"] { border-color: #0969da; background: #ddf4ff; font-weight: 600; }
  .row { display: flex; gap: 1rem; } .row > div { flex: 1; }
  button { font: inherit; margin-top: 1.25rem; padding: .6rem 1.2rem; border: 0; border-radius: 4px; background: #0a2540; color: #fff; cursor: pointer; }
  .inline { display: flex; gap: .5rem; align-items: end; flex-wrap: wrap; margin-top: .5rem; }
  .inline label { margin-top: 0; } .inline input { width: 9rem; } .inline button { margin-top: 0; }
  .approved { color: #116329; } .declined { color: #a40e26; }
  .error { border-left: 4px solid #a40e26; padding: .5rem 1rem; background: #ffebe9; }
  table { border-collapse: collapse; width: 100%; margin-top: 1rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
  th { width: 40%; font-weight: 600; }
  code { font-size: .9em; }
  footer { margin-top: 2rem; font-size: .9rem; color: #57606a; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${body}
<footer>Local Stripe emulator: a sandbox, no real money moves. <a href="/checkout">New payment</a> · <a href="/_emulator/events">Events (JSON)</a></footer>
</main>
</body>
</html>`;
}

export interface CheckoutValues {
  number?: string;
  exp?: string;
  cvc?: string;
  merchant_name?: string;
  category?: string;
  amount?: string;
}

/** An active issued card offered on the checkout, so nobody has to look its number up. */
export interface TestCardChoice {
  id: string;
  cardholderName: string;
  brand: string;
  last4: string;
}

export interface TestCardsSection {
  /** Newest first; at most the ones to show. */
  cards: readonly TestCardChoice[];
  /** How many active cards there are in all (more than `cards.length` when the list is cut short). */
  total: number;
  /** The card whose details fill the form. */
  selected?: string;
  /** Said when `?card=` named no active issued card. */
  notice?: string;
}

function testCardsSection(section: TestCardsSection): string {
  const items = section.cards
    .map((card) => {
      const current = card.id === section.selected;
      return `<li><a href="/checkout?card=${encodeURIComponent(card.id)}"${current ? ' aria-current="true"' : ''}>${escapeHtml(card.cardholderName || 'Unnamed cardholder')}, ${escapeHtml(card.brand)} ending ${escapeHtml(card.last4)} <code>${escapeHtml(card.id)}</code>${current ? ' (filled in below)' : ''}</a></li>`;
    })
    .join('');
  const more =
    section.total > section.cards.length
      ? `<p class="hint">The ${section.cards.length} newest of ${section.total} active cards. Any other one can be opened with <code>/checkout?card=ic_...</code>.</p>`
      : '';
  const list = items
    ? `<p class="hint" id="test-cards-hint">Choose one of the emulator's active issued cards to fill in its number, expiry and security code.</p>
<ul aria-labelledby="test-cards-heading" aria-describedby="test-cards-hint">${items}</ul>${more}`
    : `<p class="hint">No active issued cards yet. Issue one through the API (<code>stripe.issuing.cards.create</code> with <code>status: 'active'</code>); <code>npm start</code> issues one to the demo employee.</p>`;
  return `<section class="test-cards" aria-labelledby="test-cards-heading">
<h2 id="test-cards-heading">Test cards</h2>
${section.notice ? `<p class="error" role="alert">${escapeHtml(section.notice)}</p>` : ''}
${list}
</section>`;
}

export function checkoutPage(
  values: CheckoutValues = {},
  error?: string,
  testCards: TestCardsSection = { cards: [], total: 0 },
): string {
  const options = (learning: boolean) =>
    merchantCategories
      .filter((c) => c.learning === learning)
      .map(
        (c) =>
          `<option value="${c.name}"${values.category === c.name ? ' selected' : ''}>${escapeHtml(c.label)} (${c.name}, MCC ${c.code})</option>`,
      )
      .join('');
  return page(
    'Sandbox merchant checkout',
    `<h1>Sandbox merchant checkout</h1>
<p>Pay at a pretend merchant with a virtual card issued by the emulator. The payment runs through Stripe Issuing's
authorization flow: card checks, spending controls, then the product's real-time webhook.</p>
${testCardsSection(testCards)}
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/checkout">
  <fieldset style="border:0;padding:0;margin:0">
    <legend><h2 style="margin:0">Card</h2></legend>
    <label for="number">Card number</label>
    <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required value="${escapeHtml(values.number)}">
    <div class="row">
      <div><label for="exp">Expiry <span class="hint">(MM/YY)</span></label>
      <input id="exp" name="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required value="${escapeHtml(values.exp)}"></div>
      <div><label for="cvc">CVC</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required value="${escapeHtml(values.cvc)}"></div>
    </div>
  </fieldset>
  <fieldset style="border:0;padding:0;margin:0">
    <legend><h2>Purchase</h2></legend>
    <label for="merchant_name">Merchant name</label>
    <input id="merchant_name" name="merchant_name" required value="${escapeHtml(values.merchant_name ?? 'Example Books')}">
    <label for="category">Merchant category</label>
    <select id="category" name="category">
      <optgroup label="Learning">${options(true)}</optgroup>
      <optgroup label="Not learning">${options(false)}</optgroup>
    </select>
    <label for="amount">Amount <span class="hint">(US dollars, e.g. 12.50)</span></label>
    <input id="amount" name="amount" inputmode="decimal" required value="${escapeHtml(values.amount)}">
  </fieldset>
  <button type="submit">Pay</button>
</form>`,
  );
}

function row(label: string, value: string): string {
  return `<tr><th scope="row">${escapeHtml(label)}</th><td>${value}</td></tr>`;
}

function amountForm(
  action: string,
  label: string,
  returnTo: string,
  id: string,
  placeholder: string,
): string {
  return `<form method="post" action="${escapeHtml(action)}" class="inline">
  <input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">
  <div><label for="${id}">Amount <span class="hint">(USD, blank for all)</span></label>
  <input id="${id}" name="amount_dollars" inputmode="decimal" placeholder="${escapeHtml(placeholder)}"></div>
  <button type="submit">${escapeHtml(label)}</button>
</form>`;
}

/** After a payment, and at /checkout/authorizations/:id: where it stands and what the network may do next. */
export function authorizationPage(
  outcome: { approved: boolean; message: string; reason: string } | undefined,
  auth: Stripe.Issuing.Authorization,
): string {
  const last = auth.request_history.at(-1);
  const approved = outcome?.approved ?? auth.approved;
  const reason = outcome?.message ?? (last ? describeReason(last.reason) : 'Awaiting a decision.');
  const returnTo = `/checkout/authorizations/${auth.id}`;
  const requested = last?.amount ?? auth.pending_request?.amount ?? 0;
  const metadata = Object.entries(auth.metadata);
  const controls =
    auth.approved && auth.status === 'pending'
      ? `<h2>Network controls</h2>
<p>What the merchant's side of the network may do next. Each sends the webhook events Stripe would.</p>
${amountForm(`/_emulator/authorizations/${auth.id}/capture`, 'Capture', returnTo, 'capture-amount', formatCents(auth.amount))}
${amountForm(`/_emulator/authorizations/${auth.id}/reverse`, 'Reverse', returnTo, 'reverse-amount', formatCents(auth.amount))}
<form method="post" action="/_emulator/authorizations/${escapeHtml(auth.id)}/expire" class="inline">
  <input type="hidden" name="return_to" value="${escapeHtml(returnTo)}"><button type="submit">Expire (release the hold)</button>
</form>`
      : auth.approved && auth.status === 'expired'
        ? `<h2>Network controls</h2>${amountForm(`/_emulator/authorizations/${auth.id}/capture`, 'Capture late', returnTo, 'capture-amount', formatCents(auth.amount))}`
        : '';
  const transactions = auth.transactions
    .map((tx) => {
      const refund =
        tx.type === 'capture'
          ? amountForm(
              `/_emulator/transactions/${tx.id}/refund`,
              'Refund',
              returnTo,
              `refund-${tx.id}`,
              formatCents(-tx.amount),
            )
          : '';
      return `<li><code>${escapeHtml(tx.id)}</code>: ${escapeHtml(tx.type)} ${escapeHtml(formatCents(tx.amount))}${refund}</li>`;
    })
    .join('');
  return page(
    approved ? 'Approved' : 'Declined',
    `<h1 class="${approved ? 'approved' : 'declined'}" id="result">${approved ? 'Approved' : 'Declined'}</h1>
<p role="status">${escapeHtml(reason)}</p>
<table>
${row('Amount', escapeHtml(formatCents(requested)))}
${row('Merchant', `${escapeHtml(auth.merchant_data.name)} (<code>${escapeHtml(auth.merchant_data.category)}</code>)`)}
${row('Card', `${escapeHtml(auth.card.brand)} ending ${escapeHtml(auth.card.last4)} (<code>${escapeHtml(auth.card.id)}</code>)`)}
${row('Authorization', `<code>${escapeHtml(auth.id)}</code>`)}
${row('Status', `${escapeHtml(auth.status)}${auth.approved ? `, holding ${escapeHtml(formatCents(auth.status === 'pending' ? auth.amount : 0))}` : ''}`)}
${last ? row('Reason code', `<code>${escapeHtml(last.reason)}</code>`) : ''}
${metadata.length ? row('Metadata from the product', metadata.map(([k, v]) => `<code>${escapeHtml(k)}</code>: ${escapeHtml(v)}`).join('<br>')) : ''}
</table>
${transactions ? `<h2>Transactions</h2><ul>${transactions}</ul>` : ''}
${controls}
<p><a href="${escapeHtml(returnTo)}">Refresh</a></p>`,
  );
}

export function notFoundCardPage(message: string): string {
  return page(
    'Declined',
    `<h1 class="declined" id="result">Declined</h1><p role="status">${escapeHtml(message)}</p><p><a href="/checkout">Try again</a></p>`,
  );
}

export function messagePage(title: string, message: string, back = '/checkout'): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(back)}">Back</a></p>`,
  );
}

export function indexPage(baseUrl: string): string {
  return page(
    'Local Stripe emulator',
    `<h1>Local Stripe emulator</h1>
<p>Point the <code>stripe</code> SDK here with <code>{ host: '127.0.0.1', port: ${escapeHtml(new URL(baseUrl).port)}, protocol: 'http' }</code>.</p>
<ul>
<li><a href="/checkout">Sandbox merchant checkout</a>: pay with an issued virtual card.</li>
<li><a href="/_emulator/events">Events sent</a> (JSON) and <a href="/_emulator/deliveries">webhook deliveries</a>.</li>
</ul>`,
  );
}

/** Stands in for Stripe Issuing Elements: the card's details, for its holder only. */
/**
 * The frame's one script: copy buttons, as Stripe's `issuingCardCopyButton`
 * element offers. It copies inside the frame (the number never leaves it),
 * shows 'Copied!' on the button for 1 second, and tells the parent page only
 * which field was copied, and its own height so the parent can size the frame.
 * Allowed by its hash in the frame's CSP (FRAME_SCRIPT_HASH).
 */
const FRAME_SCRIPT = `(function () {
  function legacyCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand('copy');
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }
  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).catch(function () { return legacyCopy(text); });
    }
    return legacyCopy(text);
  }
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var label = button.textContent;
    var timer;
    button.addEventListener('click', function () {
      var field = button.getAttribute('data-copy');
      var text = document.getElementById(field).getAttribute('data-value');
      copy(text).then(function () {
        button.textContent = 'Copied!';
        clearTimeout(timer);
        timer = setTimeout(function () { button.textContent = label; }, 1000);
        parent.postMessage({ type: 'issuing_card_copy', field: field, copied: true }, '*');
      }, function () {
        parent.postMessage({ type: 'issuing_card_copy', field: field, copied: false }, '*');
      });
    });
  });
  function size() {
    var height = Math.ceil(document.querySelector('.card').getBoundingClientRect().height);
    parent.postMessage({ type: 'issuing_card_size', height: height }, '*');
  }
  size();
  if (window.ResizeObserver) new ResizeObserver(size).observe(document.body);
})();`;

export const FRAME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(FRAME_SCRIPT).digest('base64')}'`;

/**
 * The card-details frame, standing in for Stripe Issuing Elements: number,
 * expiry and CVC, each with a copy button, and nothing else (Stripe's elements
 * show no name or address; the product shows those from its own records).
 */
export function cardDetailsFrame(details: {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}): string {
  const exp = `${String(details.expMonth).padStart(2, '0')}/${String(details.expYear % 100).padStart(2, '0')}`;
  const row = (id: string, label: string, shown: string, value: string, copyLabel: string) =>
    `<div class="row"><div><span class="label" id="${id}-label">${label}</span>
<span class="value" id="${id}" data-value="${escapeHtml(value)}" aria-labelledby="${id}-label ${id}">${escapeHtml(shown)}</span></div>
<button type="button" data-copy="${id}">${copyLabel}</button></div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<style>
  html, body { margin: 0; background: transparent; }
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #fff; }
  .card { background: linear-gradient(135deg, #0a2540, #3f4b8c); border-radius: 12px; padding: 1rem 1.25rem; }
  .row { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .4rem .75rem; padding: .4rem 0; }
  .row + .row { border-top: 1px solid rgba(255, 255, 255, .2); }
  .label { display: block; font-size: .8rem; }
  .value { display: block; font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 1.1rem; letter-spacing: .05em; user-select: all; white-space: nowrap; }
  button { font: inherit; font-size: .85rem; font-weight: 600; min-width: 5.5rem; min-height: 2.25rem; padding: .35rem .75rem; border: 0; border-radius: 6px; background: #fff; color: #0a2540; cursor: pointer; }
  button { white-space: nowrap; }
  button:focus-visible { outline: 3px solid #ffd33d; outline-offset: 2px; }
  @media (max-width: 360px) {
    .card { padding: .75rem .9rem; }
    .value { font-size: 1rem; letter-spacing: .02em; }
    button { min-width: 0; padding: .35rem .6rem; }
  }
</style>
</head>
<body>
<section class="card" aria-label="Virtual card number, expiry and CVC">
${row('number', 'Card number', groupPan(details.number), details.number, 'Copy number')}
${row('expiry', 'Expiry (MM/YY)', exp, exp, 'Copy expiry')}
${row('cvc', 'CVC', details.cvc, details.cvc, 'Copy CVC')}
</section>
<script>${FRAME_SCRIPT}</script>
</body>
</html>`;
}

export function forbiddenFrame(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card details unavailable</title></head>
<body><p role="alert" style="font-family:system-ui,sans-serif">${escapeHtml(message)}</p></body></html>`;
}
