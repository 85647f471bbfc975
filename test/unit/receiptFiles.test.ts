/** Receipt file rules (spec §5) and the due-date placeholder: pure functions, table-driven. */
import { readFileSync } from 'node:fs';
import { isReceiptOverdue, receiptDueDate } from '@shared/domain/receiptDue';
import {
  imageStructureProblem,
  RECEIPT_MAX_BYTES,
  type ReceiptType,
  receiptFileProblem,
  textType,
  unsupportedFormatMessage,
} from '@shared/domain/receiptFiles';
import { purchaseStatusOf } from '@shared/schemas/purchases';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/receipts/${name}`, import.meta.url)));

describe('receiptFileProblem', () => {
  it.each([
    [{ name: 'a.png', type: 'image/png', size: 1000 }, undefined],
    [{ name: 'a.jpg', type: 'image/jpeg', size: RECEIPT_MAX_BYTES }, undefined],
    [
      { name: 'a.gif', type: 'image/gif', size: RECEIPT_MAX_BYTES + 1 },
      "'a.gif' is too large, please pick a smaller file.",
    ],
    [{ name: 'a.svg', type: 'image/svg+xml', size: 10 }, "'image/svg+xml' is not a supported format."],
    [{ name: 'a.pdf', type: 'application/pdf', size: 10 }, "'application/pdf' is not a supported format."],
    [{ name: 'a.png', type: 'image/png', size: 0 }, "'a.png' is empty."],
    // A type the browser cannot name (no extension it knows): the file's name stands in for it.
    [{ name: 'notes.xyz', type: '', size: 10 }, "'notes.xyz' is not a supported format."],
  ])('%o -> %s', (file, expected) => {
    expect(receiptFileProblem(file)).toBe(expected);
  });
});

describe('unsupportedFormatMessage', () => {
  it('names the type the bytes are, or the file’s name when they are of no known type', () => {
    expect(unsupportedFormatMessage('application/pdf', 'fake.png')).toBe(
      "'application/pdf' is not a supported format.",
    );
    expect(unsupportedFormatMessage(undefined, 'fake.png')).toBe("'fake.png' is not a supported format.");
  });
});

describe('textType', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('names text as text/plain, line breaks, tabs and accents included', () => {
    expect(textType(bytes('Notes\tfor the\r\nreceipt: café ✓\n'))).toBe('text/plain');
  });
  it('names nothing for binary bytes, broken UTF-8 or an empty file', () => {
    expect(textType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a]))).toBeUndefined();
    expect(textType(Uint8Array.from([0x41, 0xc3]))).toBeUndefined();
    expect(textType(bytes('text with a \u0001 control'))).toBeUndefined();
    expect(textType(new Uint8Array())).toBeUndefined();
  });
});

describe('imageStructureProblem', () => {
  const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
  const glue = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  it.each([
    ['receipt.png', 'image/png'],
    ['receipt.jpg', 'image/jpeg'],
    ['receipt.gif', 'image/gif'],
  ] as [string, ReceiptType][])('accepts a well-formed %s', (name, type) => {
    expect(imageStructureProblem(fixture(name), type)).toBeUndefined();
  });

  it.each([
    ['receipt.png', 'image/png'],
    ['receipt.jpg', 'image/jpeg'],
    ['receipt.gif', 'image/gif'],
  ] as [string, ReceiptType][])('refuses %s with HTML after its end', (name, type) => {
    expect(imageStructureProblem(glue(fixture(name), html), type)).toBeDefined();
  });

  it('refuses a PNG signature followed by HTML', () => {
    const header = fixture('receipt.png').subarray(0, 8);
    expect(imageStructureProblem(glue(header, html), 'image/png')).toBeDefined();
  });

  it('refuses a truncated image', () => {
    const png = fixture('receipt.png');
    expect(imageStructureProblem(png.subarray(0, png.length - 12), 'image/png')).toBeDefined();
    expect(imageStructureProblem(fixture('receipt.jpg').subarray(0, 200), 'image/jpeg')).toBeDefined();
  });
});

describe('receiptDueDate (the deadline policy: US federal business days, New York time)', () => {
  it.each([
    ['2026-11-02T15:00:00Z', '2026-11-09'], // Monday -> next Monday
    ['2026-11-06T23:00:00Z', '2026-11-16'], // Friday -> Monday after next (Veterans Day, Wed 11th, skipped)
    ['2026-11-07T10:00:00Z', '2026-11-16'], // Saturday -> as from Friday
  ])('%s is due %s', (at, due) => {
    expect(receiptDueDate(at, 'America/New_York')).toBe(due);
  });

  it('is overdue only after the due day', () => {
    // Due Monday 9 November; the whole day is the employee's in New York (EST, UTC-5).
    expect(
      isReceiptOverdue('2026-11-02T15:00:00Z', new Date('2026-11-10T04:59:00Z'), 'America/New_York'),
    ).toBe(false);
    expect(
      isReceiptOverdue('2026-11-02T15:00:00Z', new Date('2026-11-10T05:00:01Z'), 'America/New_York'),
    ).toBe(true);
  });
});

describe('purchaseStatusOf', () => {
  it.each([
    [{ amountCents: 500, refundedCents: 0, settled: false }, 'pending'],
    [{ amountCents: 500, refundedCents: 0, settled: true }, 'settled'],
    [{ amountCents: 500, refundedCents: 200, settled: true }, 'partlyRefunded'],
    [{ amountCents: 500, refundedCents: 500, settled: true }, 'refunded'],
  ])('%o -> %s', (p, status) => {
    expect(purchaseStatusOf(p)).toBe(status);
  });
});
