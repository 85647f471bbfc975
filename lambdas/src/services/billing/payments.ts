/**
 * The manager's payments history (on GET /subscription): what the team's card
 * on file was charged and refunded, one row per charge, deposit request,
 * redemption or closing refund (shared/src/domain/payments.ts), newest first,
 * a page at a time. Read from the team's journal only: the ledger is the
 * record of every charge it credited, so no call to Stripe is made.
 */
import { comparePaymentRows, type PaymentRow, paymentRows } from '@shared/domain/payments';
import { AppError } from '@shared/errors';
import { teamCardMovements } from '../../data/ledger';
import type { UserRecord } from '../../data/users';

interface Cursor {
  date: string;
  id: string;
}

function encodeCursor(row: PaymentRow): string {
  return Buffer.from(JSON.stringify({ date: row.date, id: row.id })).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.date === 'string' && typeof value.id === 'string')
      return { date: value.date, id: value.id };
  } catch {
    // fall through
  }
  throw new AppError('VALIDATION_FAILED', 'This list has changed; please reload it.', {
    fields: { paymentsCursor: 'Invalid cursor' },
  });
}

/** A page of the team's payments; `people` are the team's users (for names), read once by the caller. */
export async function listPayments(
  teamId: string,
  input: { cursor?: string; limit: number },
  people: readonly UserRecord[],
): Promise<{ rows: PaymentRow[]; nextCursor: string | null }> {
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const entries = await teamCardMovements(teamId);
  const names = new Map(people.map((p) => [p.userId, `${p.firstName} ${p.lastName}`.trim()]));
  const rows = paymentRows(entries, (userId) => names.get(userId) || 'a former employee');
  // Rows strictly after the cursor's in the list's order: a row the ledger adds later
  // (a newer charge) appears on the first page, never twice.
  const rest = after ? rows.filter((row) => comparePaymentRows(after, row) < 0) : rows;
  const payments = rest.slice(0, input.limit);
  const last = payments.at(-1);
  return { rows: payments, nextCursor: rest.length > input.limit && last ? encodeCursor(last) : null };
}
