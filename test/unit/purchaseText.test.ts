/** The words of purchase history (web/src/features/purchases/purchaseText.ts). */
import { describe, expect, it } from 'vitest';
import { receiptDueDay, receiptStage, startOfBusinessDay } from '../../shared/src/domain/businessDays';
import { receiptOverdueSince } from '../../shared/src/domain/receiptOverdue';
import type { PurchaseRow } from '../../shared/src/schemas/purchases';
import { receiptLabel } from '../../web/src/features/purchases/purchaseText';

function row(state: PurchaseRow['receipt']['state'], dueDate: string): PurchaseRow {
  return {
    purchaseId: 'ipi_1',
    title: null,
    date: '2026-11-25T15:00:00.000Z',
    amountCents: 150,
    refundedCents: 0,
    vendor: 'Coursera',
    status: 'settled',
    receipt: { state, dueDate, seen: false },
    employeeId: 'u1',
  };
}

describe('the receipt column', () => {
  it('says a receipt is overdue since the day after its due day, never the due day itself', () => {
    expect(receiptLabel(row('overdue', '2026-12-03'))).toBe('Awaiting Receipt (overdue since 12/04/2026)');
    expect(receiptLabel(row('overdue', '2026-12-31'))).toBe('Awaiting Receipt (overdue since 01/01/2027)');
  });

  it('names the day the receipt job first counts it overdue', () => {
    const purchasedAt = '2026-11-25T15:00:00.000Z';
    const due = receiptDueDay(purchasedAt);
    expect(due).toBe('2026-12-03');
    const since = receiptOverdueSince(due);
    expect(receiptStage(purchasedAt, new Date(startOfBusinessDay(since).getTime() - 1))).toBe('dueToday');
    expect(receiptStage(purchasedAt, startOfBusinessDay(since))).toBe('overdue');
  });

  it('says nothing of a due day while the receipt is not late, and names a received one', () => {
    expect(receiptLabel(row('awaiting', '2026-12-03'))).toBe('Awaiting Receipt');
    expect(receiptLabel(row('received', '2026-12-03'))).toBe('Receipt received');
  });
});
