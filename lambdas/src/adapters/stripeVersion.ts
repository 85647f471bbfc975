/**
 * The Stripe API version the product speaks: the installed SDK's own (the type
 * below fails to compile when an SDK upgrade moves it). A literal rather than
 * `Stripe.API_VERSION` so the authorization webhook can send it without
 * bundling the SDK (docs/decisions.md "The authorization bundle").
 */
import type Stripe from 'stripe';

export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';
