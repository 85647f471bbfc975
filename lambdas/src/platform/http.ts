/**
 * The wrapper every HTTP handler goes through, so handlers stay
 * "parse -> authorize -> one service call -> response":
 *   1. refuse bodies over the route's limit (before parsing anything);
 *   2. authenticate (JWT) and load the actor from the table; check the role;
 *   3. rate limit per client (public) or per user (signed in), if the route says so;
 *      a money-moving route marked `freshFactor: 'always'` needs a recent factor (step-up);
 *   4. parse JSON (base64 too) and validate with the route's zod schema;
 *   5. run the handler and shape the result with the route's output schema
 *      (which strips anything the schema does not name); an `idempotent` route
 *      runs once per Idempotency-Key, and a retry after a run that died
 *      finishes that run's kept decisions (`steps`, platform/requestSteps.ts);
 *   6. for `revalidate` routes, tag the answer with an ETag and answer 304 to a
 *      matching If-None-Match; gzip large answers when the client accepts it;
 *   7. map errors to the one envelope with an honest status;
 *   8. the session cookie's routes (refresh, sign-out) read `cookies` and must be
 *      sent as JSON (CSRF); any handler may set cookies, refused or not.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  type Access,
  DEFAULT_MAX_BODY_BYTES,
  type OperationId,
  type RouteDef,
  type Routes,
  routes,
} from '@shared/api/routes';
import { SCIM_CONTENT_TYPE, SCIM_TYPE_FIELD, type ScimType, scimErrorBody } from '@shared/domain/scim';
import { AppError, type ErrorEnvelope } from '@shared/errors';
import { fieldErrorsOf } from '@shared/schemas/common';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda';
import type { z } from 'zod';
import { systemClock } from '../adapters/clock';
import { getTeam } from '../data/accounts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  endIdempotencyLease,
  hashBody,
  keepIdempotencyStep,
  releaseIdempotencyKey,
} from '../data/idempotency';
import { touchProvisioningToken } from '../data/provisioning';
import { consumeRateLimit } from '../data/rateLimits';
import {
  type Actor,
  loadActor,
  type ProvisioningCaller,
  verifyBearer,
  verifyProvisioningToken,
} from './auth';
import { edgeConfig } from './config';
import { edgeCaller } from './edge';
import { requireFreshFactor } from './freshFactor';
import { createLogger, errorFields, type Logger } from './log';
import { withMetrics } from './metrics';
import { decidedEachRun, keptSteps, type RequestSteps } from './requestSteps';

type ActorFor<Op extends OperationId> = Routes[Op]['access'] extends { kind: 'signedIn' } ? Actor : undefined;
type ProvisionerFor<Op extends OperationId> = Routes[Op]['access'] extends { kind: 'scimToken' }
  ? ProvisioningCaller
  : undefined;

export interface HttpContext<Op extends OperationId> {
  input: z.output<Routes[Op]['input']>;
  actor: ActorFor<Op>;
  /** On `scimToken` routes: the team's identity provider, by its provisioning token. */
  provisioner: ProvisionerFor<Op>;
  requestId: string;
  clientIp: string;
  now: Date;
  log: Logger;
  /** The request's Idempotency-Key (validated) on routes marked `idempotent`: derive money entry ids from it. */
  idempotencyKey: string;
  /**
   * On `idempotent` routes, the decisions kept with the Idempotency-Key: a
   * retry after a run that died gets them back instead of deciding again
   * (platform/requestSteps.ts). Elsewhere every run decides.
   */
  steps: RequestSteps;
  /** The request's cookies as API Gateway (payload v2) passes them: one `name=value` each. */
  cookies: readonly string[];
  /** Adds a Set-Cookie to the answer, refused or not (API Gateway's `cookies` field). */
  setCookie: (cookie: string) => void;
}

export type HttpImpl<Op extends OperationId> = (
  ctx: HttpContext<Op>,
) => Promise<z.input<Routes[Op]['output']>>;

export type HttpHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2>;

const baseHeaders = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return { statusCode: status, headers: { ...baseHeaders, ...headers }, body: JSON.stringify(body) };
}

/**
 * API Gateway HTTP APIs do not compress, and a Lambda answer is capped at 6 MB,
 * so the wrapper gzips JSON above this size itself (smaller bodies gain little).
 */
export const GZIP_MIN_BYTES = 8 * 1024;

/**
 * A weak ETag of the JSON text: weak because the same JSON goes out gzipped or
 * not, and a strong tag would have to differ between the two encodings.
 */
