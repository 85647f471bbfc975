/** The words of purchase history (web/src/features/purchases/purchaseText.ts). */

import { receiptDueDay, receiptStage } from '@shared/domain/businessDays';
import { DEFAULT_TIME_ZONE as NY, startOfDayIn } from '@shared/domain/calendar';
import { receiptOverdueSince } from '@shared/domain/receiptOverdue';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { describe, expect, it } from 'vitest';
import { fileSizeText, receiptLabel } from '../../web/src/features/purchases/purchaseText';

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
    const due = receiptDueDay(purchasedAt, NY);
    expect(due).toBe('2026-12-03');
    const since = receiptOverdueSince(due);
    expect(receiptStage(purchasedAt, new Date(startOfDayIn(since, NY).getTime() - 1), NY)).toBe('dueToday');
    expect(receiptStage(purchasedAt, startOfDayIn(since, NY), NY)).toBe('overdue');
  });

  it('says nothing of a due day while the receipt is not late, and names a received one', () => {
    expect(receiptLabel(row('awaiting', '2026-12-03'))).toBe('Awaiting Receipt');
    expect(receiptLabel(row('received', '2026-12-03'))).toBe('Receipt received');
  });
});

describe('a file’s size in the upload dialog', () => {
  it('is in bytes under 1 KB, and in whole KB (rounded up) from there', () => {
    expect(fileSizeText(0)).toBe('0 bytes');
    expect(fileSizeText(1)).toBe('1 byte');
    expect(fileSizeText(24)).toBe('24 bytes');
    expect(fileSizeText(999)).toBe('999 bytes');
    expect(fileSizeText(1000)).toBe('1 KB');
    expect(fileSizeText(1001)).toBe('2 KB');
    expect(fileSizeText(150_000)).toBe('150 KB');
    expect(fileSizeText(150_001)).toBe('151 KB');
    expect(fileSizeText(2_400_000)).toBe('2,400 KB');
  });
});
