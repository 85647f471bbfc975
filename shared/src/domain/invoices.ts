/**
 * Invoices and credit notes (issue 25): one document per billing run, made
 * from the ledger's entries of that run, so its total is what the card on file
 * was charged (or refunded) to the cent.
 *
 * - An invoice: a monthly renewal's charge, a member's joining charge, or an
 *   extra deposit request (its charges, one per person). One line per person
 *   funded, the credit each entry gave them.
 * - A credit note: a redemption's refund (or the closing refund). One line for
 *   the balance redeemed and one for the fee kept; its total is what went back
 *   to the card.
 *
 * Both are numbered in one gapless sequence per team (`INV-<team>-000001`),
 * the number taken in the same DynamoDB transaction that stores the document
 * (lambdas/src/data/invoices.ts). A document is never changed once stored.
 */

import { formatUsDay } from './calendar';
import type { Posting } from './ledger';
import { formatCents } from './money';
import { monthInWords } from './monthWords';

export type InvoiceKind = 'invoice' | 'creditNote';

/** What of a journal entry a document is made from. */
export type InvoiceEntry = Pick<Posting, 'entryId' | 'kind' | 'legs' | 'references' | 'refunds'> & {
  postedAt: string;
};

export interface InvoiceLine {
  description: string;
  /** Positive: charged (or, on a credit note, returned); negative: kept back (the redemption fee). */
  amountCents: number;
}

export interface BillTo {
  /** The business name given at setup, or the team's name. */
  name: string;
  /** The manager: who the invoice is addressed to. */
  attention: string;
  email: string;
  addressLines: string[];
}

export interface InvoiceDocument {
  number: string;
  sequence: number;
  kind: InvoiceKind;
  /** ISO time the document was issued (the ledger's time of its run). */
  issuedAt: string;
  /**
   * Its date (`yyyy-mm-dd`) in the team's zone when it was issued: a booked
   * document keeps its date even if the team later changes its zone. Absent
   * on invoices issued before teams had zones, which were dated by UTC.
   */
  issuedOn?: string;
  billTo: BillTo;
  lines: InvoiceLine[];
  /** Sum of the lines: what the card was charged (invoice) or refunded (credit note). */
  totalCents: number;
  /** The Stripe charges (invoice) or the charges refunded (credit note). */
  chargeIds: string[];
}

/** The six characters after `INV-`: the end of the team id (a ULID's random part), upper case. */
export function teamShort(teamId: string): string {
  return teamId
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-6)
    .toUpperCase();
}

export function invoiceNumber(teamId: string, sequence: number): string {
  return `INV-${teamShort(teamId)}-${String(sequence).padStart(6, '0')}`;
}

/** The sequence of a number this team could have issued, or undefined. */
export function sequenceOf(teamId: string, number: string): number | undefined {
  const match = /^INV-([A-Z0-9]{1,6})-(\d{6,})$/.exec(number);
  if (!match || match[1] !== teamShort(teamId)) return undefined;
  const sequence = Number(match[2]);
  return Number.isSafeInteger(sequence) && sequence > 0 ? sequence : undefined;
}

/** The document's date (`yyyy-mm-dd`): the team's day it was issued on (UTC's for the oldest ones). */
export function invoiceDay(invoice: Pick<InvoiceDocument, 'issuedAt' | 'issuedOn'>): string {
  return invoice.issuedOn ?? invoice.issuedAt.slice(0, 10);
}

/** MM/DD/YYYY of the document's date. */
export function invoiceDate(invoice: Pick<InvoiceDocument, 'issuedAt' | 'issuedOn'>): string {
  return formatUsDay(invoiceDay(invoice));
}

export function kindTitle(kind: InvoiceKind): string {
  return kind === 'invoice' ? 'Invoice' : 'Credit note';
}

function externalCents(entry: InvoiceEntry): number {
  return entry.legs.filter((l) => l.account.startsWith('external:')).reduce((s, l) => s + l.amountCents, 0);
}

