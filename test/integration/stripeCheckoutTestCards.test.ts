/**
 * The "Test cards" choice on the emulator's sandbox checkout: the active
 * Issuing cards, issued here through the real `stripe` SDK, are listed as
 * plain links (newest first), and GET /checkout?card=ic_... renders the form
 * with that card's number, expiry and CVC filled in on the server, so it
 * works without JavaScript. Cards that are not active, and unknown ids, fill
 * nothing in.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeEmulator, startStripeEmulator } from '../../infra/local/stripe';

let emulator: StripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startStripeEmulator({ port: 0, log: () => {}, webhookSecret: 'whsec_test_cards' });
  stripe = new Stripe('sk_test_checkout_test_cards', {
    host: '127.0.0.1',
    port: emulator.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
});

afterAll(async () => {
  await emulator?.stop();
});

async function issue(name: string, status: 'active' | 'inactive' = 'active') {
  const cardholder = await stripe.issuing.cardholders.create({
    type: 'individual',
    name,
    billing: {
      address: { line1: '1 Main St', city: 'Arlington', state: 'VA', postal_code: '22201', country: 'US' },
    },
  });
  return stripe.issuing.cards.create({ cardholder: cardholder.id, currency: 'usd', type: 'virtual', status });
}

async function checkout(query = '') {
  const res = await fetch(`${emulator.url}/checkout${query}`);
  return { res, html: await res.text() };
}

/** The value an input of the form is rendered with. */
function inputValue(html: string, id: string): string | undefined {
  const input = new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0];
  return input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
}

/** The test-card links, in page order. */
function links(html: string): { href: string; text: string; current: boolean }[] {
  const section = /<section class="test-cards"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  return [...section.matchAll(/<a href="([^"]*)"([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({
    href: m[1] as string,
    current: (m[2] as string).includes('aria-current="true"'),
    text: (m[3] as string).replace(/<[^>]+>/g, ''),
  }));
}

const expiry = (card: Stripe.Issuing.Card) =>
  `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;

describe('test cards on the sandbox checkout', () => {
  it('says how to get a card when none is active', async () => {
    const { res, html } = await checkout();
    expect(res.status).toBe(200);
    expect(html).toContain('<h2 id="test-cards-heading">Test cards</h2>');
    expect(html).toContain('No active issued cards yet');
    expect(links(html)).toEqual([]);
  });

  it('lists the active issued cards, newest first, as a labelled list of plain links', async () => {
    const first = await issue('Grace Hopper');
    const second = await issue('Ada <O’Brien> & Co');
    const inactive = await issue('Inactive Ivy', 'inactive');
    const canceled = await issue('Canceled Cal');
    await stripe.issuing.cards.update(canceled.id, { status: 'canceled' });

    const { res, html } = await checkout();
    expect(res.status).toBe(200);
    expect(html).toMatch(/<section class="test-cards" aria-labelledby="test-cards-heading">/);
    expect(html).toMatch(/<ul aria-labelledby="test-cards-heading"/);
    expect(links(html)).toEqual([
      {
        href: `/checkout?card=${second.id}`,
        text: `Ada &lt;O’Brien&gt; &amp; Co, Visa ending ${second.last4} ${second.id}`,
        current: false,
      },
      {
        href: `/checkout?card=${first.id}`,
        text: `Grace Hopper, Visa ending ${first.last4} ${first.id}`,
        current: false,
      },
    ]);
    expect(html).not.toContain(inactive.id);
    expect(html).not.toContain(canceled.id);
    // Nothing is filled in until a card is chosen.
    expect(inputValue(html, 'number')).toBe('');
    expect(inputValue(html, 'cvc')).toBe('');
    // Still a self-contained page: no scripts, no external resources.
    expect(html).not.toMatch(/<script|\son\w+=/i);
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('fills in the chosen card on the server, and the filled-in form pays with that card', async () => {
    const card = await issue('Katherine Johnson');
    const details = emulator.admin.cardDetails(card.id);
    const { res, html } = await checkout(`?card=${card.id}`);
    expect(res.status).toBe(200);
    expect(inputValue(html, 'number')?.replaceAll(' ', '')).toBe(details.number);
    expect(inputValue(html, 'exp')).toBe(expiry(card));
    expect(inputValue(html, 'cvc')).toBe(details.cvc);
    expect(links(html).filter((l) => l.current)).toEqual([
      {
        href: `/checkout?card=${card.id}`,
        text: `Katherine Johnson, Visa ending ${card.last4} ${card.id} (filled in below)`,
        current: true,
      },
    ]);

    // Submitting the form as rendered reaches the card and passes its checks (no webhook here, so
    // the product's answer is missing: webhook_error, not verification_failed).
    const paid = await fetch(`${emulator.url}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        number: inputValue(html, 'number') as string,
        exp: inputValue(html, 'exp') as string,
        cvc: inputValue(html, 'cvc') as string,
        merchant_name: 'Example Books',
        category: 'book_stores',
        amount: '1.00',
      }),
    });
    const result = await paid.text();
    expect(result).toContain(`Visa ending ${card.last4} (<code>${card.id}</code>)`);
    expect(result).toContain('<code>webhook_error</code>');
  });

  it('fills in nothing for an unknown, inactive or canceled card', async () => {
    const inactive = await issue('Dorothy Vaughan', 'inactive');
    const canceled = await issue('Mary Jackson');
    await stripe.issuing.cards.update(canceled.id, { status: 'canceled' });
    for (const id of ['ic_doesnotexist', inactive.id, canceled.id, '__proto__', '<b>x</b>']) {
      const { res, html } = await checkout(`?card=${encodeURIComponent(id)}`);
      expect(res.status).toBe(200);
      expect(inputValue(html, 'number')).toBe('');
      expect(inputValue(html, 'exp')).toBe('');
      expect(inputValue(html, 'cvc')).toBe('');
      expect(html).toMatch(
        /role="alert">(There is no issued card with that id|Card ic_\w+ is \w+, not active)/,
      );
      expect(html).not.toContain('<b>x</b>');
      expect(links(html).some((l) => l.current)).toBe(false);
    }
    // The other cards are still offered.
    expect(links((await checkout('?card=ic_doesnotexist')).html).length).toBeGreaterThan(0);
  });
});
