/**
 * The local web server's `/api/*`, as CloudFront's behaviour is in AWS
 * (infra/lib/webStack.ts `apiBehavior`): the prefix comes off (the viewer
 * function of infra/lib/webRouting.ts), and the request goes on uncached to the
 * gateway with every viewer header but Host (ALL_VIEWER_EXCEPT_HOST_HEADER:
 * cookies and query strings too); the answer, Set-Cookie included, comes back
 * as it is. So the app calls its own origin here as there, and the session
 * cookie (Path=/api/auth) works the same.
 *
 * Unlike CloudFront it adds no viewer-address or proof header: locally the
 * gateway trusts its socket (lambdas/src/platform/edge.ts), which is loopback
 * either way.
 */
import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { API_PATH_PREFIX } from '../lib/webRouting';

/** Connection-level headers belong to one hop, never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardable(headers: IncomingHttpHeaders, drop: readonly string[] = []): IncomingHttpHeaders {
  // Headers the Connection header names are this hop's too.
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !HOP_BY_HOP.has(name) && !named.includes(name) && !drop.includes(name),
    ),
  );
}

/** The gateway's path for an address under the prefix, or undefined when it is not one. */
export function apiPathOf(url: string): string | undefined {
  return url.startsWith(`${API_PATH_PREFIX}/`) ? url.slice(API_PATH_PREFIX.length) : undefined;
}

/** Answers `/api/*` from the gateway at `gatewayUrl`; false (nothing sent) for any other address. */
export function proxyToApi(req: IncomingMessage, res: ServerResponse, gatewayUrl: string): boolean {
  const path = apiPathOf(req.url ?? '/');
  if (path === undefined) return false;
  const target = new URL(gatewayUrl);
  const upstream = request(
    {
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path,
      headers: forwardable(req.headers, ['host']),
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    // Hung up mid-answer: cut the answer off rather than append an error to half of it.
    if (res.headersSent) return void res.destroy();
    // The gateway is down: CloudFront would answer 502 too.
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Bad Gateway' }));
  });
  req.pipe(upstream);
  return true;
}
