/**
 * Invoices (issue 25, point 1) against the Stripe emulator, the SES stand-in
 * and DynamoDB Local: every billing run (joining, the monthly charge, an extra
 * deposit, a redemption) makes one invoice or credit note, numbered in one
 * gapless sequence per team, e-mailed to the manager once, listed on
 * GET /invoices, printed as a PDF by GET /invoices/{number}/pdf; its total is
 * what Stripe charged (or refunded) to the cent. A retried run makes no
 * second invoice; billing runs storing invoices at once never repeat or skip
 * a number (the attack: every run reads the same counter, then writes).
 */
import { randomUUID } from 'node:crypto';
import { invoiceNumber } from '@shared/domain/invoices';
import { monthInWords } from '@shared/domain/monthWords';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InvoiceDraft, listTeamInvoices, recordInvoice } from '../../lambdas/src/data/invoices';
import { issueInvoice } from '../../lambdas/src/services/invoices';
import { inviteAndRegisterEmployee } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

/** The next billing day of a team whose cycle day is `cycleDay`, at 06:00 UTC, as the monthly job runs. */
function nextCycle(cycleDay: number): Date {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(cycleDay, lastDay));
  return next;
}

/** Checks a PDF's structure: header, each xref offset pointing at its object, startxref at the xref. */
function expectWellFormedPdf(pdf: string) {
  expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
  expect(pdf.endsWith('%%EOF\n')).toBe(true);
  expect(
    [...pdf].every((ch) => ch === '\n' || (ch >= ' ' && ch <= '~')),
    'printable 7-bit ASCII and line feeds only',
  ).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
  expect(pdf.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(pdf.slice(startxref)) ?? [];
  expect(Number(first)).toBe(0);
  const table = pdf
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  table.slice(1).forEach((row, i) => {
    const offset = Number(row.slice(0, 10));
    expect(pdf.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  });
  for (const m of pdf.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = (m.index as number) + m[0].length;
    expect(pdf.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
  }
}

describe('invoices', () => {
  it('makes one invoice per charge and a credit note per refund, numbered without gaps, e-mailed once, totals equal to Stripe to the cent', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam(stack);
    const none = await send('GET', '/invoices', manager.accessToken);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ invoices: [] });

    const kim = await inviteAndRegisterEmployee(stack.apiUrl, manager, 60, {
      mailbox: stack.mailbox,
      firstName: 'Alex',
      lastName: 'Kim',
    });
    const ng = await inviteAndRegisterEmployee(stack.apiUrl, manager, 40, {
      mailbox: stack.mailbox,
      firstName: 'Cy',
      lastName: 'Ng',
    });
    const cycle = nextCycle(cycleDay);
    const { handler } = await import('../../lambdas/src/jobs/monthlyFunding');
    expect((await handler({ time: cycle.toISOString() })).status).toBe('done');

    const depositKey = `d-${randomUUID()}`;
    const depositBody = { userIds: [kim.userId, ng.userId], amount: 15 };
    const deposited = await send('POST', '/funds/deposit', manager.accessToken, depositBody, depositKey);
    expect(deposited.status, JSON.stringify(deposited.body)).toBe(200);
    // The same request again (a client retry): answered as before, no second invoice.
    expect((await send('POST', '/funds/deposit', manager.accessToken, depositBody, depositKey)).status).toBe(
      200,
    );

    expect(
      (await send('POST', '/employees/delete', manager.accessToken, { userIds: [ng.userId] })).status,
    ).toBe(200);
    const redeemed = await send(
      'POST',
      '/funds/redeem',
      manager.accessToken,
      { deletedUserIds: [ng.userId] },
      `x-${randomUUID()}`,
    );
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    // Cy: $40 joining + $40 month + $15 deposit = $95, fee 15 % = $14.25.
    expect(redeemed.body).toEqual({ amountCents: 9500, feeCents: 1425 });

    const listed = await send('GET', '/invoices', manager.accessToken);
    expect(listed.status).toBe(200);
    const n = (i: number) => invoiceNumber(teamId, i);
    expect(
      listed.body.invoices.map((i: { number: string; kind: string; totalCents: number; lines: number }) => [
        i.number,
        i.kind,
        i.totalCents,
        i.lines,
      ]),
    ).toEqual([
      [n(5), 'creditNote', 8075, 2],
      [n(4), 'invoice', 3000, 2],
      [n(3), 'invoice', 10000, 2],
      [n(2), 'invoice', 4000, 1],
      [n(1), 'invoice', 6000, 1],
    ]);

    // Each invoice is its charges to the cent, and the credit note its refunds.
    const stored = await listTeamInvoices(teamId);
    const charges = (await stripe.charges.list({ customer: customerId, limit: 100 })).data.filter(
      (c) => c.status === 'succeeded',
    );
    const amountOf = new Map(charges.map((c) => [c.id, c.amount]));
    const invoiced = stored.filter((i) => i.kind === 'invoice');
    for (const invoice of invoiced) {
      expect(invoice.totalCents).toBe(invoice.lines.reduce((s, l) => s + l.amountCents, 0));
      expect(invoice.totalCents, invoice.number).toBe(
        invoice.chargeIds.reduce((s, id) => s + (amountOf.get(id) ?? Number.NaN), 0),
      );
    }
    expect(invoiced.flatMap((i) => i.chargeIds).sort()).toEqual(charges.map((c) => c.id).sort());
    const refunds = (await stripe.refunds.list({ limit: 100 })).data.filter((r) =>
      amountOf.has(r.charge as string),
    );
    const [credit] = stored.filter((i) => i.kind === 'creditNote');
    expect(credit?.totalCents).toBe(refunds.reduce((s, r) => s + r.amount, 0));
    expect(credit?.lines).toEqual([
      { description: 'Redeemed balance: Cy Ng', amountCents: 9500 },
      { description: 'Redemption fee (15%, at least $5)', amountCents: -1425 },
    ]);
    const month = stored.find((i) => i.number === n(3));
    expect(month?.lines).toEqual(
      expect.arrayContaining([
        {
          description: `Learning budget for ${monthInWords(cycle.toISOString().slice(0, 7))}: Alex Kim`,
          amountCents: 6000,
        },
        {
          description: `Learning budget for ${monthInWords(cycle.toISOString().slice(0, 7))}: Cy Ng`,
          amountCents: 4000,
        },
      ]),
    );
    expect(month?.billTo).toMatchObject({ name: 'Acme Learning LLC', email: manager.email });
    expect(month?.billTo.addressLines).toEqual(['500 Congress Ave', 'Austin, TX 78701']);

    // One e-mail per invoice, to the manager, with the invoice in it.
    const mail = (await stack.mailbox.to(manager.email)).filter((m) =>
      /^(Invoice|Credit note) /.test(m.subject),
    );
    expect(mail.map((m) => m.subject).sort()).toEqual(
      [
        `Invoice ${n(1)}: $60.00 charged`,
        `Invoice ${n(2)}: $40.00 charged`,
        `Invoice ${n(3)}: $100.00 charged`,
        `Invoice ${n(4)}: $30.00 charged`,
        `Credit note ${n(5)}: $80.75 refunded`,
      ].sort(),
    );
    const monthMail = mail.find((m) => m.subject.startsWith(`Invoice ${n(3)}`))?.body.text ?? '';
    expect(monthMail).toContain('Total charged to your card: $100.00');
    expect(monthMail).toContain('Billed to: Acme Learning LLC, 500 Congress Ave, Austin, TX 78701');
    expect(monthMail).toContain('/dashboard/subscription#invoices');

    // A billing run retried (the month's credits again, by its charge): the same invoice, no e-mail.
    const again = await issueInvoice(
      teamId,
      month?.chargeIds[0] as string,
      [kim.userId, ng.userId].map((u) => `FUNDING#${teamId}#${u}#${cycle.toISOString().slice(0, 7)}`),
      new Date(),
    );
    expect(again?.number).toBe(n(3));
    expect(await listTeamInvoices(teamId)).toHaveLength(5);
    expect(
      (await stack.mailbox.to(manager.email)).filter((m) => /^(Invoice|Credit note) /.test(m.subject)),
    ).toHaveLength(5);

    // The PDF: the stored invoice printed, the same bytes each time; another team's manager gets 404.
    const pdf = await send('GET', `/invoices/${n(3)}/pdf`, manager.accessToken);
    expect(pdf.status).toBe(200);
    expectWellFormedPdf(pdf.body);
    expect(pdf.body).toContain(`(Number: ${n(3)})`);
    expect(pdf.body).toContain('(Learning budget for ');
    expect(pdf.body).toContain('($100.00)');
    expect((await send('GET', `/invoices/${n(3)}/pdf`, manager.accessToken)).body).toBe(pdf.body);
    const credited = await send('GET', `/invoices/${n(5)}/pdf`, manager.accessToken);
    expect(credited.body).toContain('(Credit note)');
    expect(credited.body).toContain('(-$14.25)');
    const other = await setUpTeam(stack);
    expect((await send('GET', `/invoices/${n(3)}/pdf`, other.manager.accessToken)).status).toBe(404);
    expect((await send('GET', '/invoices', other.manager.accessToken)).body).toEqual({ invoices: [] });
  });

  it('attack: billing runs storing invoices at once never repeat or skip a number, and make one per run', async () => {
    const teamId = `team-${randomUUID()}`;
    const draft = (sourceId: string): InvoiceDraft => ({
      teamId,
      sourceId,
      kind: 'invoice',
      issuedAt: new Date().toISOString(),
      billTo: { name: 'Race Co', attention: 'R. Manager', email: 'race@example.com', addressLines: [] },
      lines: [{ description: `Learning budget: ${sourceId}`, amountCents: 100 }],
      totalCents: 100,
      chargeIds: [sourceId],
    });
    const sources = Array.from({ length: 12 }, (_, i) => `ch_race_${i}`);
    // Every run twice, all at once: each reads the same counter before any writes.
    const results = await Promise.all([...sources, ...sources].map((s) => recordInvoice(draft(s))));
    expect(results.filter((r) => r.created)).toHaveLength(sources.length);
    const stored = await listTeamInvoices(teamId);
    expect(stored.map((i) => i.sequence).sort((a, b) => a - b)).toEqual(sources.map((_, i) => i + 1));
    expect(new Set(stored.map((i) => i.sourceId))).toEqual(new Set(sources));
    // Both calls of a run answer with its one invoice.
    for (const s of sources) {
      const numbers = new Set(results.filter((r) => r.invoice.sourceId === s).map((r) => r.invoice.number));
      expect(numbers.size, s).toBe(1);
    }
    // The next run takes the next number.
    const next = await recordInvoice(draft('ch_race_next'));
    expect(next.invoice.sequence).toBe(sources.length + 1);
  });
});
