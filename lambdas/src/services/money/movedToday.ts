/**
 * What a team's manager has moved today (UTC) by extra deposits and
 * reallocations: the step-up threshold counts this with the request, so
 * splitting a large move into requests under the threshold (ten $500
 * deposits, one removed person at a time) still asks for a fresh factor.
 */
import { cardAccount } from '@shared/domain/ledger';
import { teamJournalSince } from '../../data/ledger';

const COUNTED = new Set(['deposit', 'reallocation']);

export async function movedToday(teamId: string, now: Date): Promise<number> {
  const dayStart = `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
  const entries = await teamJournalSince(teamId, dayStart);
  let cents = 0;
  for (const entry of entries) {
    if (!COUNTED.has(entry.kind)) continue;
    // What reached employees' cards: the credited legs.
    for (const leg of entry.legs)
      if (leg.amountCents > 0 && leg.account.startsWith(cardAccount(''))) cents += leg.amountCents;
  }
  return cents;
}
