/**
 * Invoices (issue 25): after each billing run (a monthly renewal, a joining
 * charge, an extra deposit request, a redemption or the closing refund) the
 * run calls `issueInvoice` with the ledger entries it posted. The document is
 * made from those entries as stored (so its total is the charge, or the
 * refund, to the cent), numbered and stored once per run (data/invoices.ts),
 * and e-mailed to the manager once. A retried run calls it again and gets the
 * same invoice; the e-mail goes out on that retry if the first run died
 * before sending it.
 *
 * The PDF is rendered on request from the stored invoice (pdf.ts: the same
 * bytes every time), so nothing but the record is kept.
 */

import { dayIn } from '@shared/domain/calendar';
import {
  type BillTo,
  type InvoiceDocument,
  invoiceContent,
  invoiceDate,
  invoiceDay,
  kindTitle,
  lineAmount,
  sequenceOf,
  totalLabel,
} from '@shared/domain/invoices';
import { formatCents } from '@shared/domain/money';
import { AppError } from '@shared/errors';
import { sendEmail } from '../../adapters/email';
import { getTeam, listTeamUsers, type TeamRecord, zoneOf } from '../../data/accounts';
import {
  claimInvoiceEmail,
  getInvoice,
  type InvoiceRecord,
  listTeamInvoices,
  recordInvoice,
} from '../../data/invoices';
import { getJournals } from '../../data/ledger';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { webConfig } from '../../platform/config';
import { MARGIN_X, PAGE_WIDTH, type PdfRow, renderPdf } from './pdf';

const SELLER = 'Learning Budget';

function billTo(team: TeamRecord, manager: UserRecord | undefined): BillTo {
  const address = team.billingAddress;
  return {
    name: team.businessName || team.name,
    attention: manager ? `${manager.firstName} ${manager.lastName}`.trim() : '',
    email: manager?.email ?? '',
    addressLines: address
      ? [
          address.address1,
          ...(address.address2 ? [address.address2] : []),
          `${address.city}, ${address.state} ${address.zip}`,
        ]
      : [],
  };
}

/**
 * The invoice of one billing run of the team: `sourceId` names the run (the
 * charge id, `DEPOSIT#<request key>`, the redemption's entry id) and
 * `entryIds` the ledger entries it posted, all already on the ledger. Made and
 * numbered once per source; e-mailed to the manager once. Nothing when no
 * entry moved money on the card.
 */
export async function issueInvoice(
  teamId: string,
  sourceId: string,
  entryIds: string[],
  now: Date,
): Promise<InvoiceRecord | undefined> {
  if (entryIds.length === 0) return undefined;
  const found = await getJournals(entryIds);
  const missing = entryIds.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new Error(`invoice ${sourceId}: entries not on the ledger: ${missing.join(', ')}`);
  const entries = [...found.values()];
  const team = await getTeam(teamId);
  if (!team) throw new Error(`invoice ${sourceId}: no team ${teamId}`);
  const [people, manager] = await Promise.all([listTeamUsers(teamId), getUser(team.managerId)]);
  const names = new Map(people.map((p) => [p.userId, `${p.firstName} ${p.lastName}`.trim()]));
  const content = invoiceContent(entries, (userId) => names.get(userId) || 'a former employee');
  // Issued at the run's ledger time: the earliest entry's, so a retry days later dates it the same.
  const issuedAt = entries.map((e) => e.postedAt).sort()[0] as string;
  const { invoice } = await recordInvoice({
    teamId,
    sourceId,
    issuedAt,
    issuedOn: dayIn(issuedAt, zoneOf(team)),
    billTo: billTo(team, manager),
    ...content,
  });
  if (manager && (await claimInvoiceEmail(teamId, invoice.sequence, now.toISOString())))
    await sendInvoiceEmail(invoice, manager);
  return invoice;
}

function link(path: string): string {
  return new URL(path, webConfig().WEB_ORIGIN).toString();
}

export function invoiceEmailSubject(
  invoice: Pick<InvoiceDocument, 'kind' | 'number' | 'totalCents'>,
): string {
  return invoice.kind === 'invoice'
    ? `Invoice ${invoice.number}: ${formatCents(invoice.totalCents)} charged`
    : `Credit note ${invoice.number}: ${formatCents(invoice.totalCents)} refunded`;
}

