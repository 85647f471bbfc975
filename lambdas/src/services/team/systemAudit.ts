/**
 * What the product does to people and cards by itself, in the team's
 * Activity Log: the receipt job's freeze and its lifting (by the job or right
 * after an upload), and the dormancy job's inactive card and pause. The actor
 * is the system (shown as "Learning Budget (automatic)"), the target the card's
 * owner, and `after` holds the card and the reason for the log's words
 * (shared/src/domain/auditLog.ts).
 *
 * Each entry is a transaction item written with the change it records
 * (data/cards.ts `changeCardFreeze`, data/dormancy.ts `recordDeactivation`),
 * whose condition lets only the run that makes the change write it; its id is
 * derived from the event (data/audit.ts `derivedAuditId`), so the same event
 * sent twice is refused by the entry's own conditional write too.
 */
import { type AuditAction, type OverdueReceiptNote, SYSTEM_ACTOR } from '@shared/domain/auditLog';
import { receiptDueDay } from '@shared/domain/businessDays';
import { receiptOverdueSince } from '@shared/domain/receiptOverdue';
import type { FreezeReasons } from '@shared/domain/spendPolicy';
import { type AuditEvent, auditTransactItem } from '../../data/audit';
import type { CardRecord } from '../../data/cards';
import type { PurchaseRecord } from '../../data/purchases';
import type { TransactItem } from '../../data/transactions';
import type { UserRecord } from '../../data/users';

function cardFields(card: CardRecord) {
  return { cardId: card.cardId, last4: card.last4 };
}

/** One system entry on a person; `eventKey` names the event beyond its time (see derivedAuditId). */
function systemEntry(
  event: Omit<AuditEvent, 'actorId'> & { action: AuditAction },
  eventKey: string,
): TransactItem {
  return auditTransactItem({ ...event, actorId: SYSTEM_ACTOR }, `${event.action}:${eventKey}`);
}

/** The receipt job froze `card` for the receipts in `overdue`, oldest first. */
export function receiptFreezeEntry(
  card: CardRecord,
  overdue: PurchaseRecord[],
  at: string,
  zone: string,
): TransactItem {
  const notes: OverdueReceiptNote[] = [...overdue]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((p) => ({
      purchaseId: p.purchaseId,
      merchant: p.merchant,
      amountCents: p.amountCents,
      overdueSince: receiptOverdueSince(receiptDueDay(p.createdAt, zone)),
    }));
  return systemEntry(
    {
      teamId: card.teamId,
      action: 'card.receiptFreeze',
      targetId: card.userId,
      before: { status: card.status },
      after: { ...cardFields(card), status: 'inactive', reason: 'missingReceipt', overdue: notes },
      at,
    },
    card.cardId,
  );
}

/** Every overdue receipt is in: the receipt freeze is lifted; `stillFrozenFor` names the reasons left. */
export function receiptFreezeLiftedEntry(
  card: CardRecord,
  stillFrozenFor: (keyof FreezeReasons)[],
  at: string,
): TransactItem {
  return systemEntry(
    {
      teamId: card.teamId,
      action: 'card.receiptFreezeLifted',
      targetId: card.userId,
      before: { status: card.status },
      after: {
        ...cardFields(card),
        status: stillFrozenFor.length > 0 ? 'inactive' : 'active',
        reason: 'missingReceipt',
        stillFrozenFor,
      },
      at,
    },
    card.cardId,
  );
}

/** 13 months without a purchase: the card is inactive (when there is one) and the person paused. */
export function dormantEntry(user: UserRecord, card: CardRecord | undefined, at: string): TransactItem {
  return systemEntry(
    {
      teamId: user.teamId,
      action: 'card.dormant',
      targetId: user.userId,
      before: { status: user.status },
      after: {
        ...(card ? { ...cardFields(card), cardStatus: 'inactive' } : {}),
        status: 'paused',
        reason: 'dormant',
        quietSince: user.quietSince,
      },
      at,
    },
    // One deactivation per dormancy clock: a restarted clock is a new event.
    `${user.userId}:${user.quietSince}`,
  );
}
