/**
 * The team's audit log (manager console "Activity"): the manager actions
 * recorded by the services and every money movement read from the ledger's
 * journal, merged newest first, so nothing that moved money can be missing
 * from it. Read a page at a time, optionally for one person or one kind.
 *
 * The two sources are read backwards in small chunks and merged by time. The
 * cursor holds, for each source, the sort key of the last item handed out (or
 * that the source is exhausted), so a page never repeats or skips an event
 * however the two interleave.
 */

import { type AuditKind, auditKind, SYSTEM_ACTOR, SYSTEM_ACTOR_NAME } from '@shared/domain/auditLog';
import { AppError } from '@shared/errors';
import type { auditInput } from '@shared/schemas/team';
import type { z } from 'zod';
import { listTeamUsers } from '../../data/accounts';
import { AUDIT_SK_AFTER_LAST, auditBefore } from '../../data/audit';
import { JOURNAL_SK_AFTER_LAST, type JournalEntry, teamJournalBefore } from '../../data/ledger';
import { listProvisioningTokens, provisioningActorId } from '../../data/provisioning';
import { getPurchase } from '../../data/purchases';
import type { Actor } from '../../platform/auth';

interface LogEvent {
  eventId: string;
  actorId: string;
  action: string;
  targetId?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  at: string;
  /** Every person the event is about (for the person filter). */
  people: string[];
}

/** Per source: the exclusive upper sort key of what is still to read, or null once read to the end. */
interface Cursor {
  audit: string | null;
  journal: string | null;
}

/** Items read from each source per query. */
const CHUNK = 50;
/** Queries one page may make before it answers (possibly short) with a cursor to go on. */
const MAX_QUERIES = 20;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string | undefined): Cursor {
  if (!text) return { audit: AUDIT_SK_AFTER_LAST, journal: JOURNAL_SK_AFTER_LAST };
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    const valid = (v: unknown, prefix: string) =>
      v === null || (typeof v === 'string' && v.startsWith(prefix));
    if (valid(value.audit, 'AUDIT') && valid(value.journal, 'JOURNAL'))
      return { audit: value.audit ?? null, journal: value.journal ?? null };
  } catch {
    // fall through
  }
  throw new AppError('VALIDATION_FAILED', 'This list has changed; please reload it.', {
    fields: { cursor: 'Invalid cursor' },
  });
}

/** The people whose cards a movement touched (`card:`, `hold:`, `debt:` accounts). */
function movementPeople(entry: JournalEntry): string[] {
  const people = new Set<string>();
  if (entry.references?.user) people.add(entry.references.user);
  for (const leg of entry.legs) {
    const match = /^(?:card|hold|debt):(.+)$/.exec(leg.account);
    if (match?.[1]) people.add(match[1]);
  }
  return [...people];
}

function fromJournal(entry: JournalEntry): LogEvent {
  const people = movementPeople(entry);
  // Whose money moved: the one card it touched, or the removed person a reallocation gives from.
  const subject = people.length === 1 ? people[0] : entry.references?.user;
  return {
    eventId: entry.entryId,
    // Money moves for the system (cycles, the card network) or for a manager's
    // request, whose own action is logged beside it.
    actorId: SYSTEM_ACTOR,
    action: `money.${entry.kind}`,
    ...(subject ? { targetId: subject } : {}),
    after: { description: entry.description, legs: entry.legs, ...(entry.references ?? {}) },
    at: entry.postedAt,
    people,
  };
}

/**
 * Receipt events written before they named the person (their target was the
 * purchase): the purchase's owner is the person, so the log does not call a
 * current member "Former member".
 */
async function resolveOldReceiptTargets(teamId: string, events: LogEvent[]) {
  for (const event of events) {
    if (!event.action.startsWith('receipt.') || !event.targetId || event.after?.purchaseId) continue;
    const purchase = await getPurchase(event.targetId);
    if (purchase?.teamId === teamId)
      Object.assign(event, {
        targetId: purchase.userId,
        after: { purchaseId: purchase.purchaseId, ...event.after },
      });
  }
}

/**
 * Everyone a manager's money action names in its `after` (the removed people
 * it gives from, the receivers' shares, a deposit's people), so the person
 * filter finds it and the details can name them.
 */
function moneyActionPeople(after: Record<string, unknown> | undefined): string[] {
  if (!after) return [];
  const ids = [
    ...(Array.isArray(after.from) ? after.from : []),
    ...(after.shares && typeof after.shares === 'object' ? Object.keys(after.shares) : []),
    ...(Array.isArray(after.results) ? (after.results as { userId?: unknown }[]).map((r) => r.userId) : []),
  ];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
}

/**
 * The person a manager's money action was for, when it names one: entries
 * written before they carried a target (a redeem, a deposit, a reallocation
 * from one person) get it from what they stored.
 */
