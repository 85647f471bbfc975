/**
 * GET /exports/accounting (issue 26, point 3): a month of the team's calendar
 * as manual journals for QuickBooks Online and Xero. Every movement goes
 * through the product (sign-up charges, a deposit, card purchases through the
 * emulator's card network, a merchant refund, removals to the pool, a
 * reallocation, a redemption with its fee); the month-edge purchases go
 * through the settlement's own writer at chosen instants. Both files are
 * parsed: each journal balances, and the sums per account of the company's
 * books equal the ledger's own totals for the month, to the cent.
 */
import { randomUUID } from 'node:crypto';
import { CHART, QUICKBOOKS_HEADER, XERO_HEADER, XERO_TAX_RATE } from '@shared/domain/accountingExport';
import { dayIn, startOfDayIn } from '@shared/domain/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamJournal } from '../../lambdas/src/data/ledger';
import { createLogger } from '../../lambdas/src/platform/log';
import { applyCapture } from '../../lambdas/src/services/cards';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { centsOf, parseCsv } from '../support/csvReader';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  newClientIp,
  startIntegrationStack,
} from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

/** Far from UTC, so the team's month starts half a day before UTC's. */
const ZONE = 'Pacific/Auckland';

function monthAfter(month: string, by = 1): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

async function download(token: string, month: string, format: string) {
  const response = await fetch(`${stack.apiUrl}/exports/accounting?month=${month}&format=${format}`, {
    headers: { authorization: `Bearer ${token}`, [CLIENT_IP_HEADER]: newClientIp() },
  });
  const text = await response.text();
  return { response, text };
}

/** Per chart account: debits and credits (QuickBooks), or the signed sum (Xero) as debits - credits. */
interface Read {
  journals: Map<string, number>;
  /** Net (debit - credit) cents per chart account name or code. */
  net: Map<string, number>;
  debits: Map<string, number>;
  credits: Map<string, number>;
  /** The journal keys (Journal No / Narration) seen. */
  keys: string[];
}

