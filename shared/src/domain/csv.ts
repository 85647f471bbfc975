/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by
 * CRLF, and a field quoted (its quotes doubled) when it holds a quote, a comma,
 * a CR or an LF. Pure, so the export's format is unit-tested apart from its data.
 */

export type CsvValue = string | number | null | undefined;

const needsQuotes = /[",\r\n]/;

/** One field: empty for null/undefined, quoted only when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A header row and the records after it. */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvValue[]>): string {
  let out = csvRow(header);
  for (const row of rows) out += csvRow(row);
  return out;
}

/**
 * Text that a spreadsheet would run as a formula (it starts with = + - @, a
 * tab or a CR) gets a leading apostrophe, so a merchant name such as
 * `=HYPERLINK(...)` arriving from the card network stays text when a manager
 * opens the file (OWASP "CSV injection"). Apply to free text only, never to numbers.
 */
export function spreadsheetSafe(text: string | null | undefined): string {
  if (!text) return '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
