/**
 * Limits of the Stripe webhook, apart from the route table so the webhook's
 * bundle (the card-authorization path) does not carry every route's schemas.
 */

/** Stripe's events are far smaller; anything larger is refused before the signature check. */
export const STRIPE_WEBHOOK_MAX_BODY_BYTES = 256 * 1024;
