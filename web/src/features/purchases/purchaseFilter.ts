/**
 * Purchase History's filter (issue 26): Insights links each bar and row to
 * "the matching purchases" with a query string: `from`/`to` (months of the
 * team's calendar), `skill`, `media`, `merchant`, `person` (a user id) and
 * `receipts=awaiting`. The page sends it to GET /purchases, which filters on
 * the server (by a key range of the team's months, and in DynamoDB) and lists
 * only money that moved: settled and refunded purchases, as Insights counts
 * them.
 */
import { monthLabel } from '../insights/period';
import { MEDIA_LABELS } from './skillText';

export interface PurchaseFilter {
  from?: string;
  to?: string;
  skill?: string;
  media?: string;
  merchant?: string;
  person?: string;
  receipts?: 'awaiting';
}

const KEYS = ['from', 'to', 'skill', 'media', 'merchant', 'person'] as const;

/** The filter the address asks for, or undefined when it asks for none. */
export function filterFrom(params: URLSearchParams): PurchaseFilter | undefined {
  const filter: PurchaseFilter = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  if (params.get('receipts') === 'awaiting') filter.receipts = 'awaiting';
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** The Purchase History address showing `filter`'s purchases. */
export function purchasesLink(filter: PurchaseFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  return `/dashboard/purchasehistory?${params.toString()}`;
}

/** "Leadership · Amazon · Sep 2026 to Nov 2026", in words for the page. */
export function describeFilter(filter: PurchaseFilter, personName?: string): string {
  const parts: string[] = [];
  if (filter.receipts === 'awaiting') parts.push('awaiting a receipt');
  if (filter.skill) parts.push(`skill area ${filter.skill}`);
  if (filter.media) parts.push(MEDIA_LABELS[filter.media as keyof typeof MEDIA_LABELS] ?? filter.media);
  if (filter.merchant) parts.push(`at ${filter.merchant}`);
  if (filter.person) parts.push(`by ${personName ?? 'one person'}`);
  if (filter.from && filter.to) {
    parts.push(
      filter.from === filter.to
        ? `in ${monthLabel(filter.from, 'long')}`
        : `from ${monthLabel(filter.from, 'long')} to ${monthLabel(filter.to, 'long')}`,
    );
  }
  return parts.join(', ');
}