export function etagOf(body: string): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** If-None-Match holds our tag (weak comparison, lists and `*` allowed; RFC 9110 13.1.2). */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function acceptsGzip(event: APIGatewayProxyEventV2): boolean {
  const accepted = header(event, 'accept-encoding') ?? '';
  return accepted.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.find((p) => p.trim().startsWith('q='));
    return coding === 'gzip' && (!q || Number(q.trim().slice(2)) > 0);
  });
}

/** A successful answer: ETag and 304 for `revalidate` routes, gzip for large bodies. */
function success(
  event: APIGatewayProxyEventV2,
  status: number,
  output: unknown,
  revalidate: boolean,
  responseType?: string,
): APIGatewayProxyStructuredResultV2 {
  let body: string;
  const headers: Record<string, string> = { ...baseHeaders };
  if (responseType) {
    // A file route's output is `fileOutput` (validated above): its body goes out as the file.
    const file = output as { filename: string; body: string };
    body = file.body;
    // A PDF (services/invoices/pdf.ts) is 7-bit ASCII: sent as it is, with no charset.
    headers['content-type'] = responseType.startsWith('text/')
      ? `${responseType}; charset=utf-8`
      : responseType;
    headers['content-disposition'] = `attachment; filename="${file.filename}"`;
  } else body = JSON.stringify(output);
  if (revalidate) {
    const etag = etagOf(body);
    // private: it was fetched with someone's token; no-cache: keep it, but ask every time.
    Object.assign(headers, { etag, 'cache-control': 'private, no-cache', vary: 'accept-encoding' });
    if (matchesIfNoneMatch(header(event, 'if-none-match'), etag)) {
      const { 'content-type': _omitted, ...notModified } = headers;
      return { statusCode: 304, headers: notModified, body: '' };
    }
  }
  if (Buffer.byteLength(body, 'utf8') >= GZIP_MIN_BYTES && acceptsGzip(event)) {
    return {
      statusCode: status,
      headers: { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
      body: gzipSync(body).toString('base64'),
      isBase64Encoded: true,
    };
  }
  return { statusCode: status, headers, body };
}

function errorResponse(error: AppError, requestId: string): APIGatewayProxyStructuredResultV2 {
  const envelope: ErrorEnvelope = {
    error: {
      code: error.code,
      message: error.message,
      requestId,
      ...(error.fields ? { fields: error.fields } : {}),
    },
  };
  return json(error.status, envelope, error.headers);
}

/** API Gateway turns each entry of `cookies` into its own Set-Cookie header. */
function withCookies(response: APIGatewayProxyStructuredResultV2, cookies: string[]) {
  return cookies.length > 0 ? { ...response, cookies } : response;
}

function isJson(event: APIGatewayProxyEventV2): boolean {
  return /^application\/json\b/i.test(header(event, 'content-type') ?? '');
}

/** SCIM clients send application/scim+json (RFC 7644 3.1); some send plain JSON. */
function isScimJson(event: APIGatewayProxyEventV2): boolean {
  return /^application\/(scim\+)?json\b/i.test(header(event, 'content-type') ?? '');
}

/**
 * The SCIM routes answer in SCIM's media type and error format (RFC 7644
 * 3.12): `{"schemas":[...Error],"status":"404","detail":...}`, a scimType
 * carried in the error's `fields.scimType`. A 204 has no body.
 */
function scimResponse(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    statusCode: status,
    headers: {
      'content-type': `${SCIM_CONTENT_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      ...headers,
    },
    body: status === 204 ? '' : JSON.stringify(body),
  };
}

function scimErrorResponse(error: AppError): APIGatewayProxyStructuredResultV2 {
  const scimType =
    (error.fields?.[SCIM_TYPE_FIELD] as ScimType | undefined) ??
    (error.code === 'VALIDATION_FAILED'
      ? 'invalidValue'
      : error.code === 'MALFORMED_REQUEST'
        ? 'invalidSyntax'
        : undefined);
  return scimResponse(error.status, scimErrorBody(error.status, error.message, scimType), error.headers);
}

function rawBody(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

/** A form body (RFC 8058's one-click POST): only routes that say `acceptsForm` take one. */
function isForm(event: APIGatewayProxyEventV2): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(
    header(event, 'content-type') ?? '',
  );
}

function parseInput(event: APIGatewayProxyEventV2, body: string, scim = false, acceptsForm = false): unknown {
  let parsedBody: unknown = {};
  // The form's fields are ignored: what the route needs is in its URL.
  if (acceptsForm && isForm(event)) body = '';
  if (body.trim() !== '') {
    if (!(scim ? isScimJson(event) : isJson(event))) {
      throw new AppError('MALFORMED_REQUEST', 'Send the request body as application/json.');
    }
    try {
      parsedBody = JSON.parse(body);
    } catch {
      throw new AppError('MALFORMED_REQUEST', 'The request body is not valid JSON.');
    }
    if (typeof parsedBody !== 'object' || parsedBody === null || Array.isArray(parsedBody)) {
      throw new AppError('MALFORMED_REQUEST', 'The request body must be a JSON object.');
    }
  }
  // Path parameters win over the body: the URL names the resource, not the payload.
  return {
    ...(event.queryStringParameters ?? {}),
    ...(parsedBody as object),
    ...(event.pathParameters ?? {}),
  };
}

/**
 * Runs a money-moving request at most once per Idempotency-Key (see
 * data/idempotency.ts). A run that took the claim over from one that died gets
 * that run's steps, and finishes them rather than deciding again.
 */
async function once(
  scope: string,
  key: string | undefined,
  body: unknown,
  status: number,
  run: (steps: RequestSteps) => Promise<unknown>,
  now: Date,
): Promise<unknown> {
  if (!key || !/^[\w-]{8,100}$/.test(key)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'This request needs an Idempotency-Key header (8-100 letters, digits, - or _).',
    );
  }
  const claim = await claimIdempotencyKey(scope, key, hashBody(body), now);
  if (claim.state === 'replay') return claim.body;
  if (claim.state === 'mismatch') {
    throw new AppError('CONFLICT', 'This Idempotency-Key was already used for a different request.');
  }
  // Only while the first request's lease runs; after it, a retry takes the claim over (data/idempotency.ts).
  if (claim.state === 'inProgress') throw new AppError('CONFLICT', 'This request is still being processed.');
  const steps = keptSteps(claim.steps, (name, json) =>
    keepIdempotencyStep(scope, key, claim.claimId, name, json),
  );
  let output: unknown;
  try {
    output = await run(steps);
  } catch (error) {
    // A refusal, or a failure before anything was decided, forgets the key: the same key may
    // then carry a corrected request. A failure after a decision (money may have moved) keeps
    // the decisions for the retry, which may take over at once.
    if (error instanceof AppError || !steps.decided) await releaseIdempotencyKey(scope, key, claim.claimId);
    else await endIdempotencyLease(scope, key, claim.claimId);
    throw error;
  }
  // Not released if this fails: the money has moved, and the retry after the lease finishes
  // the kept steps and answers this answer again.
  await completeIdempotencyKey(scope, key, claim.claimId, status, output);
  return output;
}

export const CLOSED_TEAM_MESSAGE =
  "Your team's subscription is closed: its records can be read, but nothing can be changed.";

/** A closed team's records are read-only: every write is refused, reads go on (docs/decisions.md). */
async function refuseIfClosed(actor: Pick<Actor, 'teamId'>): Promise<void> {
  const team = await getTeam(actor.teamId);
  if (team?.subscription === 'closed') throw new AppError('CONFLICT', CLOSED_TEAM_MESSAGE);
}

export function httpHandler<Op extends OperationId>(operationId: Op, impl: HttpImpl<Op>): HttpHandler {
  const route = routes[operationId];
  const maxBodyBytes = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const handle: HttpHandler = async (event) => {
    const requestId = event.requestContext?.requestId ?? 'unknown';
    const caller = edgeCaller(event, edgeConfig().EDGE_ORIGIN_SECRET);
    const clientIp = caller.clientIp;
    // API Gateway's request id is the correlation id: it is in the access log and in every error envelope.
    const log = createLogger({ operationId, requestId, correlation_id: requestId });
    const now = systemClock.now();
    const setCookies: string[] = [];
    const scim = route.access.kind === 'scimToken';
    try {
      if (!caller.throughEdge) {
        throw new AppError('FORBIDDEN', "Call the API at the web app's address (/api).");
      }
      const body = rawBody(event);
      if (Buffer.byteLength(body, 'utf8') > maxBodyBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes.`);
      }

      let actor: Actor | undefined;
      let provisioner: ProvisioningCaller | undefined;
      const access: Access = route.access;
      if (access.kind === 'signedIn') {
        const claims = await verifyBearer(header(event, 'authorization'));
        actor = await loadActor(claims);
        if (!access.roles.includes(actor.role)) {
          throw new AppError('FORBIDDEN', 'You do not have access to this.');
        }
        if (access.verifiedEmail && !actor.emailVerified) {
          throw new AppError('EMAIL_NOT_VERIFIED', 'Please verify your email address first.');
        }
        if (route.method !== 'GET' && !(route as RouteDef).openWhenClosed) await refuseIfClosed(actor);
      } else if (access.kind === 'scimToken') {
        provisioner = await verifyProvisioningToken(header(event, 'authorization'));
        await touchProvisioningToken(provisioner.teamId, provisioner.tokenId, now);
        if (route.method !== 'GET') await refuseIfClosed(provisioner);
      } else if (access.kind === 'stripeSignature') {
        throw new Error(`${operationId} is a webhook; it has its own handler wrapper`);
      }
      if ((route as RouteDef).sessionCookie && !isJson(event)) {
        // A cross-site form can send only form or text bodies; JSON from another origin needs a
        // CORS preflight we never grant. So without JSON, no other site made this request (CSRF).
        throw new AppError('MALFORMED_REQUEST', 'Send the request as application/json.');
      }
      if (access.rateLimit) {
        // One SCIM budget per token across its routes: an IdP's calls all count together.
        if (provisioner) await consumeRateLimit('scim', provisioner.tokenId, access.rateLimit, now);
        else await consumeRateLimit(operationId, actor?.userId ?? clientIp, access.rateLimit, now);
      }

      const parsed = route.input.safeParse(
        parseInput(event, body, scim, (route as RouteDef).acceptsForm === true),
      );
      if (!parsed.success) {
        const fields = fieldErrorsOf(parsed.error);
        const problems = Object.values(fields);
        // One problem is named in the message too, so a caller showing only the message says what is wrong.
        const message =
          problems.length === 1 ? (problems[0] as string) : 'Some fields are missing or invalid.';
        throw new AppError('VALIDATION_FAILED', message, { fields });
      }

      const run = async (steps: RequestSteps) => {
        // Inside the run: a replay moves nothing and needs none; a refused first try releases its key.
        // Kept as a step: a retry that finishes a run which had passed it is the same request.
        if (actor && (route as RouteDef).freshFactor === 'always') {
          const signedIn = actor;
          await steps.once('freshFactor', async () => {
            await requireFreshFactor(signedIn, now);
            return true;
          });
        }
        const result = await impl({
          input: parsed.data as HttpContext<Op>['input'],
          actor: actor as ActorFor<Op>,
          provisioner: provisioner as ProvisionerFor<Op>,
          requestId,
          clientIp,
          now,
          log,
          idempotencyKey: route.idempotent ? (header(event, 'idempotency-key') ?? '') : '',
          steps,
          cookies: event.cookies ?? [],
          setCookie: (cookie) => setCookies.push(cookie),
        });
        return route.output.parse(result);
      };
      const status = route.status ?? 200;
      const output = route.idempotent
        ? await once(
            `${operationId}#${actor?.userId ?? clientIp}`,
            header(event, 'idempotency-key'),
            parsed.data,
            status,
            run,
            now,
          )
        : await run(decidedEachRun);
      if (scim) {
        log.info('request handled', { status, provisioningToken: provisioner?.tokenId });
        return scimResponse(status, output);
      }
      const { responseType } = route as RouteDef;
      const response = success(event, status, output, route.revalidate === true, responseType);
      log.info('request handled', { status: response.statusCode, actor: actor?.userId });
      return withCookies(response, setCookies);
    } catch (error) {
      if (error instanceof AppError) {
        log.info('request refused', { code: error.code, status: error.status });
        if (scim) return scimErrorResponse(error);
        return withCookies(errorResponse(error, requestId), setCookies);
      }
      log.error('request failed', errorFields(error));
      if (scim) {
        return scimErrorResponse(
          new AppError(
            'INTERNAL',
            `Something went wrong on our side (request ${requestId}). Please try again.`,
          ),
        );
      }
      // Cookies queued before the failure still go: sign-out clears the session cookie first.
      return withCookies(
        errorResponse(
          new AppError('INTERNAL', 'Something went wrong on our side. Please try again.'),
          requestId,
        ),
        setCookies,
      );
    }
  };
  // Every invocation's metrics are flushed when it ends (platform/metrics.ts).
  return (event) => withMetrics(operationId, () => handle(event));
}
