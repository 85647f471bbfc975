/**
 * The manager's CSV export: the team's purchases made in a month range (months
 * of the team's calendar, in its time zone like every date it prints), newest
 * first, with each one's receipt state. Pages through access pattern 17 a
 * DynamoDB page at a time; the file is built in memory (about 150 bytes a row,
 * so tens of thousands of rows stay far below Lambda's 6 MB answer, and the
 * wrapper gzips it).
 */
import { receiptDueDay, receiptStage } from '@shared/domain/businessDays';
import { dayIn, formatUsDay, startOfDayIn } from '@shared/domain/calendar';
import { type CsvValue, spreadsheetSafe, toCsv } from '@shared/domain/csv';
import { centsAsDecimal } from '@shared/domain/money';
import { getTeamZone, listTeamUsers } from '../../data/accounts';
import { teamPurchasesBetween } from '../../data/purchaseReceipts';
import type { PurchaseRecord } from '../../data/purchases';
import type { Actor } from '../../platform/auth';

export const CSV_HEADER = [
  'Date',
  'Employee',
  'Email',
  'Title',
  'Merchant',
  'Category',
  'Amount (USD)',
  'Receipt',
  'Receipt due',
  'Purchase id',
] as const;

export function nextMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

function receiptState(p: PurchaseRecord, now: Date, zone: string): string {
  if (p.receiptStatus !== 'awaiting') return 'Received';
  return receiptStage(p.createdAt, now, zone) === 'overdue' ? 'Overdue' : 'Awaiting';
}

export async function exportTeamPurchases(actor: Actor, range: { from: string; to: string }, now: Date) {
  const zone = await getTeamZone(actor.teamId);
  const start = startOfDayIn(`${range.from}-01`, zone).toISOString();
  const end = startOfDayIn(`${nextMonth(range.to)}-01`, zone).toISOString();
  const people = new Map((await listTeamUsers(actor.teamId)).map((u) => [u.userId, u]));
  const rows: CsvValue[][] = [];
  for await (const page of teamPurchasesBetween(actor.teamId, start, end)) {
    for (const p of page) {
      const person = people.get(p.userId);
      rows.push([
        formatUsDay(dayIn(p.createdAt, zone)),
        spreadsheetSafe(person ? `${person.firstName} ${person.lastName}`.trim() : ''),
        spreadsheetSafe(person?.email),
        spreadsheetSafe(p.title),
        spreadsheetSafe(p.merchant),
        spreadsheetSafe(p.category),
        // A plain decimal (no $) so spreadsheets read it as a number.
        centsAsDecimal(p.amountCents),
        receiptState(p, now, zone),
        formatUsDay(receiptDueDay(p.createdAt, zone)),
        p.purchaseId,
      ]);
    }
  }
  return { filename: `purchases-${range.from}-to-${range.to}.csv`, body: toCsv(CSV_HEADER, rows) };
}
