/**
 * The HTTP front: Stripe's REST conventions for /v1/ (API keys, form bodies,
 * idempotency keys, JSON answers with `Request-Id`), then the admin endpoints
 * and the pages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest, ApiResponse, Route } from './api';
import type { EmulatorContext } from './context';
import { authenticationError, idempotencyError, invalidRequest, StripeApiError } from './errors';
import { type FormObject, parseForm } from './form';
import { newId } from './ids';
import { Params } from './params';

/** Stripe's request size limit is far above anything the product sends; this guards the emulator. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Stripe keeps idempotency keys for at least 24 hours. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How often expired keys are dropped. Sweeping on every request made each POST
 * cost as much as all the keys kept (the SDK sends a key with every POST), so a
 * run of tens of thousands of requests grew quadratically (npm run bench -- --jobs).
 */
const IDEMPOTENCY_SWEEP_MS = 60 * 1000;

const TOKEN_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers':
    'authorization, content-type, idempotency-key, stripe-version, stripe-account',
  'access-control-max-age': '600',
};

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

export function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/:(\w+)/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
}

function matchRoute(
  routes: readonly CompiledRoute[],
  method: string,
  pathname: string,
): { route: Route; path: Record<string, string> } | undefined {
  for (const { route, pattern, names } of routes) {
    if (route.method !== method) continue;
    const m = pattern.exec(pathname);
    if (!m) continue;
    const path: Record<string, string> = {};
    names.forEach((name, i) => {
      path[name] = decodeURIComponent(m[i + 1] as string);
    });
    return { route, path };
  }
  return undefined;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw invalidRequest('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type KeyKind = 'secret' | 'publishable';

/** Test keys only: sk_test_/rk_test_ for servers, pk_test_ for tokenization from browsers. */
export function classifyKey(key: string | undefined): KeyKind | 'live' | 'invalid' | 'missing' {
  if (!key) return 'missing';
  if (/^(sk|rk)_test_\w+$/.test(key)) return 'secret';
  if (/^pk_test_\w+$/.test(key)) return 'publishable';
  if (/^(sk|rk|pk)_live_/.test(key)) return 'live';
  return 'invalid';
}

function keyFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  // curl -u sk_test_...: sends "key:" as Basic credentials.
  if (basic)
    return Buffer.from(basic[1] as string, 'base64')
      .toString('utf8')
      .split(':')[0];
  return undefined;
}

function redact(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(8)}${key.slice(-4)}` : key;
}

function authenticate(route: Route, key: string | undefined): void {
  const kind = classifyKey(key);
  if (kind === 'missing') {
    throw authenticationError(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  if (kind === 'live')
    throw authenticationError(
      `Invalid API Key provided: ${redact(key as string)} (the emulator takes test keys only)`,
    );
  if (kind === 'invalid') throw authenticationError(`Invalid API Key provided: ${redact(key as string)}`);
  if (kind === 'publishable' && !route.publishable) {
    throw authenticationError(
      'This API call cannot be made with a publishable API key. Please use a secret API key.',
    );
  }
}

/** Parameters compared for idempotency: key order does not matter. */
export function fingerprint(form: FormObject): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return JSON.stringify(canonical(form));
}

export interface ServerDeps {
  ctx: EmulatorContext;
  routes: readonly CompiledRoute[];
  /** Non-API paths (admin, pages); answer false when not theirs. */
  others: ((req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>)[];
}

export function createHandler(deps: ServerDeps) {
  const { ctx } = deps;
  const inFlight = new Set<string>();
  let lastSweep = Number.NEGATIVE_INFINITY;

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const requestId = newId('req', 14);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': requestId,
      'stripe-version': String(req.headers['stripe-version'] ?? ctx.apiVersion),
      'cache-control': 'no-cache, no-store',
    };
    const send = (status: number, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...headers, ...extra });
      res.end(body);
      ctx.log(`${method} ${url.pathname} ${status} (${Math.round(performance.now() - started)} ms)`);
    };

    const idempotencyKey =
      method === 'POST' ? ((req.headers['idempotency-key'] as string | undefined) ?? null) : null;
    let claimed = false;
    let cors: Record<string, string> = {};
    try {
      const matched = matchRoute(deps.routes, method, url.pathname);
      if (!matched) {
        throw new StripeApiError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${url.pathname}). The emulator implements a subset of Stripe's API; see docs/stripe-emulator.md.`,
        });
      }
      if (matched.route.publishable) cors = TOKEN_CORS;
      const text = await readText(req);
      const type = req.headers['content-type'] ?? '';
      if (method === 'POST' && text && type.includes('application/json')) {
        throw invalidRequest(
          'Stripe expects form-encoded bodies (application/x-www-form-urlencoded), not JSON.',
        );
      }
      const form = method === 'POST' ? parseForm(text) : parseForm(url.search.slice(1));
      // Stripe.js puts the publishable key in the body instead of a header.
      const bodyKey = matched.route.publishable && typeof form.key === 'string' ? form.key : undefined;
      authenticate(matched.route, keyFromHeader(req.headers.authorization) ?? bodyKey);

      if (idempotencyKey) {
        const now = ctx.nowMs();
        // The emulator's clock can be moved back as well as forward (tests): sweep then too.
        if (now - lastSweep >= IDEMPOTENCY_SWEEP_MS || now < lastSweep) {
          lastSweep = now;
          for (const [k, r] of Object.entries(ctx.state.idempotency)) {
            if (now - r.at > IDEMPOTENCY_TTL_MS) delete ctx.state.idempotency[k];
          }
        }
        const kept = ctx.state.idempotency[idempotencyKey];
        // An expired key not swept yet is gone for Stripe too.
        const saved = kept && now - kept.at <= IDEMPOTENCY_TTL_MS ? kept : undefined;
        if (saved) {
          if (
            saved.method !== method ||
            saved.path !== url.pathname ||
            saved.fingerprint !== fingerprint(form)
          ) {
            throw idempotencyError(
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            );
          }
          send(saved.status, saved.body, {
            ...cors,
            'idempotency-key': idempotencyKey,
            'idempotent-replayed': 'true',
          });
          return;
        }
        if (inFlight.has(idempotencyKey)) {
          throw new StripeApiError(409, {
            type: 'idempotency_error',
            message:
              'There is currently another in-progress request using this Idempotency-Key. Please try again later.',
          });
        }
        inFlight.add(idempotencyKey);
        claimed = true;
      }

      const request: ApiRequest = {
        params: new Params(form),
        path: matched.path,
        meta: { id: requestId, idempotency_key: idempotencyKey },
        stripeVersion: (req.headers['stripe-version'] as string | undefined) ?? null,
        clientIp: req.socket.remoteAddress ?? null,
      };
      let response: ApiResponse;
      try {
        response = await matched.route.handle(ctx, request);
      } catch (error) {
        // Stripe keeps the outcome of a request that ran, declines included, for replay.
        if (error instanceof StripeApiError && error.status === 402) {
          response = { status: 402, body: { error: error.body } };
        } else throw error;
      }
      const status = response.status ?? 200;
      const body = JSON.stringify(response.body, null, 2);
      if (idempotencyKey && (status === 200 || status === 402)) {
        ctx.state.idempotency[idempotencyKey] = {
          method,
          path: url.pathname,
          fingerprint: fingerprint(form),
          status,
          body,
          at: ctx.nowMs(),
        };
        ctx.store.save();
      }
      send(status, body, { ...cors, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
    } catch (error) {
      if (error instanceof StripeApiError) {
        send(error.status, JSON.stringify({ error: error.body }, null, 2), cors);
      } else {
        ctx.log(`${method} ${url.pathname} failed: ${(error as Error).stack ?? String(error)}`);
        send(
          500,
          JSON.stringify({ error: { type: 'api_error', message: 'The emulator failed; see its log.' } }),
          cors,
        );
      }
    } finally {
      if (claimed && idempotencyKey) inFlight.delete(idempotencyKey);
    }
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      if (url.pathname.startsWith('/v1/')) {
        if (req.method === 'OPTIONS') {
          // Only tokenization is meant for browsers, but a preflight is harmless to answer.
          res.writeHead(204, TOKEN_CORS);
          res.end();
          return;
        }
        await handleApi(req, res, url);
        return;
      }
      for (const other of deps.others) if (await other(req, res, url)) return;
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(
        'Not found. The emulator serves /v1/ (Stripe API), /checkout, /issuing-elements/card and /_emulator/.',
      );
    } catch (error) {
      ctx.log(`${req.method} ${url.pathname} failed: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The emulator failed; see its log.');
    }
  };
}
