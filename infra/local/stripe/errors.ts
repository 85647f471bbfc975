/**
 * Stripe's error envelope: `{ error: { type, code?, decline_code?, message, param? } }`
 * with Stripe's statuses, so the SDK raises the same error classes it raises
 * against Stripe (StripeCardError, StripeInvalidRequestError, ...).
 */

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  /** Card errors on charges name the failed charge, as Stripe does. */
  charge?: string;
  doc_url?: string;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`;

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code, doc_url: docUrl(code) } : {}),
  });
}

/**
 * "No such customer: 'cus_x'". 404 when the object is the one named in the URL;
 * 400 when a parameter refers to it (Stripe answers both ways).
 */
export function noSuch(kind: string, id: string, param = 'id', status: 404 | 400 = 404): StripeApiError {
  return new StripeApiError(status, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: docUrl('resource_missing'),
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

export function cardError(
  code: string,
  message: string,
  extra: { decline_code?: string; param?: string; charge?: string } = {},
): StripeApiError {
  return new StripeApiError(402, { type: 'card_error', code, message, doc_url: docUrl(code), ...extra });
}

export function idempotencyError(message: string): StripeApiError {
  return new StripeApiError(400, { type: 'idempotency_error', message });
}

export function authenticationError(message: string): StripeApiError {
  return new StripeApiError(401, { type: 'invalid_request_error', message });
}

/** A test card's decline as Stripe reports it: 402, code, decline_code, and the failed charge if one was made. */
export function declineError(
  decline: { code: string; declineCode: string; message: string; param?: string },
  charge?: string,
): StripeApiError {
  return cardError(decline.code, decline.message, {
    decline_code: decline.declineCode,
    ...(decline.param ? { param: decline.param } : {}),
    ...(charge ? { charge } : {}),
  });
}
