/**
 * Words and formats of purchase history (spec §2, §9): dates MM/DD/YYYY,
 * prices in dollars with 2 decimals (formatted from the ledger's cents, never
 * recomputed), receipt and purchase states, and title suggestions.
 */
import { receiptOverdueSince } from '@shared/domain/receiptOverdue';
import type { Platform } from '@shared/schemas/catalogue';
import type { PurchaseRow, PurchaseStatus } from '@shared/schemas/purchases';
import { formatDate } from '../../stores/teamCalendar';

export const AWAITING_RECEIPT = 'Awaiting Receipt';
export const MAX_SUGGESTIONS = 5;
/** A pending purchase (a hold not yet captured) has no receipt action yet. */
export const RECEIPT_AFTER_SETTLEMENT = 'Receipt once settled';

/** Where "Replace" was: a receipt the manager has opened stays as it is (docs/decisions.md "Replace until seen"). */
export const RECEIPT_SEEN = 'Seen by your manager, so it can no longer be replaced';

/** MM/DD/YYYY of a day, or of an instant's day in the team's zone (stores/teamCalendar.ts). */
export { formatDate };

export const STATUS_LABELS: Record<PurchaseStatus, string> = {
  pending: 'Pending',
  settled: 'Settled',
  refunded: 'Refunded',
  partlyRefunded: 'Partly refunded',
  declined: 'Declined',
};

/** Under a declined purchase's price: it was shown, never taken. */
export const NOT_CHARGED = 'Not charged';

/**
 * A file's size as the upload dialog shows it: in bytes under 1 KB (a 24-byte
 * file is not "1 KB"), else in KB of 1,000 bytes like the 150,000-byte limit,
 * rounded up so a file just over the limit never reads as within it.
 */
export function fileSizeText(bytes: number): string {
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  return `${Math.ceil(bytes / 1000).toLocaleString('en-US')} KB`;
}

/** What the receipt column says; overdue since the day after the due day, as the Activity Log says. */
export function receiptLabel(row: PurchaseRow): string {
  if (row.receipt.state === 'received') return 'Receipt received';
  if (row.receipt.state === 'overdue')
    return `${AWAITING_RECEIPT} (overdue since ${formatDate(receiptOverdueSince(row.receipt.dueDate))})`;
  return AWAITING_RECEIPT;
}

/** The catalogue's partner platforms by their shop names (spec §9). */
export const PARTNER_NAMES: Record<Platform, string> = {
  amazon: 'Amazon',
  audible: 'Audible',
  udemy: 'Udemy',
  walmart: 'Walmart',
  cultureWorks: 'The Culture Works',
  coursera: 'Coursera',
  ebay: 'eBay',
  lorman: 'Lorman',
};

/**
 * Title suggestions (spec §9: at most 5): merchant names, from the partners and
 * the person's own past vendors, that start with what was typed (any case).
 */
export function titleSuggestions(typed: string, pastVendors: readonly string[]): string[] {
  const prefix = typed.trim().toLowerCase();
  if (!prefix) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of [...pastVendors, ...Object.values(PARTNER_NAMES)]) {
    const key = name.toLowerCase();
    if (seen.has(key) || !key.startsWith(prefix) || key === prefix) continue;
    seen.add(key);
    out.push(name);
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}
