/**
 * The typed API client, built from the route table (shared/src/api/routes.ts):
 *
 *   const { ok } = await call('joinWaitlist', { name, email });
 *
 * The operation id picks the method, path, input and output types. Path
 * parameters (`/employees/{userId}`) are taken from the input; the rest goes in
 * the query string (GET, DELETE) or as a JSON body. Answers are checked against
 * the route's output schema; failures become an ApiError (see ./errors.ts).
 */
import {
  type OperationId,
  type RouteDef,
  type RouteInput,
  type RouteOutput,
  routes,
} from '@shared/api/routes';
import { isErrorEnvelope } from '@shared/errors';
import { loadConfig } from '../config';
import { ApiError, codeForStatus, fallbackMessage } from './errors';

export { ApiError, errorMessage, isAbortError, isStepUpCancelled } from './errors';

/** Returns the current access token, or undefined when nobody is signed in. */
export type TokenGetter = () => string | undefined | Promise<string | undefined>;

export interface ApiClientOptions {
  /** The API's base URL, or a function that resolves it (the default reads /config.json). */
  baseUrl: string | (() => Promise<string>);
  /** Consulted for routes that need a signed-in user; sent as `Authorization: Bearer`. */
  getToken?: TokenGetter;
  fetch?: typeof fetch;
  /** Give up on a request after this long. */
  timeoutMs?: number;
  /**
   * Called once when a signed-in route answers 401. Resolve true when a new
   * token is available (the call is then retried once with it), false otherwise.
   */
  onUnauthorized?: () => Promise<boolean>;
  /**
   * Asks for a fresh factor (a money-moving action needs one). Called before
   * sending a route marked `freshFactor: 'always'`, or one the caller was told
   * needs it (CallOptions.freshFactor), with `ifNeeded: true`: ask only when
   * the session has no fresh factor (GET /me/secondFactor), so the request is
   * not first refused (a refusal shows as a failed request in the browser's
   * console). Called with `ifNeeded: false` when a route answers
   * STEP_UP_REQUIRED anyway (the factor went stale since); the call is then
   * retried once, same Idempotency-Key. Resolve true once the person proved
   * one (POST /auth/stepUp) or none was needed, false when they cancelled (the
   * call rejects with STEP_UP_CANCELLED), undefined when nothing could ask them
   * (the request goes as it is; the server's refusal stands).
   */
  onStepUp?: (ask: { ifNeeded: boolean }) => Promise<boolean | undefined>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as `Idempotency-Key` so a retried money-moving request moves money once. */
  idempotencyKey?: string;
  /**
   * A `freshFactor: 'aboveThreshold'` request the server said passes the
   * threshold (a preview's `needsFreshFactor`): the factor is asked for before
   * sending it, as for an `always` route.
   */
  freshFactor?: boolean;
}

export type ApiCall = <Op extends OperationId>(
  operationId: Op,
  input: RouteInput<Op>,
  options?: CallOptions,
) => Promise<RouteOutput<Op>>;

const DEFAULT_TIMEOUT_MS = 20_000;

function splitInput(
  pathTemplate: string,
  input: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const used = new Set<string>();
  const path = pathTemplate.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = input[name];
    if (value === undefined || value === null || value === '') {
      throw new ApiError('MALFORMED_REQUEST', `Missing path parameter "${name}"`);
    }
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !used.has(key)));
  return { path, rest };
}

