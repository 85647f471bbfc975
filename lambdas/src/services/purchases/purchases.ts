/**
 * Purchase history (spec §2 "Purchase history", §6): an employee sees their own
 * purchases, a manager the whole team's with each employee's name. Amounts are
 * what the ledger settled; nothing is recomputed in the browser. Another
 * person's or team's purchase is NOT_FOUND, never FORBIDDEN.
 */

import { startOfDayIn } from '@shared/domain/calendar';
import { UNKNOWN_MEDIA, UNKNOWN_SKILL } from '@shared/domain/insightDeltas';
import { holdAccount } from '@shared/domain/ledger';
import { isReceiptOverdue, receiptDueDate } from '@shared/domain/receiptDue';
import { AppError } from '@shared/errors';
import type { PurchaseMedia, SkillArea } from '@shared/schemas/insights';
import {
  type ListPurchasesInput,
  PURCHASE_FILTER_KEYS,
  type PurchaseRow,
  purchaseStatusOf,
} from '@shared/schemas/purchases';
import { getTeamZone, getUsersProjected, listTeamUsers } from '../../data/accounts';
import {
  type AuthorizationRecord,
  type DeclineRecord,
  declinePosition,
  declinesPage,
  isDeclinePosition,
  pendingAuthorizations,
} from '../../data/cards';
import { balanceOf, totalBalance } from '../../data/ledger';
import {
  filteredPurchasesPage,
  getPurchase,
  type PurchaseRecord,
  purchaseCursor,
  purchasesPage,
} from '../../data/purchases';
import type { Actor } from '../../platform/auth';
import { teamEmployee } from '../team';
import { nextMonth } from './purchaseExport';

export function toRow(p: PurchaseRecord, now: Date, zone: string, employeeName?: string): PurchaseRow {
  const received = p.receiptStatus === 'received' && p.receipt !== undefined;
  const refundedCents = p.refundedCents ?? 0;
  return {
    purchaseId: p.purchaseId,
    title: p.title ?? null,
    date: p.createdAt,
    amountCents: p.amountCents,
    refundedCents,
    vendor: p.merchant,
    // A Purchase item is written by the capture, so it is settled by the time it exists.
    status: purchaseStatusOf({ amountCents: p.amountCents, refundedCents, settled: true }),
    receipt: {
      state: received ? 'received' : isReceiptOverdue(p.createdAt, now, zone) ? 'overdue' : 'awaiting',
      dueDate: receiptDueDate(p.createdAt, zone),
      seen: p.receiptSeenAt !== undefined,
    },
    employeeId: p.userId,
    ...(employeeName !== undefined ? { employeeName } : {}),
    // Issue 26: an older purchase (before skill areas) is Uncategorised, which nobody chose.
    skillArea: (p.skillArea ?? UNKNOWN_SKILL) as SkillArea,
    media: (p.media ?? UNKNOWN_MEDIA) as PurchaseMedia,
    skillSource: p.skillSource ?? 'none',
  };
}

/**
 * How far back a hold is usually still pending. Stripe expires an uncaptured
 * Issuing authorization after 7 days for most merchants (a later capture
 * settles it anyway), so 10 days bounds the usual read with room to spare.
 * A hold older than that (a lodging merchant may hold for 31 days, or its
 * release has not reached us yet) is still found: see `liveHolds`.
 */
export const PENDING_WINDOW_DAYS = 10;

/** What the owner's hold accounts hold in all: the employee's, or every employee's of the team. */
async function heldInAll(owner: { teamId: string } | { userId: string }): Promise<number> {
  if ('userId' in owner) return balanceOf(holdAccount(owner.userId));
  const members = (await listTeamUsers(owner.teamId)).filter((u) => u.role === 'employee');
  return totalBalance(members.map((m) => holdAccount(m.userId)));
}

/**
 * The owner's holds still live, newest first. The recent window is read
 * first; when it holds less than the hold accounts do, an older hold is still
 * on, and every authorization is read, so a hold is never on the card without
 * its row in the list (the hold accounts and the holds agree: docs/ledger.md).
 */
async function liveHolds(owner: { teamId: string } | { userId: string }, now: Date) {
  const since = new Date(now.getTime() - PENDING_WINDOW_DAYS * 86_400_000).toISOString();
  const [recent, held] = await Promise.all([pendingAuthorizations(owner, since), heldInAll(owner)]);
  const found = recent.reduce((sum, a) => sum + a.heldCents, 0);
  return found >= held ? recent : pendingAuthorizations(owner, '');
}

/**
 * A hold not yet captured: listed as 'pending' with what it still holds. Its
 * receipt can only be sent once it settles (the Purchase exists then), so the
 * web app offers no upload; the due date shown is the one it will have.
 */
