/**
 * The browser's side of the error model (shared/src/errors.ts): the error the
 * API client throws, and the one place that turns errors into words for people.
 */
import { type ErrorCode, errorCodes, type FieldErrors } from '@shared/errors';

/** Codes the client itself raises when no error envelope came back. */
export type ClientErrorCode =
  /** The request never got an answer: offline, DNS, CORS, timeout. */
  | 'NETWORK_ERROR'
  /** The server answered with something that is not our envelope or not the route's output. */
  | 'BAD_RESPONSE'
  /** /config.json could not be loaded, so the API address is unknown. */
  | 'CONFIG_UNAVAILABLE'
  /** The person closed the 'Confirm it is you' dialog: their choice, nothing was done, nothing to report. */
  | 'STEP_UP_CANCELLED';

export type ApiErrorCode = ErrorCode | ClientErrorCode;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** Per-field messages from a VALIDATION_FAILED answer, keyed by input field name. */
  readonly fields?: FieldErrors;
  readonly requestId?: string;

  constructor(
    code: ApiErrorCode,
    message: string,
    extra: { status?: number; fields?: FieldErrors; requestId?: string; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.status = extra.status ?? (code in errorCodes ? errorCodes[code as ErrorCode] : 0);
    this.fields = extra.fields;
    this.requestId = extra.requestId;
  }
}

/** Words for answers that carry no envelope of ours (e.g. API Gateway's own 401/429/503). */
const fallbackMessages: Record<ApiErrorCode, string> = {
  VALIDATION_FAILED: 'Some fields are missing or invalid.',
  MALFORMED_REQUEST: 'The request could not be read. Please reload the page and try again.',
  UNAUTHENTICATED: 'Please sign in again.',
  MFA_REQUIRED: 'Enter the code from your authenticator app.',
  PASSWORD_REQUIRED: 'Enter the password of your account once to sign in this way.',
  STEP_UP_REQUIRED: 'Please confirm it is you to continue.',
  FORBIDDEN: 'You do not have access to this.',
  EMAIL_NOT_VERIFIED: 'Please verify your email address first.',
  NOT_FOUND: 'We could not find that.',
  CONFLICT: 'That has already been done or has changed. Please reload and try again.',
  PAYLOAD_TOO_LARGE: 'That is too large to send.',
  RULE_VIOLATED: 'That is not allowed.',
  LIMIT_EXCEEDED: "That would exceed your team's daily limit.",
  RATE_LIMITED: 'Too many attempts. Please wait a few minutes and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  UPSTREAM_FAILED: 'A service we rely on is not answering. Nothing was changed; please try again later.',
  NETWORK_ERROR: 'We could not reach the server. Check your connection and try again.',
  BAD_RESPONSE: 'The server sent an answer we did not understand. Please try again.',
  CONFIG_UNAVAILABLE: 'The app could not load its settings. Please reload the page.',
  STEP_UP_CANCELLED: 'Cancelled: nothing was done.',
};

export function fallbackMessage(code: ApiErrorCode): string {
  return fallbackMessages[code];
}

/** The code an HTTP status stands for when the body is not our envelope. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 422) return 'RULE_VIOLATED';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 502 || status === 503 || status === 504) return 'UPSTREAM_FAILED';
  if (status >= 500) return 'INTERNAL';
  return 'MALFORMED_REQUEST';
}

/** What to tell a person about any error thrown by a call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message || fallbackMessage(error.code);
  return fallbackMessage('INTERNAL');
}

/**
 * The person cancelled the 'Confirm it is you' step: the action was not done and
 * they know why, so a caller shows no error (and may let them try again).
 */
export function isStepUpCancelled(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'STEP_UP_CANCELLED';
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