function queryString(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function withTimeout(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!signal) return timeout;
  // AbortSignal.any is missing from older Safari; the caller's signal then wins alone.
  return typeof AbortSignal.any === 'function' ? AbortSignal.any([signal, timeout]) : signal;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createApiClient(options: ApiClientOptions): ApiCall {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function resolveBaseUrl(): Promise<string> {
    if (typeof options.baseUrl === 'string') return options.baseUrl;
    try {
      return await options.baseUrl();
    } catch (error) {
      throw new ApiError('CONFIG_UNAVAILABLE', fallbackMessage('CONFIG_UNAVAILABLE'), { cause: error });
    }
  }

  return async function call<Op extends OperationId>(
    operationId: Op,
    input: RouteInput<Op>,
    callOptions: CallOptions = {},
  ): Promise<RouteOutput<Op>> {
    const route = routes[operationId];
    const { path, rest } = splitInput(route.path, (input ?? {}) as Record<string, unknown>);
    const sendsBody = route.method !== 'GET' && route.method !== 'DELETE';
    const baseUrl = (await resolveBaseUrl()).replace(/\/+$/, '');
    const url = `${baseUrl}${path}${sendsBody ? '' : queryString(rest)}`;

    const headers: Record<string, string> = {
      accept: (route as RouteDef).responseType ?? 'application/json',
    };
    if (sendsBody) headers['content-type'] = 'application/json';
    if (callOptions.idempotencyKey) headers['idempotency-key'] = callOptions.idempotencyKey;
    if (route.access.kind === 'signedIn') {
      const token = await options.getToken?.();
      if (token) headers.authorization = `Bearer ${token}`;
    }

    const send = async (): Promise<Response> => {
      try {
        return await doFetch(url, {
          method: route.method,
          headers,
          body: sendsBody ? JSON.stringify(rest) : undefined,
          // The API is on the app's own origin: the session cookie (Path=/api/auth) goes to the
          // auth routes and sign-in may set it. No cookie is ever sent to another origin.
          credentials: 'same-origin',
          signal: withTimeout(callOptions.signal, timeoutMs),
        });
      } catch (error) {
        // The caller gave up (navigated away): let them see an AbortError and ignore it.
        if (callOptions.signal?.aborted) throw error;
        throw new ApiError('NETWORK_ERROR', fallbackMessage('NETWORK_ERROR'), { cause: error });
      }
    };

    const stepUp = route.access.kind === 'signedIn' ? options.onStepUp : undefined;
    if (stepUp && ((route as RouteDef).freshFactor === 'always' || callOptions.freshFactor)) {
      if ((await stepUp({ ifNeeded: true })) === false) {
        throw new ApiError('STEP_UP_CANCELLED', fallbackMessage('STEP_UP_CANCELLED'), { status: 403 });
      }
    }

    let response = await send();
    // A signed-in call refused with 401: the access token may have just expired.
    // Let the auth module refresh it once, then try again with the new token.
    if (response.status === 401 && route.access.kind === 'signedIn' && options.onUnauthorized) {
      const sentToken = headers.authorization;
      if (await options.onUnauthorized()) {
        const token = await options.getToken?.();
        if (token && `Bearer ${token}` !== sentToken) {
          headers.authorization = `Bearer ${token}`;
          response = await send();
        }
      }
    }

    if (response.status === 403 && stepUp) {
      const body = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (isErrorEnvelope(body) && body.error.code === 'STEP_UP_REQUIRED') {
        const proved = await stepUp({ ifNeeded: false });
        if (proved === false) {
          throw new ApiError('STEP_UP_CANCELLED', fallbackMessage('STEP_UP_CANCELLED'), { status: 403 });
        }
        if (proved) response = await send();
      }
    }

    // A file route (CSV) answers with the file itself; its name is the page's to choose
    // (Content-Disposition is not readable cross-origin).
    const isFile = Boolean((route as RouteDef).responseType) && response.ok;
    const body = isFile ? { filename: 'download', body: await response.text() } : await readJson(response);
    if (!response.ok) {
      if (isErrorEnvelope(body)) {
        const { code, message, fields, requestId } = body.error;
        throw new ApiError(code, message || fallbackMessage(code), {
          status: response.status,
          fields,
          requestId,
        });
      }
      const code = codeForStatus(response.status);
      throw new ApiError(code, fallbackMessage(code), { status: response.status });
    }

    const parsed = route.output.safeParse(body);
    if (!parsed.success) {
      throw new ApiError('BAD_RESPONSE', fallbackMessage('BAD_RESPONSE'), {
        status: response.status,
        cause: parsed.error,
      });
    }
    return parsed.data as RouteOutput<Op>;
  };
}

let tokenGetter: TokenGetter | undefined;
let unauthorizedHandler: (() => Promise<boolean>) | undefined;
type StepUpHandler = (ask: { ifNeeded: boolean }) => Promise<boolean>;
let stepUpHandler: StepUpHandler | undefined;

/**
 * Set by the signed-in frame (the step-up dialog): asks for a code or password (with `ifNeeded`,
 * only when the session has no fresh factor); true once proven or not needed.
 */
export function setStepUpHandler(handler: StepUpHandler | undefined): void {
  stepUpHandler = handler;
}

/** Set by the auth module (web/src/auth/session.ts); until then calls go without a token. */
export function setTokenGetter(getter: TokenGetter | undefined): void {
  tokenGetter = getter;
}

/** Set by the auth module: refreshes the session after a 401 (see ApiClientOptions.onUnauthorized). */
export function setUnauthorizedHandler(handler: (() => Promise<boolean>) | undefined): void {
  unauthorizedHandler = handler;
}

/** The app's client: API address from /config.json, token from the auth module. */
export const call: ApiCall = createApiClient({
  baseUrl: async () => (await loadConfig()).apiUrl,
  getToken: () => tokenGetter?.(),
  onUnauthorized: async () => (unauthorizedHandler ? unauthorizedHandler() : false),
  onStepUp: async (ask) => (stepUpHandler ? stepUpHandler(ask) : undefined),
});
