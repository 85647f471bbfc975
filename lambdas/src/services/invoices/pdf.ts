/**
 * A small PDF writer for text documents (an invoice is words and numbers in
 * two columns): PDF 1.4, US Letter pages, the standard Helvetica fonts (every
 * reader has them, nothing embedded), uncompressed content streams.
 *
 * Why not a library: none is installed, and the file this makes is 7-bit
 * ASCII from first byte to last, so it travels through the API's text file
 * answers (platform/http.ts `responseType`, the web client's `response.text()`)
 * unchanged, and the same document always gives the same bytes (no dates, no
 * random ids): a PDF rendered again from the stored invoice is the one sent.
 * Characters outside Latin-1 print as "?" (WinAnsiEncoding covers Latin-1).
 */

export interface PdfText {
  text: string;
  /** Points from the left edge; with `align: 'right'`, where the text ends. */
  x: number;
  size: number;
  bold?: boolean;
  align?: 'left' | 'right';
}

/** One printed row: its texts share a baseline. `gapAfter` adds space below it. */
export interface PdfRow {
  texts: PdfText[];
  /** Draw a thin rule under the row. */
  rule?: boolean;
  gapAfter?: number;
}

export const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN_TOP = 60;
const MARGIN_BOTTOM = 60;
export const MARGIN_X = 56;

/** Advance widths (1/1000 em, Adobe's AFM) of a-z and A-Z in Helvetica and Helvetica-Bold. */
const LETTERS = {
  regular: [
    '556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500',
    '667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611',
  ],
  bold: [
    '556 611 556 611 556 333 611 611 278 278 556 278 889 611 611 611 611 389 556 333 611 556 778 556 556 500',
    '722 722 722 722 667 611 778 722 278 556 722 611 833 722 778 667 778 722 667 611 722 667 944 667 667 611',
  ],
};

/** The same in both: digits and what amounts are written with. */
const COMMON: Record<string, number> = {
  $: 556,
  ',': 278,
  '.': 278,
  '-': 333,
  ' ': 278,
  '(': 333,
  ')': 333,
  '%': 889,
};

function widthTable(rows: string[]): Record<string, number> {
  const table: Record<string, number> = { ...COMMON };
  for (let d = 0; d <= 9; d++) table[String(d)] = 556;
  rows.forEach((row, upper) => {
    row.split(' ').forEach((w, i) => {
      table[String.fromCharCode((upper ? 65 : 97) + i)] = Number(w);
    });
  });
  return table;
}

const WIDTHS = { regular: widthTable(LETTERS.regular), bold: widthTable(LETTERS.bold) };

/** Width of a text in points (any other character counts as an average glyph), so right-aligned texts end where asked. */
export function textWidth(text: string, size: number, bold = false): number {
  const table = bold ? WIDTHS.bold : WIDTHS.regular;
  let units = 0;
  for (const ch of text) units += table[ch] ?? 556;
  return (units * size) / 1000;
}

/** A PDF string literal in WinAnsi: \ ( ) escaped, Latin-1 beyond ASCII as octal, anything else "?". */
function pdfString(text: string): string {
  let out = '(';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code >= 0xa0 && code <= 0xff) out += `\\${code.toString(8).padStart(3, '0')}`;
    else if (ch === '\u2019') out += "'";
    else out += '?';
  }
  return `${out})`;
}

function num(value: number): string {
  return Number(value.toFixed(2)).toString();
}

function pageContent(rows: PdfRow[], heights: number[]): string {
  const ops: string[] = [];
  let y = PAGE_HEIGHT - MARGIN_TOP;
  rows.forEach((row, i) => {
    for (const t of row.texts) {
      const x = t.align === 'right' ? t.x - textWidth(t.text, t.size, t.bold) : t.x;
      ops.push(
        `BT /${t.bold ? 'F2' : 'F1'} ${num(t.size)} Tf ${num(x)} ${num(y)} Td ${pdfString(t.text)} Tj ET`,
      );
    }
    if (row.rule) ops.push(`0.5 w ${MARGIN_X} ${num(y - 5)} m ${PAGE_WIDTH - MARGIN_X} ${num(y - 5)} l S`);
    y -= heights[i] as number;
  });
  return ops.join('\n');
}

function rowHeight(row: PdfRow): number {
  const size = Math.max(10, ...row.texts.map((t) => t.size));
  return Math.round(size * 1.45) + (row.gapAfter ?? 0);
}

/** Splits rows into pages; `footer(page, pages)` is printed at the bottom of each. */
function paginate(rows: PdfRow[]): PdfRow[][] {
  const room = PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
  const pages: PdfRow[][] = [[]];
  let used = 0;
  for (const row of rows) {
    const h = rowHeight(row);
    if (used + h > room && (pages.at(-1) as PdfRow[]).length > 0) {
      pages.push([]);
      used = 0;
    }
    (pages.at(-1) as PdfRow[]).push(row);
    used += h;
  }
  return pages;
}

/** The PDF file of the rows, with the title in its document information. */
export function renderPdf(title: string, rows: PdfRow[]): string {
  const pages = paginate(rows);
  const objects: string[] = [];
  // 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, 5 info, then per page: page, content.
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${pdfString(title)} /Producer (Learning Budget) >>`;
  pages.forEach((pageRows, i) => {
    const pageId = pageIds[i] as number;
    const footer: PdfRow = {
      texts: [
        {
          text: `Page ${i + 1} of ${pages.length}`,
          x: PAGE_WIDTH - MARGIN_X,
          size: 8,
          align: 'right',
        },
      ],
    };
    const content = `${pageContent(pageRows, pageRows.map(rowHeight))}\n${footerContent(footer)}`;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  let file = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = file.length;
    file += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = file.length;
  file += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) file += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  file += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return file;
}

function footerContent(row: PdfRow): string {
  return row.texts
    .map((t) => {
      const x = t.align === 'right' ? t.x - textWidth(t.text, t.size, t.bold) : t.x;
      return `BT /F1 ${num(t.size)} Tf ${num(x)} ${num(MARGIN_BOTTOM - 24)} Td ${pdfString(t.text)} Tj ET`;
    })
    .join('\n');
}
