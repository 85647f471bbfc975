/** The shape of one REST endpoint and the helpers endpoints share. */
import type { EmulatorContext, RequestMeta } from './context';
import { invalidRequest } from './errors';
import type { Params } from './params';

export interface ApiRequest {
  params: Params;
  /** Path parameters, e.g. `{ id: 'cus_123' }` for `/v1/customers/:id`. */
  path: Record<string, string>;
  meta: RequestMeta;
  /** The `Stripe-Version` header, if sent. */
  stripeVersion: string | null;
  clientIp: string | null;
}

export interface ApiResponse {
  status?: number;
  body: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** e.g. `/v1/customers/:id/sources/:card` */
  path: string;
  /** Publishable keys (pk_test_) may call it: only card tokenization. */
  publishable?: boolean;
  handle(ctx: EmulatorContext, req: ApiRequest): ApiResponse | Promise<ApiResponse>;
}

export interface ListObject<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** Stripe's cursor pagination over items already in newest-first order. */
export function paginate<T extends { id: string }>(
  url: string,
  items: readonly T[],
  params: Params,
): ListObject<T> {
  const limit = params.integer('limit', { min: 1, max: 100 }) ?? 10;
  const after = params.string('starting_after');
  const before = params.string('ending_before');
  let start = 0;
  let end = items.length;
  if (after) {
    const i = items.findIndex((x) => x.id === after);
    if (i < 0) throw invalidRequest(`No such object: '${after}'`, 'starting_after', 'resource_missing');
    start = i + 1;
  }
  if (before) {
    const i = items.findIndex((x) => x.id === before);
    if (i < 0) throw invalidRequest(`No such object: '${before}'`, 'ending_before', 'resource_missing');
    end = i;
    start = Math.max(start, end - limit);
  }
  const data = items.slice(start, Math.min(end, start + limit));
  return { object: 'list', data, has_more: start + data.length < end, url };
}

/** Only US dollars: the product charges and funds in USD (decisions.md, Money). */
export function readCurrency(params: Params, required = true): 'usd' | undefined {
  const currency = params.string('currency', { required })?.toLowerCase();
  if (currency === undefined) return undefined;
  if (currency !== 'usd') {
    throw invalidRequest(`Invalid currency: ${currency}. The emulator supports usd only.`, 'currency');
  }
  return 'usd';
}

/**
 * Stripe's `created` list filter: `created=<unix s>` or any of
 * `created[gt|gte|lt|lte]`. Returns a predicate on an object's `created`.
 */
export function readCreatedFilter(params: Params): (item: { created: number }) => boolean {
  if (!params.has('created')) return () => true;
  let range: Params | undefined;
  try {
    range = params.object('created');
  } catch {
    const at = params.integer('created', { min: 0 });
    return (item) => item.created === at;
  }
  const gt = range?.integer('gt', { min: 0 });
  const gte = range?.integer('gte', { min: 0 });
  const lt = range?.integer('lt', { min: 0 });
  const lte = range?.integer('lte', { min: 0 });
  return (item) =>
    (gt === undefined || item.created > gt) &&
    (gte === undefined || item.created >= gte) &&
    (lt === undefined || item.created < lt) &&
    (lte === undefined || item.created <= lte);
}