function readQuickbooks(text: string): Read {
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual([...QUICKBOOKS_HEADER]);
  const read: Read = { journals: new Map(), net: new Map(), debits: new Map(), credits: new Map(), keys: [] };
  for (const [number, date, account, debit, credit] of rows as string[][]) {
    expect(date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    // One side only, never negative.
    expect([debit, credit].filter((v) => v !== '')).toHaveLength(1);
    const amount = centsOf(debit as string) - centsOf(credit as string);
    expect(centsOf((debit || credit) as string)).toBeGreaterThan(0);
    add(read, number as string, account as string, amount);
  }
  return read;
}

function readXero(text: string): Read {
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual([...XERO_HEADER]);
  const read: Read = { journals: new Map(), net: new Map(), debits: new Map(), credits: new Map(), keys: [] };
  for (const [narration, date, , code, taxRate, amount] of rows as string[][]) {
    expect(date).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
    expect(taxRate).toBe(XERO_TAX_RATE);
    // Xero groups a journal's lines by narration and date.
    add(read, `${narration}|${date}`, code as string, centsOf(amount as string));
  }
  return read;
}

function add(read: Read, journal: string, account: string, amount: number) {
  if (!read.journals.has(journal)) read.keys.push(journal);
  read.journals.set(journal, (read.journals.get(journal) ?? 0) + amount);
  read.net.set(account, (read.net.get(account) ?? 0) + amount);
  const side = amount > 0 ? read.debits : read.credits;
  side.set(account, (side.get(account) ?? 0) + Math.abs(amount));
}

/** The ledger's own totals for the team's entries posted in `month` of the team's calendar. */
async function ledgerTotals(teamId: string, month: string) {
  const totals = { charged: 0, redeemed: 0, fees: 0, spent: 0, entries: new Set<string>() };
  for (const entry of await teamJournal(teamId)) {
    if (dayIn(entry.postedAt, ZONE).slice(0, 7) !== month) continue;
    totals.entries.add(entry.entryId);
    for (const leg of entry.legs) {
      if (leg.account.startsWith('external:') && (entry.kind === 'funding' || entry.kind === 'deposit'))
        totals.charged -= leg.amountCents;
      if (leg.account.startsWith('external:') && entry.kind === 'redemption')
        totals.redeemed += leg.amountCents;
      if (leg.account.startsWith('revenue:')) totals.fees += leg.amountCents;
      if (leg.account.startsWith('network:')) totals.spent += leg.amountCents;
    }
  }
  return totals;
}

describe('GET /exports/accounting', () => {
  let manager: SignedIn;
  let teamId: string;
  let month: string;
  let ana: SignedIn & { cardId: string };
  const edge = { before: 0, first: 0, last: 0, after: 0 };

  beforeAll(async () => {
    ({ manager, teamId } = await setUpTeam(stack));
    expect((await send('PUT', '/team/timeZone', manager.accessToken, { timeZone: ZONE })).status).toBe(200);
    ana = await joinTeam(stack, manager, 30);
    const bo = await joinTeam(stack, manager, 20);
    const cy = await joinTeam(stack, manager, 25);
    const deposit = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [ana.userId], amount: 10 },
      `d-${randomUUID()}`,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    expect((await payWithCard(stack, ana.cardId, 1000))?.approved).toBe(true);
    expect((await payWithCard(stack, ana.cardId, 550))?.approved).toBe(true);
    const purchases = await send('GET', '/purchases', ana.accessToken);
    const settled = purchases.body.purchases.find((p: { amountCents: number }) => p.amountCents === 1000);
    stack.stripe?.admin.refund(settled.purchaseId, 400);
    await stack.stripe?.admin.idle();
    const removed = await send('POST', '/employees/delete', manager.accessToken, {
      userIds: [bo.userId, cy.userId],
    });
    expect(removed.status).toBe(200);
    const realloc = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [bo.userId], receiverIds: [ana.userId] },
      `r-${randomUUID()}`,
    );
    expect(realloc.status, JSON.stringify(realloc.body)).toBe(200);
    const redeemed = await send(
      'POST',
      '/funds/redeem',
      manager.accessToken,
      { deletedUserIds: [cy.userId] },
      `x-${randomUUID()}`,
    );
    // $25.00: 15 % is $3.75, under the $5.00 minimum fee.
    expect(redeemed.body).toEqual({ amountCents: 2500, feeCents: 500 });

    // The month of ana's joining charge in the team's calendar; purchases settled by the network at
    // its edges, on either side of each boundary by one millisecond.
    const joined = (await teamJournal(teamId)).find((e) => e.entryId === `JOIN#${ana.userId}`);
    month = dayIn(joined?.postedAt as string, ZONE).slice(0, 7);
    const start = startOfDayIn(`${month}-01`, ZONE).getTime();
    const end = startOfDayIn(`${monthAfter(month)}-01`, ZONE).getTime();
    const log = createLogger({ test: 'accountingExport' });
    const at: [keyof typeof edge, number, number][] = [
      ['before', start - 1, 101],
      ['first', start, 202],
      ['last', end - 1, 303],
      ['after', end, 404],
    ];
    for (const [name, time, amount] of at) {
      edge[name] = amount;
      const posted = await applyCapture(
        {
          transactionId: `ipi_edge_${name}_${randomUUID().slice(0, 8)}`,
          cardId: ana.cardId,
          amountCents: amount,
          merchant: `Edge ${name}`,
          category: 'book_stores',
          createdAt: new Date(time).toISOString(),
        },
        log,
      );
      expect(posted.status).toBe('posted');
    }
  });

  it('writes balanced journals whose sums per account equal the ledger’s totals for the month, in both formats', async () => {
    const totals = await ledgerTotals(teamId, month);
    // Every movement of the scenario is there: 3 joinings and a deposit charged, 2 purchases less
    // the refund plus the two edge purchases inside the month, a redemption with its fee.
    expect(totals.charged).toBe(3000 + 2000 + 2500 + 1000);
    expect(totals.spent).toBe(1000 + 550 - 400 + edge.first + edge.last);
    expect(totals.redeemed).toBe(2000);
    expect(totals.fees).toBe(500);

    const qbo = await download(manager.accessToken, month, 'quickbooks');
    expect(qbo.response.status, qbo.text).toBe(200);
    expect(qbo.response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(qbo.response.headers.get('content-disposition')).toBe(
      `attachment; filename="learning-budgets-${month}-quickbooks.csv"`,
    );
    const q = readQuickbooks(qbo.text);
    for (const [journal, sum] of q.journals) expect(sum, `journal ${journal} balances`).toBe(0);
    expect(q.credits.get(CHART.bank.name)).toBe(totals.charged);
    expect(q.debits.get(CHART.bank.name)).toBe(totals.redeemed);
    expect(q.net.get(CHART.fees.name)).toBe(totals.fees);
    expect(q.net.get(CHART.expense.name)).toBe(totals.spent);
    // What left the card on file, less what came back, is what the prepaid budgets gained plus
    // what was spent and kept as fees.
    expect(q.net.get(CHART.prepaid.name)).toBe(totals.charged - totals.redeemed - totals.fees - totals.spent);
    // One journal per movement kind per day, each kind of the scenario present.
    const kinds = new Set(q.keys.map((k) => k.split('-')[2]));
    expect([...kinds].sort()).toEqual(['CHG', 'DEP', 'MREF', 'POOL', 'REALLOC', 'REDEEM', 'SPEND']);

    const xero = await download(manager.accessToken, month, 'xero');
    expect(xero.response.status, xero.text).toBe(200);
    expect(xero.response.headers.get('content-disposition')).toBe(
      `attachment; filename="learning-budgets-${month}-xero.csv"`,
    );
    const x = readXero(xero.text);
    for (const [journal, sum] of x.journals) expect(sum, `journal ${journal} balances`).toBe(0);
    expect(x.credits.get(CHART.bank.xeroCode)).toBe(totals.charged);
    expect(x.debits.get(CHART.bank.xeroCode)).toBe(totals.redeemed);
    expect(x.net.get(CHART.fees.xeroCode)).toBe(totals.fees);
    expect(x.net.get(CHART.expense.xeroCode)).toBe(totals.spent);
    // The same journals in both files.
    expect(x.keys.length).toBe(q.keys.length);
  });

  it("puts a movement in the month of the team's calendar it happened in, to the millisecond", async () => {
    const q = readQuickbooks((await download(manager.accessToken, month, 'quickbooks')).text);
    const totals = await ledgerTotals(teamId, month);
    // The edge purchases inside are counted, those outside are not (totals.spent above names each).
    expect(q.net.get(CHART.expense.name)).toBe(totals.spent);
    const previous = monthAfter(month, -1);
    const earlier = readQuickbooks((await download(manager.accessToken, previous, 'quickbooks')).text);
    // The month before holds only the purchase one millisecond before this month began.
    expect(earlier.net.get(CHART.expense.name)).toBe(edge.before);
    expect(earlier.keys).toHaveLength(1);
  });

  it('refuses a month not yet begun, and a malformed month or format, with the field that is wrong', async () => {
    const future = `${Number(month.slice(0, 4)) + 1}-01`;
    const later = await download(manager.accessToken, future, 'xero');
    expect(later.response.status).toBe(400);
    expect(JSON.parse(later.text).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Choose a month that has started: this month or an earlier one',
      fields: { month: 'Choose a month that has started: this month or an earlier one' },
    });
    for (const [query, field] of [
      ['2026-13', 'month'],
      ['26-01', 'month'],
      ['', 'month'],
    ] as const) {
      const bad = await download(manager.accessToken, query, 'xero');
      expect(bad.response.status).toBe(400);
      expect(Object.keys(JSON.parse(bad.text).error.fields ?? {})).toContain(field);
    }
    const badFormat = await download(manager.accessToken, month, 'sage');
    expect(badFormat.response.status).toBe(400);
    expect(JSON.parse(badFormat.text).error.fields).toEqual({ format: 'Choose QuickBooks Online or Xero' });
  });

  it("is the managers' alone, and a manager only ever gets their own team's movements", async () => {
    expect((await download(ana.accessToken, month, 'quickbooks')).response.status).toBe(403);
    const unsigned = await fetch(`${stack.apiUrl}/exports/accounting?month=${month}&format=xero`, {
      headers: { [CLIENT_IP_HEADER]: newClientIp() },
    });
    expect(unsigned.status).toBe(401);
    // Another team's manager (in the same zone) asks for the same month: their one joining, nothing of ours.
    const other = await setUpTeam(stack);
    await send('PUT', '/team/timeZone', other.manager.accessToken, { timeZone: ZONE });
    await joinTeam(stack, other.manager, 40);
    const theirs = await download(other.manager.accessToken, month, 'quickbooks');
    expect(theirs.response.status).toBe(200);
    const read = readQuickbooks(theirs.text);
    expect([...read.credits]).toEqual([[CHART.bank.name, 4000]]);
    expect(read.keys.every((k) => k.endsWith('-CHG'))).toBe(true);
  });
});
