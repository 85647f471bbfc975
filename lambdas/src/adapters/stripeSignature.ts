/**
 * Stripe's webhook signature, checked with node:crypto rather than the SDK's
 * `constructEvent`: the check is a few lines, and the SDK would put the whole
 * Stripe client (~240 KB minified) into the authorization webhook's bundle,
 * whose cold start counts against Stripe's 2-second window (docs/decisions.md
 * "The authorization bundle"). test/unit/stripeSignature.test.ts holds it to
 * headers made by the SDK itself.
 *
 * Stripe's scheme (docs.stripe.com/webhooks/signature): the header is
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>...][,v0=...]`; each v1 is
 * HMAC-SHA256(secret, `${t}.${raw body}`), several while a secret is rolled.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import { readStripeKey } from './stripeKeys';

/** Stripe's default tolerance: a signature more than 5 minutes from now is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Why a delivery was refused; the caller answers every one the same way (400). */
export class SignatureRefused extends Error {}

/** An HMAC-SHA256 digest as Stripe writes it: 64 lowercase hex digits. */
const HEX_DIGEST = /^[0-9a-f]{64}$/;

interface SignatureHeader {
  timestamp: number;
  signatures: string[];
}

function parseHeader(header: string): SignatureHeader {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    // Other schemes (v0 is Stripe's test-mode scheme) prove nothing here.
    else if (name === 'v1') signatures.push(value);
  }
  return { timestamp, signatures };
}

/**
 * Throws SignatureRefused unless one v1 signature is the secret's over
 * `${t}.${rawBody}` and t is within the tolerance of `nowSeconds`, either side
 * (Stripe checks only the past; a future stamp this far out is not a clock skew).
 */
export function checkStripeSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): void {
  if (!header) throw new SignatureRefused('No Stripe-Signature header');
  if (!rawBody) throw new SignatureRefused('No payload');
  const { timestamp, signatures } = parseHeader(header);
  if (!Number.isFinite(timestamp)) throw new SignatureRefused('No timestamp in the header');
  if (signatures.length === 0) throw new SignatureRefused('No v1 signature in the header');
  // A misconfigured (empty) secret is our fault, not the sender's: an error, not a refusal.
  if (!secret.trim()) throw new Error('The webhook signing secret is empty');
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest();
  // Compared in constant time, every one of them: where a match was found must not show in the timing.
  let matched = false;
  for (const signature of signatures) {
    // Buffer.from(…, 'hex') would quietly drop what follows the hex digits: only a whole digest counts.
    if (!HEX_DIGEST.test(signature)) continue;
    const given = Buffer.from(signature, 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new SignatureRefused('No signature matches the payload');
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    throw new SignatureRefused('Timestamp outside the tolerance');
}

/**
 * The event in a verified delivery. Throws on a tampered, stale or unsigned
 * payload. Stripe's event is trusted as the type its API version promises
 * once signed, as the SDK's constructEvent does.
 */
export async function verifyWebhook(rawBody: string, header: string | undefined): Promise<Stripe.Event> {
  if (!header) throw new SignatureRefused('No Stripe-Signature header');
  const secret = await readStripeKey('webhookSecret');
  // The real clock, not the product's (which the local stack can move): Stripe signs with its own.
  checkStripeSignature(rawBody, header, secret, Math.floor(Date.now() / 1000));
  return JSON.parse(rawBody) as Stripe.Event;
}