async function sendInvoiceEmail(invoice: InvoiceRecord, manager: UserRecord): Promise<void> {
  const { billTo: to } = invoice;
  await sendEmail({
    to: [manager.email],
    subject: invoiceEmailSubject(invoice),
    text: [
      `Hi ${manager.firstName},`,
      '',
      invoice.kind === 'invoice'
        ? "Here is the invoice for your team's learning budgets just charged to your card on file."
        : 'Here is the credit note for the money just refunded to your card on file.',
      '',
      `${kindTitle(invoice.kind)} ${invoice.number}`,
      `Date: ${invoiceDate(invoice)}`,
      `Billed to: ${[to.name, ...to.addressLines].join(', ')}`,
      '',
      ...invoice.lines.map((l) => `${l.description}: ${lineAmount(l.amountCents)}`),
      '',
      `${totalLabel(invoice.kind)}: ${formatCents(invoice.totalCents)}`,
      '',
      `Download the PDF, and every earlier invoice, on your Subscription page: ${link('/dashboard/subscription#invoices')}`,
    ].join('\n'),
  });
}

/** The list on the Subscription page: every invoice and credit note of the manager's team, newest first. */
export async function listInvoices(actor: Actor) {
  const invoices = await listTeamInvoices(actor.teamId);
  return {
    invoices: invoices.map((i) => ({
      number: i.number,
      kind: i.kind,
      issuedAt: i.issuedAt,
      issuedOn: invoiceDay(i),
      totalCents: i.totalCents,
      lines: i.lines.length,
    })),
  };
}

/** Rows of the printed document. */
function invoiceRows(invoice: InvoiceRecord): PdfRow[] {
  const right = PAGE_WIDTH - MARGIN_X;
  const text = (t: string, size = 10, bold = false) => ({ text: t, x: MARGIN_X, size, bold });
  const amount = (t: string, size = 10, bold = false) => ({
    text: t,
    x: right,
    size,
    bold,
    align: 'right' as const,
  });
  const rows: PdfRow[] = [
    { texts: [text(kindTitle(invoice.kind), 22, true), amount(SELLER, 12, true)], gapAfter: 14 },
    { texts: [text(`Number: ${invoice.number}`)] },
    { texts: [text(`Date: ${invoiceDate(invoice)}`)], gapAfter: 14 },
    { texts: [text('Billed to', 10, true)] },
    ...[invoice.billTo.name, ...invoice.billTo.addressLines].map((line) => ({ texts: [text(line)] })),
    ...(invoice.billTo.attention ? [{ texts: [text(`Attn: ${invoice.billTo.attention}`)] }] : []),
    ...(invoice.billTo.email ? [{ texts: [text(invoice.billTo.email)] }] : []),
    { texts: [], gapAfter: 10 },
    { texts: [text('Description', 10, true), amount('Amount', 10, true)], rule: true, gapAfter: 4 },
  ];
  for (const line of invoice.lines) {
    // Long names wrap onto the next row rather than run under the amount.
    const parts = wrap(line.description, 78);
    parts.forEach((part, i) => {
      rows.push({ texts: [text(part), ...(i === 0 ? [amount(lineAmount(line.amountCents))] : [])] });
    });
  }
  rows.push({ texts: [], rule: true, gapAfter: 0 });
  rows.push({
    texts: [text(totalLabel(invoice.kind), 11, true), amount(formatCents(invoice.totalCents), 11, true)],
    gapAfter: 14,
  });
  if (invoice.chargeIds.length > 0)
    rows.push({
      texts: [
        text(
          `${invoice.kind === 'invoice' ? 'Card charges' : 'Refunded to the charges'}: ${invoice.chargeIds.join(', ')}`,
          8,
        ),
      ],
    });
  return rows;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    const at = cut > 0 ? cut : width;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  out.push(rest);
  return out;
}

/** The PDF of one of the manager's team's invoices, rendered from its stored record. */
export async function invoicePdf(actor: Actor, number: string) {
  const sequence = sequenceOf(actor.teamId, number);
  const invoice = sequence === undefined ? undefined : await getInvoice(actor.teamId, sequence);
  if (!invoice || invoice.number !== number) throw new AppError('NOT_FOUND', 'No such invoice.');
  return { filename: `${invoice.number}.pdf`, body: invoicePdfBytes(invoice) };
}

export function invoicePdfBytes(invoice: InvoiceRecord): string {
  return renderPdf(`${kindTitle(invoice.kind)} ${invoice.number}`, invoiceRows(invoice));
}
