/**
 * The route table: the one list of backend operations. CDK builds one Lambda and
 * one API Gateway route per entry, the local gateway serves the same entries with
 * the same handlers, the web client is typed from it, and tests check that every
 * entry has a handler and the right authorizer.
 *
 * Handler file: `lambdas/src/<http|webhooks>/<operationId>.ts`, exporting `handler`.
 */
import { z } from 'zod';
import { okResponse } from '../schemas/common';
import { meOutput, type Role } from '../schemas/me';
import { joinWaitlistInput, sendContactMessageInput } from '../schemas/public';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A fixed window per client IP: at most `limit` calls every `windowSeconds`. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

/** Who may call a route. */
export type Access =
  /** Anyone; public routes that write are rate limited per client. */
  | { kind: 'public'; rateLimit?: RateLimit }
  /** A signed-in user (Cognito JWT) whose role, loaded from the table, is listed. */
  | { kind: 'signedIn'; roles: readonly Role[]; rateLimit?: RateLimit }
  /** Stripe, proven by the webhook signature on the raw body; no JWT. */
  | { kind: 'stripeSignature' };

/** What a route's Lambda may touch; CDK grants exactly this (least privilege). */
export type Capability =
  | 'table:read'
  | 'table:write'
  | 'email:send'
  | 'receipts:read'
  | 'receipts:write'
  | 'userPool:admin'
  | 'stripe';

export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** API Gateway path syntax: `/employees/{userId}`. */
  path: string;
  summary: string;
  access: Access;
  input: I;
  output: O;
  /** Success status (200 unless the route creates something). */
  status?: number;
  /** Largest accepted body, bytes. Defaults to DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  uses: readonly Capability[];
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * Public form limit (docs/decisions.md): 10 submissions per client IP per
 * 10 minutes per form. Generous for a shared office NAT, useless for spam.
 */
const PUBLIC_FORM_LIMIT: RateLimit = { limit: 10, windowSeconds: 600 };

/** Keeps each entry's exact access kind in its type, so handlers of signed-in routes get an Actor. */
function route<I extends z.ZodType, O extends z.ZodType, const A extends Access>(
  def: RouteDef<I, O> & { access: A },
): RouteDef<I, O> & { access: A } {
  return def;
}

const signedIn: readonly Role[] = ['manager', 'employee'];

export const routes = {
  joinWaitlist: route({
    method: 'POST',
    path: '/waitlist',
    summary: 'Join the launch waitlist (/subscribe).',
    access: { kind: 'public', rateLimit: PUBLIC_FORM_LIMIT },
    input: joinWaitlistInput,
    output: okResponse,
    status: 201,
    maxBodyBytes: 4 * 1024,
    uses: ['table:write'],
  }),
  sendContactMessage: route({
    method: 'POST',
    path: '/messages',
    summary: 'Send a message to support (/support); stored, then e-mailed to the support inbox.',
    access: { kind: 'public', rateLimit: PUBLIC_FORM_LIMIT },
    input: sendContactMessageInput,
    output: okResponse,
    status: 201,
    maxBodyBytes: 16 * 1024,
    uses: ['table:write', 'email:send'],
  }),
  getMe: route({
    method: 'GET',
    path: '/me',
    summary: 'The signed-in user: identity, role, team and status.',
    access: { kind: 'signedIn', roles: signedIn },
    input: z.object({}),
    output: meOutput,
    uses: ['table:read'],
  }),
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type OperationId = keyof Routes;
export type RouteInput<Op extends OperationId> = z.input<Routes[Op]['input']>;
export type RouteOutput<Op extends OperationId> = z.output<Routes[Op]['output']>;

export const operationIds = Object.keys(routes) as OperationId[];

/** Repository-relative path of the file that handles an operation. */
export function handlerFile(operationId: OperationId): string {
  const access: Access = routes[operationId].access;
  const folder = access.kind === 'stripeSignature' ? 'webhooks' : 'http';
  return `lambdas/src/${folder}/${operationId}.ts`;
}

/** Headers the browser may send cross-origin, for API Gateway CORS and the local gateway alike. */
export const corsPolicy = {
  allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const,
  maxAgeSeconds: 600,
};

/** Splits `/a/{id}/b` into segments and says which are parameters. */
export function matchPath(template: string, actual: string): Record<string, string> | undefined {
  const t = template.split('/').filter(Boolean);
  const a = actual.split('/').filter(Boolean);
  if (t.length !== a.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] as string;
    const val = a[i] as string;
    if (seg.startsWith('{') && seg.endsWith('}')) params[seg.slice(1, -1)] = decodeURIComponent(val);
    else if (seg !== val) return undefined;
  }
  return params;
}
