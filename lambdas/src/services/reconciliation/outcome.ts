/** What reconciling one Stripe object came to, and how the ledger's side of it is read. */
import { getJournals, type JournalEntry } from '../../data/ledger';
import type { ReconDifference } from '../../data/reconciliation';

export type Difference = Omit<ReconDifference, 'foundAt'>;

/** matched: the ledger already had it; posted: this run posted what was missing; difference: neither. */
export type Outcome =
  | { status: 'matched' }
  | { status: 'posted' }
  | { status: 'difference'; difference: Difference };

export const matched: Outcome = { status: 'matched' };
export const posted: Outcome = { status: 'posted' };
export function differs(difference: Difference): Outcome {
  return { status: 'difference', difference };
}

/** The money an entry moved: the sum of its positive legs (every posting balances). */
export function movedCents(entry: JournalEntry): number {
  return entry.legs.reduce((sum, leg) => sum + Math.max(0, leg.amountCents), 0);
}

/** What the ledger holds under these entry ids, and which of them are missing. */
export async function ledgerCents(entryIds: string[]): Promise<{ cents: number; missing: string[] }> {
  const entries = await getJournals(entryIds);
  let cents = 0;
  const missing: string[] = [];
  for (const id of entryIds) {
    const entry = entries.get(id);
    if (entry) cents += movedCents(entry);
    else missing.push(id);
  }
  return { cents, missing };
}
