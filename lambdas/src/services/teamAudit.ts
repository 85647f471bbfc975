/**
 * The team's audit log (spec §2 Audit): the manager actions recorded by the
 * services and every money movement read from the ledger's journal, merged
 * newest first, so nothing that moved money can be missing from it.
 */
import { listAudit } from '../data/audit';
import { teamJournal } from '../data/ledger';
import type { Actor } from '../platform/auth';

/** The team's audit log: every manager action and every money movement (from the journal), newest first. */
export async function teamAudit(actor: Actor) {
  const [actions, journal] = await Promise.all([listAudit(actor.teamId, 500), teamJournal(actor.teamId)]);
  const movements = journal.map((entry) => ({
    eventId: entry.entryId,
    // Money moves for the system (cycles, the card network) or for a manager's request,
    // whose own action is logged beside it.
    actorId: 'system',
    action: `money.${entry.kind}`,
    after: { description: entry.description, legs: entry.legs, ...(entry.references ?? {}) },
    at: entry.postedAt,
  }));
  return { events: [...actions, ...movements].sort((a, b) => b.at.localeCompare(a.at)) };
}