export function pendingRow(auth: AuthorizationRecord, zone: string, employeeName?: string): PurchaseRow {
  return {
    purchaseId: auth.authorizationId,
    title: null,
    date: auth.decidedAt,
    amountCents: auth.heldCents,
    refundedCents: 0,
    vendor: auth.merchant,
    status: 'pending',
    receipt: { state: 'awaiting', dueDate: receiptDueDate(auth.decidedAt, zone), seen: false },
    employeeId: auth.userId ?? '',
    ...(employeeName !== undefined ? { employeeName } : {}),
  };
}

/**
 * A declined purchase (docs/decisions.md "Declines in Purchase History"): what
 * was asked and why the card refused it. Nothing was held or taken, so it is
 * in no balance or total, and no receipt is asked for (never awaiting, never
 * overdue, never a reason to freeze the card).
 */
export function declinedRow(decline: DeclineRecord, employeeName?: string): PurchaseRow {
  return {
    purchaseId: decline.authorizationId,
    title: null,
    date: decline.decidedAt,
    amountCents: decline.amountCents,
    refundedCents: 0,
    vendor: decline.merchant,
    status: 'declined',
    declineReason: decline.reason ?? 'This purchase was declined.',
    receipt: { state: 'none', dueDate: '', seen: false },
    employeeId: decline.userId ?? '',
    ...(employeeName !== undefined ? { employeeName } : {}),
  };
}

/**
 * Where the list stopped in each of its two streams, purchases (`p`, the data
 * layer's cursor) and declines (`d`, the last one shown): the list is the two
 * merged newest first, so a page may take more of one than of the other.
 */
interface ListCursor {
  p?: string;
  d?: string;
}

function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeListCursor(cursor: string | undefined): ListCursor {
  if (cursor === undefined) return {};
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const p = value.p;
    const d = value.d;
    if (value && typeof value === 'object' && (p === undefined || typeof p === 'string')) {
      if (d === undefined || isDeclinePosition(d)) return { p, d };
    }
  } catch {
    // fall through
  }
  throw new AppError('VALIDATION_FAILED', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' } });
}

type Entry =
  | { kind: 'purchase'; at: string; purchase: PurchaseRecord }
  | { kind: 'decline'; at: string; decline: DeclineRecord };

/**
 * One page of the owner's purchases and declines merged newest first, at most
 * `limit` of them: each stream is read `limit` deep after where the last page
 * stopped in it, so however many times a card was declined, a page is never
 * longer and the declines page like purchases do.
 */
