/**
 * GET /team/purchases.csv: the team's purchases in a month range (US Eastern
 * months) with receipt state, paged through access pattern 17. One purchase
 * goes through the card settlement's own writer (applyCapture); the volume
 * (1,100 rows, three DynamoDB pages of 500) is written through the data layer
 * in the same shape, which is much faster than 1,100 webhook round trips.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markReceiptReceived } from '../../lambdas/src/data/purchaseReceipts';
import { purchaseItem } from '../../lambdas/src/data/purchases';
import { createLogger } from '../../lambdas/src/platform/log';
import { applyCapture } from '../../lambdas/src/services/cards';
import { parseCsv } from '../support/csvReader';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  newClientIp,
  startIntegrationStack,
} from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

/** A purchase as the settlement writes it (awaiting its receipt), without the card network. */
function purchaseOf(
  who: { userId: string; cardId: string },
  teamId: string,
  purchaseId: string,
  createdAt: string,
  merchant: string,
  amountCents: number,
) {
  return purchaseItem({
    purchaseId,
    userId: who.userId,
    teamId,
    cardId: who.cardId,
    amountCents,
    merchant,
    category: 'book_stores',
    createdAt,
    receiptStatus: 'awaiting',
  });
}

async function putAll(items: Record<string, unknown>[]) {
  for (let i = 0; i < items.length; i += 25) {
    await stack.doc.send(
      new BatchWriteCommand({
        RequestItems: { [stack.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
}

describe('GET /team/purchases.csv', () => {
  it("pages through thousands of the team's purchases in the range, quotes per RFC 4180, and shows receipt state", async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const ana = await joinTeam(stack, manager, 30);
    const other = await setUpTeam(stack);
    const stranger = await joinTeam(stack, other.manager, 30);

    // Through the settlement's own writer: a capture the card network sent.
    const settled = await applyCapture(
      {
        transactionId: 'ipi_export_settled',
        cardId: ana.cardId,
        amountCents: 1250,
        merchant: 'Books, "Rare" & Co',
        category: 'book_stores',
        createdAt: '2026-02-10T15:00:00.000Z',
      },
      createLogger({ test: 'purchaseExport' }),
    );
    expect(settled.status).toBe('posted');

    const bulk = Array.from({ length: 1100 }, (_, i) => {
      const minute = String(i % 60).padStart(2, '0');
      const hour = String(10 + (Math.floor(i / 60) % 10)).padStart(2, '0');
      const day = String(1 + (Math.floor(i / 600) % 20)).padStart(2, '0');
      return purchaseOf(
        ana,
        teamId,
        `ipi_bulk_${i}`,
        `2026-03-${day}T${hour}:${minute}:00.000Z`,
        'Udemy',
        100 + i,
      );
    });
    await putAll([
      ...bulk,
      // Edges, in New York time: 31 March 11 pm EDT is March; 1 April midnight EDT is April; 31 Jan 11 pm EST is January.
      purchaseOf(ana, teamId, 'ipi_edge_in', '2026-04-01T03:59:59.000Z', 'Line\nBreak Books', 999),
      purchaseOf(ana, teamId, 'ipi_edge_out', '2026-04-01T04:00:00.000Z', 'April Books', 999),
      purchaseOf(ana, teamId, 'ipi_edge_before', '2026-02-01T04:59:59.000Z', 'January Books', 999),
      purchaseOf(ana, teamId, 'ipi_formula', '2026-02-11T15:00:00.000Z', '=HYPERLINK("http://x")', 500),
      // Another team's purchase in the same months is never in this file.
      purchaseOf(stranger, other.teamId, 'ipi_stranger', '2026-03-05T15:00:00.000Z', 'Stranger Books', 700),
    ]);
    await markReceiptReceived('ipi_bulk_0', '2026-03-02T12:00:00.000Z');

    const response = await fetch(`${stack.apiUrl}/team/purchases.csv?from=2026-02&to=2026-03`, {
      headers: {
        authorization: `Bearer ${manager.accessToken}`,
        'accept-encoding': 'gzip',
        [CLIENT_IP_HEADER]: newClientIp(),
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="purchases-2026-02-to-2026-03.csv"',
    );
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const rows = parseCsv(await response.text());
    const [header, ...records] = rows;
    expect(header).toEqual([
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
    ]);
    const ids = records.map((r) => r[9]);
    expect(records).toHaveLength(1100 + 3);
    expect(new Set(ids).size).toBe(records.length);
    expect(ids).toContain('ipi_edge_in');
    expect(ids).not.toContain('ipi_edge_out');
    expect(ids).not.toContain('ipi_edge_before');
    expect(ids).not.toContain('ipi_stranger');
    // Newest first.
    expect(ids[0]).toBe('ipi_edge_in');
    expect(ids.at(-1)).toBe('ipi_export_settled');

    const byId = new Map(records.map((r) => [r[9], r]));
    expect(byId.get('ipi_export_settled')).toEqual([
      '02/10/2026',
      'Eddie Employee',
      ana.email,
      '',
      'Books, "Rare" & Co',
      'book_stores',
      '12.50',
      'Overdue',
      '02/18/2026', // Presidents' Day (16 Feb) is skipped
      'ipi_export_settled',
    ]);
    expect(byId.get('ipi_edge_in')?.[0]).toBe('03/31/2026');
    expect(byId.get('ipi_edge_in')?.[4]).toBe('Line\nBreak Books');
    expect(byId.get('ipi_formula')?.[4]).toBe('\'=HYPERLINK("http://x")');
    expect(byId.get('ipi_bulk_0')?.[7]).toBe('Received');
    expect(byId.get('ipi_bulk_1')?.[6]).toBe('1.01');
  });

  it('refuses a range that is backwards, too long or not months', async () => {
    const { manager } = await setUpTeam(stack);
    const call = sender(stack);
    // Each named on its field, and a single problem in the message itself (not only "Some fields ...").
    for (const [query, fields, message] of [
      [
        'from=2026-03&to=2026-02',
        { to: 'To month must not be before From month' },
        'To month must not be before From month',
      ],
      ['from=2024-01&to=2026-01', { to: 'Choose at most 24 months' }, 'Choose at most 24 months'],
      [
        'from=2026-13&to=2026-14',
        { from: 'Choose a month (yyyy-mm)', to: 'Choose a month (yyyy-mm)' },
        'Some fields are missing or invalid.',
      ],
    ] as const) {
      const res = await call('GET', `/team/purchases.csv?${query}`, manager.accessToken);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', fields, message });
    }
    const missing = await call('GET', '/team/purchases.csv?from=2026-01', manager.accessToken);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error.fields)).toEqual(['to']);
  });
});
