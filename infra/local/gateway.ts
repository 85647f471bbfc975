/**
 * The local API Gateway: serves the route table with the same handler modules
 * CDK deploys, building payload-v2 events as API Gateway HTTP APIs do. Signed-in
 * routes pass the same JWT check first (401 {"message":"Unauthorized"} like API
 * Gateway's authorizer); CORS follows the same policy as the CDK stack.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type Access,
  corsPolicy,
  handlerFile,
  matchPath,
  type OperationId,
  operationIds,
  routes,
} from '@shared/api/routes';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { verifyBearer } from '../../lambdas/src/platform/auth';
import { lazyHandlers } from './handlerModules';
import type { LogSink } from './processes';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2>;

/** API Gateway's payload limit. Routes enforce their own, smaller limits. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

export interface GatewayOptions {
  port: number;
  /** Origins allowed by CORS (the web app's). */
  allowedOrigins: string[];
  log: LogSink;
  /**
   * Tests only: read the client's address from this request header instead of
   * the socket, to simulate many clients from one machine (rate limits are per
   * client). `npm start` never sets it; in AWS the address comes from API Gateway.
   */
  simulatedClientIpHeader?: string;
  /** Extra local-only endpoints under /_local/ (never deployed). */
  localEndpoints?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

/** Every route's handler, each imported on its first request (handlerModules.ts). */
export async function loadHandlers(root = process.cwd()): Promise<Map<OperationId, Handler>> {
  return lazyHandlers<OperationId, Handler>(operationIds, handlerFile, root);
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) {
        resolvePromise('too-large');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolvePromise(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isTextual(contentType: string | undefined): boolean {
  return !contentType || /^(text\/|application\/(json|x-www-form-urlencoded|xml))/i.test(contentType);
}

/** Headers as API Gateway passes them: lower-case names, repeated values joined by commas. */
function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/**
 * Payload v2's `cookies`: API Gateway takes the Cookie header out of `headers`
 * and passes each `name=value` on its own (nameless ones dropped).
 */
function takeCookies(headers: Record<string, string>): string[] | undefined {
  const header = headers.cookie;
  delete headers.cookie;
  const cookies = (header ?? '')
    .split(';')
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie !== '' && !cookie.startsWith('='));
  return cookies.length > 0 ? cookies : undefined;
}

/** JWT claims as API Gateway hands them to Lambda: arrays flattened to "[a b]" strings. */
function flattenClaims(claims: Record<string, unknown>): Record<string, string | number | boolean> {
  const flat: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(claims)) {
    if (Array.isArray(v)) flat[k] = `[${v.join(' ')}]`;
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') flat[k] = v;
    else flat[k] = JSON.stringify(v);
  }
  return flat;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

export async function startGateway(options: GatewayOptions, handlers?: Map<OperationId, Handler>) {
  const table = handlers ?? (await loadHandlers());

  const corsHeaders = (origin: string | undefined): Record<string, string> =>
    origin && options.allowedOrigins.includes(origin)
      ? {
          'access-control-allow-origin': origin,
          'access-control-expose-headers': corsPolicy.exposeHeaders.join(','),
          vary: 'origin',
        }
      : {};

  const server: Server = createServer(async (req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const origin = req.headers.origin;
    let status = 500;
    try {
      if (url.pathname.startsWith('/_local/') && options.localEndpoints) {
        if (await options.localEndpoints(req, res, url)) return;
      }
      if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
        status = 204;
        res.writeHead(204, {
          ...corsHeaders(origin),
          'access-control-allow-methods': corsPolicy.allowMethods.join(','),
          'access-control-allow-headers': corsPolicy.allowHeaders.join(','),
          'access-control-max-age': String(corsPolicy.maxAgeSeconds),
        });
        res.end();
        return;
      }
      let match: { op: OperationId; params: Record<string, string> } | undefined;
      for (const op of operationIds) {
        const route = routes[op];
        const params = route.method === method ? matchPath(route.path, url.pathname) : undefined;
        if (params) {
          match = { op, params };
          break;
        }
      }
      if (!match) {
        status = 404;
        return send(res, 404, JSON.stringify({ message: 'Not Found' }), corsHeaders(origin));
      }
      const body = await readBody(req);
      if (body === 'too-large') {
        status = 413;
        return send(res, 413, JSON.stringify({ message: 'Request Entity Too Large' }), corsHeaders(origin));
      }
      const headers = flatHeaders(req);
      const cookies = takeCookies(headers);
      const access: Access = routes[match.op].access;
      let claims: Record<string, string | number | boolean> | undefined;
      if (access.kind === 'signedIn') {
        try {
          claims = flattenClaims(await verifyBearer(headers.authorization));
        } catch {
          status = 401;
          return send(res, 401, JSON.stringify({ message: 'Unauthorized' }), corsHeaders(origin));
        }
      }
      const now = new Date();
      const textual = isTextual(headers['content-type']);
      const event = {
        version: '2.0',
        routeKey: `${method} ${routes[match.op].path}`,
        rawPath: url.pathname,
        rawQueryString: url.search.replace(/^\?/, ''),
        ...(cookies ? { cookies } : {}),
        headers,
        queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
        pathParameters: Object.keys(match.params).length > 0 ? match.params : undefined,
        body: body.length > 0 ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
        isBase64Encoded: body.length > 0 && !textual,
        requestContext: {
          accountId: 'local',
          apiId: 'local',
          domainName: `127.0.0.1:${options.port}`,
          domainPrefix: '127',
          http: {
            method,
            path: url.pathname,
            protocol: 'HTTP/1.1',
            sourceIp:
              (options.simulatedClientIpHeader && headers[options.simulatedClientIpHeader]) ||
              (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
            userAgent: headers['user-agent'] ?? '',
          },
          requestId: randomUUID(),
          routeKey: `${method} ${routes[match.op].path}`,
          stage: '$default',
          time: now.toUTCString(),
          timeEpoch: now.getTime(),
          ...(claims ? { authorizer: { jwt: { claims, scopes: null } } } : {}),
        },
      } as unknown as APIGatewayProxyEventV2;
      const handler = table.get(match.op);
      if (!handler) throw new Error(`no handler for ${match.op}`);
      const result = await handler(event);
      if (typeof result === 'string') {
        status = 200;
        return send(res, 200, result, corsHeaders(origin));
      }
      status = result.statusCode ?? 200;
      const responseHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(result.headers ?? {})) responseHeaders[k] = String(v);
      const cors = corsHeaders(origin);
      // Both may name a Vary (the handler's accept-encoding, CORS's origin): API Gateway keeps both.
      const vary = [responseHeaders.vary, cors.vary].filter(Boolean).join(', ');
      // Each entry of the answer's `cookies` becomes its own Set-Cookie header, as API Gateway does.
      const setCookie = result.cookies && result.cookies.length > 0 ? { 'set-cookie': result.cookies } : {};
      res.writeHead(status, { ...responseHeaders, ...cors, ...(vary ? { vary } : {}), ...setCookie });
      res.end(
        result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? ''),
      );
    } catch (error) {
      status = 500;
      options.log(`handler crashed: ${(error as Error).stack ?? String(error)}`);
      send(res, 500, JSON.stringify({ message: 'Internal Server Error' }), corsHeaders(origin));
    } finally {
      options.log(`${method} ${url.pathname} ${status} ${Math.round(performance.now() - started)}ms`);
    }
  });
  // Idle keep-alive connections stay open until the client closes them. With the default 5 s
  // timeout the server could close a socket just as the client (whose own idle timer is 4 s)
  // sends the next request on it: on a loaded machine both timers fire late together and the
  // request fails with ECONNRESET (a full run's yearInTheLife failed so). Only the client
  // closing idle sockets leaves no such race; stop() closes what is left.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolvePromise) => server.listen(options.port, '127.0.0.1', resolvePromise));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeIdleConnections();
      }),
  };
}