function moneyActionTarget(action: string, after: Record<string, unknown> | undefined): string | undefined {
  if (!after) return undefined;
  const one = (list: unknown[]) => (list.length === 1 && typeof list[0] === 'string' ? list[0] : undefined);
  if ((action === 'funds.redeemed' || action === 'funds.reallocated') && Array.isArray(after.from))
    return one([...new Set(after.from)]);
  if (action === 'funds.deposited' && Array.isArray(after.results))
    return one((after.results as { userId?: unknown }[]).map((r) => r.userId));
  return undefined;
}

/** Everyone whose name the details may show: the people the event is about, its actor aside. */
function mentioned(event: LogEvent): string[] {
  return event.people.filter((id) => id !== event.actorId);
}

/** One source read backwards a chunk at a time, with what has been read but not handed out. */
class Source<T> {
  private buffer: { sortKey: string; event: LogEvent }[] = [];
  /** Exclusive upper sort key of what is not read yet; null once read to the end. */
  private unread: string | null;
  /** Exclusive upper sort key of what is not handed out yet. */
  private position: string | null;

  constructor(
    start: string | null,
    private readonly read: (before: string) => Promise<T[]>,
    private readonly toEvent: (item: T) => { sortKey: string; event: LogEvent },
  ) {
    this.unread = start;
    this.position = start;
  }

  get done(): boolean {
    return this.unread === null && this.buffer.length === 0;
  }

  /** Where the next page starts for this source (null: nothing left). */
  get cursor(): string | null {
    return this.done ? null : this.position;
  }

  get head(): LogEvent | undefined {
    return this.buffer[0]?.event;
  }

  /** Reads the next chunk when nothing is buffered; true when it queried. */
  async fill(): Promise<boolean> {
    if (this.buffer.length > 0 || this.unread === null) return false;
    const items = await this.read(this.unread);
    this.buffer = items.map(this.toEvent);
    this.unread = items.length < CHUNK ? null : (this.buffer.at(-1)?.sortKey ?? null);
    return true;
  }

  /** Hands out the newest buffered event; the cursor moves past it. */
  take(): LogEvent {
    const next = this.buffer.shift() as { sortKey: string; event: LogEvent };
    this.position = next.sortKey;
    return next.event;
  }
}

export async function teamAudit(actor: Actor, input: z.output<typeof auditInput>) {
  const cursor = decodeCursor(input.cursor);
  const teamId = actor.teamId;
  const audit = new Source(
    cursor.audit,
    (before) => auditBefore(teamId, before, CHUNK),
    ({ sk, teamId: _team, eventId, actorId, action, targetId, before, after, at }) => {
      const target = targetId ?? moneyActionTarget(action, after);
      return {
        sortKey: sk,
        event: {
          eventId,
          actorId,
          action,
          ...(target ? { targetId: target } : {}),
          ...(before ? { before } : {}),
          ...(after ? { after } : {}),
          at,
          people: [...new Set([actorId, ...(target ? [target] : []), ...moneyActionPeople(after)])],
        },
      };
    },
  );
  const journal = new Source(
    cursor.journal,
    (before) => teamJournalBefore(teamId, before, CHUNK),
    (entry) => ({ sortKey: entry.gsi1sk, event: fromJournal(entry) }),
  );

  const matches = (event: LogEvent) =>
    (!input.person || event.people.includes(input.person)) &&
    (!input.kind || auditKind(event.action) === (input.kind as AuditKind));

  const page: LogEvent[] = [];
  let queries = 0;
  while (page.length < input.limit && !(audit.done && journal.done) && queries < MAX_QUERIES) {
    // Both sources must show their next event before the newer of the two is known.
    for (const source of [audit, journal]) if (await source.fill()) queries++;
    const heads = [audit, journal].filter((s) => s.head !== undefined);
    if (heads.length === 0) break;
    const newest = heads.reduce((a, b) => ((a.head?.at ?? '') >= (b.head?.at ?? '') ? a : b));
    const event = newest.take();
    if (matches(event)) page.push(event);
  }

  await resolveOldReceiptTargets(teamId, page);
  const names = new Map(
    (await listTeamUsers(teamId)).map((u) => [u.userId, `${u.firstName} ${u.lastName}`.trim()]),
  );
  // What the product did by itself reads as such, in the API as on the screen.
  names.set(SYSTEM_ACTOR, SYSTEM_ACTOR_NAME);
  // What the identity provider did reads as its token's name ("Okta"), revoked or not.
  for (const token of await listProvisioningTokens(teamId)) {
    names.set(provisioningActorId(token.tokenId), token.name);
  }
  const more = !(audit.done && journal.done);
  return {
    events: page.map(({ people, ...event }) => {
      const others = mentioned({ ...event, people }).filter((id) => names.has(id));
      return {
        ...event,
        ...(names.has(event.actorId) ? { actorName: names.get(event.actorId) } : {}),
        ...(event.targetId && names.has(event.targetId) ? { targetName: names.get(event.targetId) } : {}),
        ...(others.length > 0
          ? { names: Object.fromEntries(others.map((id) => [id, names.get(id) as string])) }
          : {}),
      };
    }),
    nextCursor: more ? encodeCursor({ audit: audit.cursor, journal: journal.cursor }) : null,
  };
}
