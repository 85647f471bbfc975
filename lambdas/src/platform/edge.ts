/**
 * In AWS the API is reached through CloudFront at the web origin (`/api/*`),
 * behind its WAF web ACL (docs/security.md, "Edge"). The HTTP API's own
 * execute-api address stays reachable too, so the distribution proves itself
 * with a header only it and the functions know (EDGE_ORIGIN_SECRET, a generated
 * Secrets Manager value), and tells who called with another it overwrites on
 * every request (the viewer's IP). Behind CloudFront the request's source IP is
 * an edge server shared by many people, useless for per-client rate limits.
 *
 * Locally (no EDGE_ORIGIN_SECRET) the gateway is called directly and its source
 * IP is the caller's, as before.
 */
import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Set by the distribution's origin settings; a viewer's own value is replaced. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** Set by the /api/* viewer-request function to the viewer's IP; a viewer's own value is replaced. */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

export interface EdgeCaller {
  /** False when the deployment expects CloudFront and the request did not come through it. */
  throughEdge: boolean;
  /** The address per-client limits count by. */
  clientIp: string;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function edgeCaller(
  event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>,
  originSecret: string | undefined,
): EdgeCaller {
  const sourceIp = event.requestContext?.http?.sourceIp ?? 'unknown';
  if (!originSecret) return { throughEdge: true, clientIp: sourceIp };
  const headers = event.headers ?? {};
  if (!sameSecret(headers[ORIGIN_VERIFY_HEADER], originSecret))
    return { throughEdge: false, clientIp: sourceIp };
  return { throughEdge: true, clientIp: headers[VIEWER_ADDRESS_HEADER] || sourceIp };
}
