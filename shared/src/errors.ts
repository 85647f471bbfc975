/**
 * The one error model of the API. Every failure a client can see has a code from
 * this table; the HTTP status is derived from the code, never chosen ad hoc.
 */
export const errorCodes = {
  /** The request's body, query or path failed its schema; `fields` says which and why. */
  VALIDATION_FAILED: 400,
  /** The body is not JSON, or not the media type the route takes. */
  MALFORMED_REQUEST: 400,
  /** No valid credentials: missing, expired or tampered token, or a deleted account. */
  UNAUTHENTICATED: 401,
  /** The password was right; the account has a second factor: send its code (`code`) too. */
  MFA_REQUIRED: 401,
  /**
   * Social sign-in: the provider's address belongs to an account this provider
   * is not joined to yet, and the address alone does not prove it is theirs:
   * send that account's password (`password`) once to join them.
   */
  PASSWORD_REQUIRED: 401,
  /**
   * A money-moving action needs a factor proven in the last few minutes: prove
   * one with POST /auth/stepUp (code or password), then retry the same request.
   */
  STEP_UP_REQUIRED: 403,
  /** Signed in, but this role may not call this route. */
  FORBIDDEN: 403,
  /** The route needs a verified e-mail address and the caller's is not verified yet. */
  EMAIL_NOT_VERIFIED: 403,
  /** Nothing there, or it belongs to another team (we do not reveal which). */
  NOT_FOUND: 404,
  /** The request conflicts with current state (duplicate, already done, wrong state). */
  CONFLICT: 409,
  /** The body exceeds the route's size limit. */
  PAYLOAD_TOO_LARGE: 413,
  /** A business rule refuses the request (insufficient funds, under the refund minimum, ...). */
  RULE_VIOLATED: 422,
  /** The team's daily limit for deposits or redemptions would be exceeded; the message names it. Nothing moved. */
  LIMIT_EXCEEDED: 422,
  /** Too many requests from this client for this route; retry after `Retry-After` seconds. */
  RATE_LIMITED: 429,
  /** Something failed on our side; the request id lets support find the log line. */
  INTERNAL: 500,
  /** A provider we depend on (e-mail, card issuer) failed; nothing was changed. */
  UPSTREAM_FAILED: 502,
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** Per-field messages, keyed by the field's name in the request. */
export type FieldErrors = Record<string, string>;

export interface ErrorEnvelope {
  error: {
    code: ErrorCode;
    message: string;
    requestId?: string;
    fields?: FieldErrors;
  };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  /** Extra response headers, such as Retry-After for RATE_LIMITED. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { fields?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = extra.fields;
    this.headers = extra.headers;
  }

  get status(): number {
    return errorCodes[this.code];
  }
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}
