/**
 * The card provider's tokenizer, called from the browser: the card number,
 * expiry and CVC go to Stripe's `POST /v1/tokens` with the publishable key
 * (in the body, as Stripe.js sends it), and only the token (`tok_...`) goes
 * on to our API. Locally the same call reaches the Stripe emulator
 * (config.json `stripe.apiUrl`). A form-encoded POST is a CORS "simple"
 * request, so no preflight is needed.
 */
import type { CardTokenRequest } from '@shared/domain/cardForm';
import { loadConfig } from '../../config';

/** Which card form field a provider error is about (Stripe's `param`). */
export type ProviderField = 'number' | 'expiry' | 'cvc';

/** The provider refused the card or could not be reached; `message` is for people. */
export class CardProviderError extends Error {
  override readonly name = 'CardProviderError';
  constructor(
    message: string,
    readonly field?: ProviderField,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface CardToken {
  id: string;
  brand?: string;
  last4?: string;
}

const UNAVAILABLE = 'Card payments are not available right now. Please try again later.';
const UNREACHABLE = 'We could not reach the card processor. Check your connection and try again.';

function fieldOf(param: unknown): ProviderField | undefined {
  if (param === 'number') return 'number';
  if (param === 'exp_month' || param === 'exp_year') return 'expiry';
  if (param === 'cvc') return 'cvc';
  return undefined;
}

export async function createCardToken(card: CardTokenRequest, signal?: AbortSignal): Promise<CardToken> {
  const config = await loadConfig();
  if (!config.stripe) throw new CardProviderError(UNAVAILABLE);
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(card)) {
    if (value !== undefined && value !== '') body.append(`card[${key}]`, String(value));
  }
  body.append('key', config.stripe.publishableKey);

  let response: Response;
  try {
    response = await fetch(`${config.stripe.apiUrl}/v1/tokens`, {
      method: 'POST',
      body,
      credentials: 'omit',
      signal: signal ?? AbortSignal.timeout(20_000),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CardProviderError(UNREACHABLE);
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    answer = undefined;
  }
  const record = (answer ?? {}) as {
    id?: unknown;
    card?: { brand?: string; last4?: string };
    error?: { message?: unknown; param?: unknown; code?: unknown };
  };
  if (!response.ok || typeof record.id !== 'string') {
    const error = record.error;
    const message = typeof error?.message === 'string' && error.message ? error.message : UNAVAILABLE;
    throw new CardProviderError(
      message,
      fieldOf(error?.param),
      typeof error?.code === 'string' ? error.code : undefined,
    );
  }
  return { id: record.id, brand: record.card?.brand, last4: record.card?.last4 };
}
