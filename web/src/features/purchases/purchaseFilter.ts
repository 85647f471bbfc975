/**
 * Purchase History's filter (issue 26): Insights links each bar and row to
 * "the matching purchases" with a query string: `from`/`to` (months of the
 * team's calendar), `skill`, `media`, `merchant`, `person` (a user id) and
 * `receipts=awaiting`. GET /purchases has no filters (a cursor and a page
 * size only), so the page loads pages until it is past the period's first
 * month (or to the end) and filters the loaded rows here. Only money that
 * moved is listed: settled and refunded purchases, as Insights counts them.
 */
import type { PurchaseRow } from '@shared/schemas/purchases';
import { monthLabel, monthOf } from '../insights/period';
import { MEDIA_LABELS, skillOf } from './skillText';

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

const MOVED: ReadonlySet<PurchaseRow['status']> = new Set(['settled', 'partlyRefunded', 'refunded']);

export function matches(row: PurchaseRow, filter: PurchaseFilter, zone: string): boolean {
  if (filter.receipts === 'awaiting') {
    if (row.status === 'declined' || row.status === 'pending') return false;
    if (row.receipt.state !== 'awaiting' && row.receipt.state !== 'overdue') return false;
  } else if (!MOVED.has(row.status)) return false;
  if (filter.from || filter.to) {
    const month = monthOf(row.date, zone);
    if (filter.from && month < filter.from) return false;
    if (filter.to && month > filter.to) return false;
  }
  const skill = skillOf(row);
  if (filter.skill && skill.skillArea !== filter.skill) return false;
  if (filter.media && skill.media !== filter.media) return false;
  if (filter.merchant && row.vendor !== filter.merchant) return false;
  if (filter.person && row.employeeId !== filter.person) return false;
  return true;
}

/** Rows come newest first: once the last one is before the first month, older pages cannot match. */
export function pastPeriod(rows: readonly PurchaseRow[], filter: PurchaseFilter, zone: string): boolean {
  const last = rows.at(-1);
  return Boolean(filter.from && last && monthOf(last.date, zone) < filter.from);
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
