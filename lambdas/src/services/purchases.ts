/**
 * Purchase history (spec §2 "Purchase history", §6): an employee sees their own
 * purchases, a manager the whole team's with each employee's name. Amounts are
 * what the ledger settled; nothing is recomputed in the browser. Another
 * person's or team's purchase is NOT_FOUND, never FORBIDDEN.
 */
import { isReceiptOverdue, receiptDueDate } from '../../../shared/src/domain/receiptDue';
import { AppError } from '../../../shared/src/errors';
import { type PurchaseRow, purchaseStatusOf } from '../../../shared/src/schemas/purchases';
import { getPurchase, type PurchaseRecord, purchasesPage } from '../data/purchases';
import { getUser } from '../data/users';
import type { Actor } from '../platform/auth';

export function toRow(p: PurchaseRecord, now: Date, employeeName?: string): PurchaseRow {
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
      state: received ? 'received' : isReceiptOverdue(p.createdAt, now) ? 'overdue' : 'awaiting',
      dueDate: receiptDueDate(p.createdAt),
      seen: p.receiptSeenAt !== undefined,
    },
    employeeId: p.userId,
    ...(employeeName !== undefined ? { employeeName } : {}),
  };
}

export async function listPurchases(
  actor: Actor,
  input: { cursor?: string; limit: number },
  now: Date,
): Promise<{ purchases: PurchaseRow[]; nextCursor: string | null }> {
  if (actor.role === 'employee') {
    const page = await purchasesPage({ userId: actor.userId }, input.limit, input.cursor);
    return { purchases: page.purchases.map((p) => toRow(p, now)), nextCursor: page.nextCursor };
  }
  const page = await purchasesPage({ teamId: actor.teamId }, input.limit, input.cursor);
  const people = await Promise.all([...new Set(page.purchases.map((p) => p.userId))].map(getUser));
  const names = new Map(
    people.flatMap((u) => (u ? [[u.userId, `${u.firstName} ${u.lastName}`.trim() || u.email]] : [])),
  );
  return {
    purchases: page.purchases.map((p) => toRow(p, now, names.get(p.userId) ?? 'Former employee')),
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