async function settledAndDeclined(
  owner: { teamId: string } | { userId: string },
  limit: number,
  cursor: ListCursor,
): Promise<{ entries: Entry[]; nextCursor: string | null }> {
  const [page, declines] = await Promise.all([
    purchasesPage(owner, limit, cursor.p),
    declinesPage(owner, limit, cursor.d),
  ]);
  const merged: Entry[] = [
    ...page.purchases.map((purchase): Entry => ({ kind: 'purchase', at: purchase.createdAt, purchase })),
    ...declines.map((decline): Entry => ({ kind: 'decline', at: decline.decidedAt, decline })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const entries = merged.slice(0, limit);
  const lastPurchase = entries.findLast((e) => e.kind === 'purchase');
  const lastDecline = entries.findLast((e) => e.kind === 'decline');
  const takenPurchases = entries.filter((e) => e.kind === 'purchase').length;
  const takenDeclines = entries.length - takenPurchases;
  const purchasesLeft = takenPurchases < page.purchases.length || page.nextCursor !== null;
  // A full read may have more behind it (DynamoDB cannot say without reading on).
  const declinesLeft = takenDeclines < declines.length || declines.length === limit;
  if (!purchasesLeft && !declinesLeft) return { entries, nextCursor: null };
  const next: ListCursor = {
    p: lastPurchase?.kind === 'purchase' ? purchaseCursor(lastPurchase.purchase) : cursor.p,
    d: lastDecline?.kind === 'decline' ? declinePosition(lastDecline.decline) : cursor.d,
  };
  return { entries, nextCursor: encodeListCursor(next) };
}

/**
 * A filtered page (issue 26, Insights' links): only money that moved, so the
 * Purchase items alone (no pending holds, no declines), read by a key range
 * of the team's calendar months and filtered in DynamoDB. A manager's
 * `person` reads that employee's own list, once they are on the team (anyone
 * else's: NOT_FOUND, as every team-scoped read); an employee may name only
 * themselves.
 */
async function filteredPage(
  actor: Actor,
  input: ListPurchasesInput,
  zone: string,
): Promise<{ entries: PurchaseRecord[]; nextCursor: string | null }> {
  let owner: { teamId: string } | { userId: string };
  if (actor.role === 'employee') {
    if (input.person !== undefined && input.person !== actor.userId) {
      throw new AppError('NOT_FOUND', 'No such person on your team.');
    }
    owner = { userId: actor.userId };
  } else if (input.person !== undefined) {
    if (!(await teamEmployee(actor, input.person)))
      throw new AppError('NOT_FOUND', 'No such person on your team.');
    owner = { userId: input.person };
  } else owner = { teamId: actor.teamId };
  const range = {
    ...(input.from ? { from: startOfDayIn(`${input.from}-01`, zone).toISOString() } : {}),
    ...(input.to ? { to: startOfDayIn(`${nextMonth(input.to)}-01`, zone).toISOString() } : {}),
  };
  const cursor = decodeListCursor(input.cursor);
  const page = await filteredPurchasesPage(
    owner,
    range,
    {
      ...(input.skill !== undefined ? { skillArea: input.skill } : {}),
      ...(input.media !== undefined ? { media: input.media } : {}),
      ...(input.merchant !== undefined ? { merchant: input.merchant } : {}),
      awaitingReceipt: input.receipts === 'awaiting',
    },
    input.limit,
    cursor.p,
  );
  // The list's own cursor, with the purchases' position only (no declines under a filter).
  return {
    entries: page.purchases,
    nextCursor: page.nextCursor ? encodeListCursor({ p: page.nextCursor }) : null,
  };
}

/** Whose names a manager's rows carry: the distinct people, read in batches with only their names. */
async function namesOf(userIds: string[]): Promise<(userId: string | undefined) => string> {
  const people = await getUsersProjected(userIds, ['firstName', 'lastName', 'email']);
  const names = new Map(
    people.map((u) => [u.userId, `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email]),
  );
  return (userId) => (userId && names.get(userId)) || 'Former employee';
}

/**
 * A page of purchases, newest first, declined ones among them. The first page
 * (no cursor) starts with the purchases still pending (holds not yet
 * captured), newest first: they are few, short-lived and not yet Purchases,
 * so they ride on top of the settled list rather than inside its cursor.
 * With a filter (`from`, `to`, `person`, `skill`, `media`, `merchant`,
 * `receipts`), only the settled purchases that match: see `filteredPage`.
 */
export async function listPurchases(
  actor: Actor,
  input: ListPurchasesInput,
  now: Date,
): Promise<{ purchases: PurchaseRow[]; nextCursor: string | null }> {
  if (PURCHASE_FILTER_KEYS.some((key) => input[key] !== undefined)) {
    const zone = await getTeamZone(actor.teamId);
    const page = await filteredPage(actor, input, zone);
    if (actor.role === 'employee') {
      return { purchases: page.entries.map((p) => toRow(p, now, zone)), nextCursor: page.nextCursor };
    }
    const nameOf = await namesOf(page.entries.map((p) => p.userId));
    return {
      purchases: page.entries.map((p) => toRow(p, now, zone, nameOf(p.userId))),
      nextCursor: page.nextCursor,
    };
  }
  const owner = actor.role === 'employee' ? { userId: actor.userId } : { teamId: actor.teamId };
  const cursor = decodeListCursor(input.cursor);
  const [page, pending, zone] = await Promise.all([
    settledAndDeclined(owner, input.limit, cursor),
    input.cursor ? Promise.resolve([]) : liveHolds(owner, now),
    getTeamZone(actor.teamId),
  ]);
  const rowOf = (entry: Entry, name?: string) =>
    entry.kind === 'purchase' ? toRow(entry.purchase, now, zone, name) : declinedRow(entry.decline, name);
  if (actor.role === 'employee') {
    return {
      purchases: [...pending.map((a) => pendingRow(a, zone)), ...page.entries.map((e) => rowOf(e))],
      nextCursor: page.nextCursor,
    };
  }
  const nameOf = await namesOf([
    ...page.entries.flatMap((e) => (e.kind === 'purchase' ? e.purchase.userId : (e.decline.userId ?? []))),
    ...pending.flatMap((a) => a.userId ?? []),
  ]);
  return {
    purchases: [
      ...pending.map((a) => pendingRow(a, zone, nameOf(a.userId))),
      ...page.entries.map((e) =>
        rowOf(e, nameOf(e.kind === 'purchase' ? e.purchase.userId : e.decline.userId)),
      ),
    ],
    nextCursor: page.nextCursor,
  };
}

/**
 * The purchase if the actor may see it: its own employee, or the manager of its
 * team. Anyone else gets NOT_FOUND, so ids cannot be probed.
 */
export async function visiblePurchase(actor: Actor, purchaseId: string): Promise<PurchaseRecord> {
  const purchase = await getPurchase(purchaseId);
  const allowed =
    purchase &&
    (actor.role === 'manager' ? purchase.teamId === actor.teamId : purchase.userId === actor.userId);
  if (!purchase || !allowed) throw new AppError('NOT_FOUND', 'No such purchase.');
  return purchase;
}