function creditedPerson(entry: InvoiceEntry): { userId: string; cents: number } | undefined {
  const card = entry.legs.find((l) => l.account.startsWith('card:'));
  return card ? { userId: card.account.slice('card:'.length), cents: card.amountCents } : undefined;
}

function monthWords(month: string | undefined): string | undefined {
  try {
    return month ? monthInWords(month) : undefined;
  } catch {
    return undefined;
  }
}

/** The words of a charged entry's line: what the money was for, and whose card it went to. */
function chargeLineWords(entry: InvoiceEntry, name: string): string {
  const parts = entry.entryId.split('#');
  if (parts[0] === 'FUNDING') {
    const month = monthWords(parts[3]);
    return month ? `Learning budget for ${month}: ${name}` : `Learning budget: ${name}`;
  }
  if (parts[0] === 'JOIN') return `First learning budget: ${name}`;
  if (parts[0] === 'DEPOSIT') return `Extra deposit: ${name}`;
  return `Learning budget: ${name}`;
}

/**
 * The kind, lines, total and charges of one billing run's document, from its
 * ledger entries (all of one run: the credits of one charge or deposit request,
 * or one redemption). Refuses entries that neither charged nor refunded the
 * card, or a mix of both: a run is one or the other.
 */
export function invoiceContent(
  entries: InvoiceEntry[],
  nameOf: (userId: string) => string,
): Pick<InvoiceDocument, 'kind' | 'lines' | 'totalCents' | 'chargeIds'> {
  if (entries.length === 0) throw new Error('an invoice needs at least one ledger entry');
  const sorted = [...entries].sort((a, b) =>
    a.postedAt === b.postedAt ? a.entryId.localeCompare(b.entryId) : a.postedAt < b.postedAt ? -1 : 1,
  );
  const signs = new Set(sorted.map((e) => Math.sign(externalCents(e))));
  if (signs.size !== 1 || signs.has(0)) throw new Error('an invoice is of charges only, or of refunds only');
  if (signs.has(-1)) {
    const lines: InvoiceLine[] = [];
    const charges = new Set<string>();
    for (const entry of sorted) {
      const person = creditedPerson(entry);
      const charged = -externalCents(entry);
      const name = person ? nameOf(person.userId) : 'a former employee';
      lines.push({ description: chargeLineWords(entry, name), amountCents: charged });
      if (entry.references?.charge) charges.add(entry.references.charge);
    }
    return {
      kind: 'invoice',
      lines,
      totalCents: lines.reduce((s, l) => s + l.amountCents, 0),
      chargeIds: [...charges],
    };
  }
  const lines: InvoiceLine[] = [];
  const charges = new Set<string>();
  for (const entry of sorted) {
    const refunded = externalCents(entry);
    const fee = entry.legs
      .filter((l) => l.account.startsWith('revenue:'))
      .reduce((s, l) => s + l.amountCents, 0);
    const closing = entry.entryId.startsWith('CLOSE#');
    const who = entry.references?.user;
    lines.push({
      description: closing
        ? 'Balance left on closing, redeemed'
        : `Redeemed balance: ${who ? nameOf(who) : 'a former employee'}`,
      amountCents: refunded + fee,
    });
    if (fee > 0) lines.push({ description: 'Redemption fee (15%, at least $5)', amountCents: -fee });
    for (const r of entry.refunds ?? []) charges.add(r.chargeId);
  }
  return {
    kind: 'creditNote',
    lines,
    totalCents: lines.reduce((s, l) => s + l.amountCents, 0),
    chargeIds: [...charges],
  };
}

/** "-$5.00" for a negative line, as a credit note shows its fee. */
export function lineAmount(cents: number): string {
  return cents < 0 ? `-${formatCents(-cents)}` : formatCents(cents);
}

/** The total's label: charged, or refunded to the card. */
export function totalLabel(kind: InvoiceKind): string {
  return kind === 'invoice' ? 'Total charged to your card' : 'Total refunded to your card';
}
