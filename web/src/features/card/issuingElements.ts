/**
 * Stripe Issuing Elements (AWS): number, expiry and CVC in Stripe's own frames,
 * and Stripe's copy button for the number. Loaded only when the card dialog needs
 * it (a dynamic import), so pages without the card do not carry the loader.
 *
 * Stripe's flow (https://docs.stripe.com/issuing/elements): Stripe.js makes a
 * single-use nonce for the card; our API (POST /me/cardKey) exchanges it, with
 * the secret key, for an ephemeral key bound to that nonce; the Elements show the
 * card with both. The number never passes through our API or this page.
 *
 * Not run by any test here (the local stack has no Stripe.js): see
 * docs/decisions.md for what to check on an AWS deployment.
 */
import { loadStripe } from '@stripe/stripe-js/pure';
import { call } from '../../api/client';

export interface IssuingSlots {
  number: HTMLElement;
  expiry: HTMLElement;
  cvc: HTMLElement;
  copyNumber: HTMLElement;
}

export interface MountOptions {
  cardId: string;
  publishableKey: string;
  slots: IssuingSlots;
  signal: AbortSignal;
  /** Stripe's copy button was clicked (it copies inside its frame; we only say 'Copied!'). */
  onCopy: () => void;
}

/** Inherits nothing from our page (the Elements are frames): match Mantine's body text. */
const STYLE = {
  base: {
    color: '#212529',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
    fontSize: '16px',
    lineHeight: '24px',
  },
};

export class IssuingElementsError extends Error {
  override readonly name = 'IssuingElementsError';
}

/** Mounts the four Elements into `slots`; resolves to a function that removes them. */
export async function mountIssuingElements(options: MountOptions): Promise<() => void> {
  const { cardId, publishableKey, slots, signal } = options;
  // Injects https://js.stripe.com/<release>/stripe.js once per page; later calls reuse it.
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new IssuingElementsError('Stripe.js did not load.');
  const made = await stripe.createEphemeralKeyNonce({ issuingCard: cardId });
  if (made.error) throw new IssuingElementsError(made.error.message ?? 'Stripe.js made no nonce.');
  const { nonce } = made;
  const key = await call('getCardKey', { nonce }, { signal });
  if (!key.ephemeralKeySecret || key.cardId !== cardId) {
    throw new IssuingElementsError('The card key did not match the card.');
  }
  signal.throwIfAborted();
  const shown = { issuingCard: cardId, nonce, ephemeralKeySecret: key.ephemeralKeySecret, style: STYLE };
  const elements = stripe.elements();
  const number = elements.create('issuingCardNumberDisplay', shown);
  const expiry = elements.create('issuingCardExpiryDisplay', shown);
  const cvc = elements.create('issuingCardCvcDisplay', shown);
  const copy = elements.create('issuingCardCopyButton', { toCopy: 'number', style: STYLE });
  copy.on('click', options.onCopy);
  number.mount(slots.number);
  expiry.mount(slots.expiry);
  cvc.mount(slots.cvc);
  copy.mount(slots.copyNumber);
  return () => {
    for (const element of [number, expiry, cvc, copy]) element.destroy();
  };
}
