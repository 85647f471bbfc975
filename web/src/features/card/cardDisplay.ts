/**
 * How the card dialog shows number, expiry and CVC, from the first
 * POST /me/cardKey answer and the runtime config. Pure, so it is unit-tested.
 *
 * - `frame`: the server named a frame (locally, the Stripe emulator's page).
 * - `elements`: no frame, but a publishable key: Stripe Issuing Elements (AWS).
 *   The page makes a nonce for `cardId` with Stripe.js and asks for the key again.
 * - `unavailable`: neither; the dialog says the number cannot be shown.
 */
import type { AppConfig } from '../../config';

export interface CardKeyAnswer {
  cardId: string;
  ephemeralKeySecret?: string;
  frameUrl?: string;
}

export type CardDisplay =
  | { mode: 'frame'; url: string }
  | { mode: 'elements'; cardId: string; publishableKey: string }
  | { mode: 'unavailable' };

export function chooseCardDisplay(key: CardKeyAnswer, config: AppConfig | undefined): CardDisplay {
  if (key.frameUrl) return { mode: 'frame', url: key.frameUrl };
  const publishableKey = config?.stripe?.publishableKey;
  // Stripe.js only from Stripe: locally the CSP lets no third-party script in anyway.
  if (publishableKey && config.stage === 'aws') {
    return { mode: 'elements', cardId: key.cardId, publishableKey };
  }
  return { mode: 'unavailable' };
}
