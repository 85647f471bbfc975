/**
 * The webhook's own signature check (adapters/stripeSignature.ts) against
 * headers made by the real Stripe SDK, so the two cannot drift apart: what the
 * SDK signs passes, and each way of getting it wrong is refused.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkStripeSignature,
  SignatureRefused,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../../lambdas/src/adapters/stripeSignature';
import { STRIPE_API_VERSION } from '../../lambdas/src/adapters/stripeVersion';

const sdk = new Stripe('sk_test_unused');
const secret = 'whsec_test_signing_secret';
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'issuing_authorization.request' });
const now = 1_900_000_000;

function signed(args: { payload?: string; secret?: string; timestamp?: number } = {}): string {
  return sdk.webhooks.generateTestHeaderString({
    payload: args.payload ?? payload,
    secret: args.secret ?? secret,
    timestamp: args.timestamp ?? now,
  });
}

/** The v1 value of an SDK-made header. */
const v1Of = (header: string) =>
  header
    .split(',')
    .find((p) => p.startsWith('v1='))
    ?.slice(3) ?? '';

describe('checkStripeSignature', () => {
  it('accepts what the SDK signs, and the SDK accepts the same header', () => {
    const header = signed();
    expect(() => checkStripeSignature(payload, header, secret, now)).not.toThrow();
    expect(sdk.webhooks.constructEvent(payload, header, secret, 300, undefined, now * 1000).id).toBe('evt_1');
  });

  it('refuses a header signed with another secret', () => {
    expect(() => checkStripeSignature(payload, signed({ secret: 'whsec_other' }), secret, now)).toThrow(
      SignatureRefused,
    );
  });

  it('refuses a body changed after signing, by one character', () => {
    const tampered = payload.replace('evt_1', 'evt_2');
    expect(() => checkStripeSignature(tampered, signed(), secret, now)).toThrow(SignatureRefused);
  });

  it('refuses a right digest with anything after it (not only whole hex digests count)', () => {
    const header = signed();
    const padded = header.replace(`v1=${v1Of(header)}`, `v1=${v1Of(header)}zz`);
    expect(() => checkStripeSignature(payload, padded, secret, now)).toThrow(SignatureRefused);
  });

  it('takes an empty signing secret for a fault of ours, not a refusal of the sender', () => {
    const header = signed({ secret: '' });
    expect(() => checkStripeSignature(payload, header, '', now)).toThrow(
      'The webhook signing secret is empty',
    );
    expect(() => checkStripeSignature(payload, header, '', now)).not.toThrow(SignatureRefused);
  });

  it('refuses a body with whitespace added (the raw body is what is signed)', () => {
    expect(() => checkStripeSignature(`${payload}\n`, signed(), secret, now)).toThrow(SignatureRefused);
  });

  it('accepts a signature up to the tolerance old and refuses one a second older', () => {
    const header = signed({ timestamp: now - WEBHOOK_TOLERANCE_SECONDS });
    expect(() => checkStripeSignature(payload, header, secret, now)).not.toThrow();
    const stale = signed({ timestamp: now - WEBHOOK_TOLERANCE_SECONDS - 1 });
    expect(() => checkStripeSignature(payload, stale, secret, now)).toThrow(
      'Timestamp outside the tolerance',
    );
    // The SDK draws the line at the same second.
    expect(() => sdk.webhooks.constructEvent(payload, stale, secret, 300, undefined, now * 1000)).toThrow();
  });

  it('refuses a signature stamped beyond the tolerance in the future', () => {
    const ahead = signed({ timestamp: now + WEBHOOK_TOLERANCE_SECONDS + 1 });
    expect(() => checkStripeSignature(payload, ahead, secret, now)).toThrow(
      'Timestamp outside the tolerance',
    );
  });

  it('refuses a valid signature moved to another timestamp', () => {
    const header = `t=${now + 1},v1=${v1Of(signed())}`;
    expect(() => checkStripeSignature(payload, header, secret, now)).toThrow(SignatureRefused);
  });

  it('accepts when any one of several v1 signatures matches (a secret being rolled)', () => {
    const good = v1Of(signed());
    const other = v1Of(signed({ secret: 'whsec_old' }));
    for (const header of [`t=${now},v1=${other},v1=${good}`, `t=${now},v1=${good},v1=${other}`])
      expect(() => checkStripeSignature(payload, header, secret, now)).not.toThrow();
    expect(() => checkStripeSignature(payload, `t=${now},v1=${other},v1=${other}`, secret, now)).toThrow(
      SignatureRefused,
    );
  });

  it('ignores other schemes: a v0 signature alone is refused', () => {
    const header = `t=${now},v0=${v1Of(signed())}`;
    expect(() => checkStripeSignature(payload, header, secret, now)).toThrow('No v1 signature');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['without a timestamp', `v1=${v1Of(signed())}`],
    ['with a timestamp that is not a number', `t=soon,v1=${v1Of(signed())}`],
    ['not hex', `t=${now},v1=zz`],
    ['a truncated signature', `t=${now},v1=${v1Of(signed()).slice(0, 32)}`],
    ['garbage', 'not a signature header'],
  ])('refuses a header that is %s', (_, header) => {
    expect(() => checkStripeSignature(payload, header, secret, now)).toThrow(SignatureRefused);
  });

  it('refuses an empty body even when its signature is right', () => {
    expect(() => checkStripeSignature('', signed({ payload: '' }), secret, now)).toThrow('No payload');
  });
});

describe('verifyWebhook', () => {
  const saved = process.env.STRIPE_WEBHOOK_SECRET;
  beforeAll(() => {
    process.env.STRIPE_WEBHOOK_SECRET = secret;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.STRIPE_WEBHOOK_SECRET;
    else process.env.STRIPE_WEBHOOK_SECRET = saved;
  });

  it('returns the event of a delivery signed now, with the environment’s secret', async () => {
    const header = sdk.webhooks.generateTestHeaderString({ payload, secret });
    await expect(verifyWebhook(payload, header)).resolves.toMatchObject({ id: 'evt_1', object: 'event' });
  });

  it('refuses a delivery signed with another secret, or unsigned', async () => {
    const header = sdk.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    await expect(verifyWebhook(payload, header)).rejects.toThrow(SignatureRefused);
    await expect(verifyWebhook(payload, undefined)).rejects.toThrow(SignatureRefused);
  });
});

describe('STRIPE_API_VERSION', () => {
  it('is the installed SDK’s own', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });
});
