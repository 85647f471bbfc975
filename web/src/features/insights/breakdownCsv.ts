/**
 * Each Insights breakdown as a CSV file (issue 26, point 3), made in the
 * browser from the very numbers the screen shows; quoting is
 * shared/src/domain/csv.ts's (RFC 4180), and free text from people or card
 * networks (merchants, names) cannot run as a spreadsheet formula.
 */
import { spreadsheetSafe, toCsv } from '@shared/domain/csv';

/** Cents as a plain decimal amount ("1234.50", "-3.00"): what spreadsheets read as a number. */
export function decimalAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function breakdownCsv(
  nameHeader: string,
  rows: readonly { label: string; cents: number; count: number }[],
) {
  return toCsv(
    [nameHeader, 'Spent (USD)', 'Purchases'],
    rows.map((row) => [spreadsheetSafe(row.label), decimalAmount(row.cents), row.count]),
  );
}

/** Breakdown files are CSV: the shared download. */
export { saveFile as saveCsv } from '../../components/saveFile';
