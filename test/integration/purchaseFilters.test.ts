/**
 * Purchase History's filters on the server (issue 26, "a link from each bar or
 * row to the matching purchases"): GET /purchases takes `from`/`to` (months of
 * the team's calendar, read as a key range), `person`, `skill`, `media`,
 * `merchant` and `receipts=awaiting`, and under any of them lists only money
 * that moved (no holds still pending, no declines). Real handlers on DynamoDB
 * Local and the Stripe emulator; purchases of a chosen day or in bulk are
 * written as the settlement writes them (data/purchases.ts `purchaseItem`).
 */
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startOfDayIn } from '@shared/domain/calendar';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_CAPTURE_DELAY_MS } from '../../infra/local/stripe';
import { type PurchaseRecord, purchaseItem } from '../../lambdas/src/data/purchases';
import type { SignedIn } from '../support/accountFlows';
import { BOOKSHOP, payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

const LA = 'America/Los_Angeles';
const UDEMY = { name: 'Udemy', category: 'educational_services' };

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const admin = () => {
  const emulator = stack.stripe?.admin;
  if (!emulator) throw new Error('this stack runs without the Stripe emulator');
  return emulator;
};

type Employee = SignedIn & { cardId: string };

let written = 0;
/** A settled purchase as the capture records it, on a chosen instant. */
function stored(
  who: Employee,
  teamId: string,
  createdAt: string,
  fields: Partial<PurchaseRecord> = {},
): Record<string, unknown> {
  return purchaseItem({
    purchaseId: `ipi_filter_${Date.now()}_${written++}`,
    userId: who.userId,
    teamId,
    cardId: who.cardId,
    amountCents: 500,
    merchant: 'Powell’s Books',
    category: 'book_stores',
    createdAt,
    receiptStatus: 'awaiting',
    ...fields,
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

async function list(token: string, query: string) {
  const res = await send('GET', `/purchases?${query}`, token);
  return res as {
    status: number;
    body: { purchases: PurchaseRow[]; nextCursor: string | null } & Record<string, unknown>;
  };
}

async function ids(token: string, query: string): Promise<string[]> {
  const res = await list(token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.purchases.map((p) => p.purchaseId);
}

describe('GET /purchases with a filter', () => {
  let manager: SignedIn;
  let teamId: string;
  let ann: Employee;
  let ben: Employee;
  /** Ann's real purchases today: a book, a course (set to Leadership), a hold still pending, a decline. */
  let book: string;
  let course: string;
  let bensBook: string;
  /** Written purchases around the end of September 2026 in Los Angeles. */
  const lastEveningOfSeptember = '2026-10-01T06:30:00.000Z'; // 23:30 on September 30th in Los Angeles
  const firstMidnightOfOctober = startOfDayIn('2026-10-01', LA).toISOString();
  let lateSeptember: string;
  let earlyOctober: string;
  let septemberWithReceipt: string;

  beforeAll(async () => {
    ({ manager, teamId } = await setUpTeam(stack));
    expect((await send('PUT', '/team/timeZone', manager.accessToken, { timeZone: LA })).status).toBe(200);
    ann = await joinTeam(stack, manager, 60);
    ben = await joinTeam(stack, manager, 30);

    expect((await payWithCard(stack, ann.cardId, 1250)).approved).toBe(true);
    expect((await payWithCard(stack, ann.cardId, 700, UDEMY)).approved).toBe(true);
    expect((await payWithCard(stack, ben.cardId, 300)).approved).toBe(true);
    // A hold nobody captures yet, and a decline, both at the bookshop.
    admin().setAutoCapture(false);
    try {
      expect((await payWithCard(stack, ann.cardId, 200)).approved).toBe(true);
    } finally {
      admin().setAutoCapture(DEFAULT_AUTO_CAPTURE_DELAY_MS);
    }
    expect((await payWithCard(stack, ann.cardId, 99_00, BOOKSHOP)).approved).toBe(false);

    const all = (await list(manager.accessToken, 'limit=100')).body.purchases;
    expect(all.map((r) => r.status).sort()).toEqual(['declined', 'pending', 'settled', 'settled', 'settled']);
    const settled = (vendor: string, employeeId: string) =>
      all.find((r) => r.status === 'settled' && r.vendor === vendor && r.employeeId === employeeId)
        ?.purchaseId as string;
    book = settled(BOOKSHOP.name, ann.userId);
    course = settled(UDEMY.name, ann.userId);
    bensBook = settled(BOOKSHOP.name, ben.userId);
    const skill = await send('PUT', `/purchases/${course}/skill`, manager.accessToken, {
      skillArea: 'Leadership',
      media: 'course',
    });
    expect(skill.status, JSON.stringify(skill.body)).toBe(200);

    const late = stored(ann, teamId, lastEveningOfSeptember);
    const early = stored(ann, teamId, firstMidnightOfOctober);
    const received = stored(ann, teamId, '2026-09-15T18:00:00.000Z', {
      receiptStatus: 'received',
      receipt: {
        key: 'confirmed/x/y/z',
        contentType: 'image/png',
        size: 10,
        uploadedAt: '2026-09-16T18:00:00.000Z',
        uploadedBy: ann.userId,
      },
      skillArea: 'Communication',
      media: 'book',
      skillSource: 'employee',
    });
    for (const Item of [late, early, received]) {
      await stack.doc.send(new PutCommand({ TableName: stack.tableName, Item }));
    }
    lateSeptember = late.purchaseId as string;
    earlyOctober = early.purchaseId as string;
    septemberWithReceipt = received.purchaseId as string;
  });

  it("takes the months of the team's calendar: 23:30 on September 30th in Los Angeles is September", async () => {
    expect(await ids(manager.accessToken, 'from=2026-09&to=2026-09')).toEqual([
      lateSeptember,
      septemberWithReceipt,
    ]);
    expect(await ids(manager.accessToken, 'from=2026-10&to=2026-10')).toEqual([earlyOctober]);
    expect(await ids(manager.accessToken, 'from=2026-09&to=2026-10')).toEqual([
      earlyOctober,
      lateSeptember,
      septemberWithReceipt,
    ]);
    // Only one end: everything from October on (today's settled purchases too), or up to August (none).
    const fromOctober = await ids(manager.accessToken, 'from=2026-10');
    expect(fromOctober).toContain(earlyOctober);
    expect(fromOctober).not.toContain(lateSeptember);
    expect(await ids(manager.accessToken, 'to=2026-08')).toEqual([]);
  });

  it('filters by skill area, media, merchant and receipts awaiting; no skill area counts as Uncategorised / other', async () => {
    expect(await ids(manager.accessToken, 'skill=Leadership')).toEqual([course]);
    expect(await ids(manager.accessToken, 'media=course')).toEqual([course]);
    expect(await ids(manager.accessToken, 'skill=Communication&media=book')).toEqual([septemberWithReceipt]);
    // The written ones carry no skill area at all; today's bookshop purchases were stored as Uncategorised.
    expect((await ids(manager.accessToken, 'skill=Uncategorised&media=other')).sort()).toEqual(
      [book, bensBook, earlyOctober, lateSeptember].sort(),
    );
    expect(await ids(manager.accessToken, `merchant=${encodeURIComponent(UDEMY.name)}`)).toEqual([course]);
    expect(await ids(manager.accessToken, 'from=2026-09&to=2026-09&receipts=awaiting')).toEqual([
      lateSeptember,
    ]);
  });

  it('lists no hold still pending and no decline under a filter, though the plain list shows both', async () => {
    const bookshop = await list(
      manager.accessToken,
      `merchant=${encodeURIComponent(BOOKSHOP.name)}&limit=100`,
    );
    expect(bookshop.status).toBe(200);
    expect(bookshop.body.purchases.map((r) => r.status)).toEqual(
      bookshop.body.purchases.map(() => 'settled'),
    );
    expect(bookshop.body.purchases.map((r) => r.purchaseId)).toEqual(
      expect.arrayContaining([book, bensBook, lateSeptember, earlyOctober]),
    );
    expect(bookshop.body.purchases).toHaveLength(5);
    const mine = await list(ann.accessToken, 'receipts=awaiting&limit=100');
    expect(mine.body.purchases.map((r) => r.status)).not.toContain('pending');
    expect(mine.body.purchases.map((r) => r.status)).not.toContain('declined');
    expect(mine.body.purchases.map((r) => r.purchaseId)).toContain(course);
  });

  it("filters a manager's list by one employee of the team; another team's person is not found", async () => {
    const bens = await list(manager.accessToken, `person=${ben.userId}`);
    expect(bens.body.purchases.map((r) => [r.purchaseId, r.employeeId])).toEqual([[bensBook, ben.userId]]);
    expect(bens.body.purchases[0]?.employeeName).toBeTruthy();

    const other = await setUpTeam(stack);
    const stranger = await joinTeam(stack, other.manager, 20);
    const theirs = await list(manager.accessToken, `person=${stranger.userId}`);
    expect(theirs.status).toBe(404);
    // Nor a manager's own id: only employees of the team have purchases to list.
    expect((await list(manager.accessToken, `person=${manager.userId}`)).status).toBe(404);
  });

  it("lets an employee name only themselves: another person's id is not found", async () => {
    expect((await list(ann.accessToken, `person=${ben.userId}`)).status).toBe(404);
    const own = await ids(ann.accessToken, `person=${ann.userId}&from=2026-09&to=2026-09`);
    expect(own).toEqual([lateSeptember, septemberWithReceipt]);
    // Ben's purchases never reach Ann's list, whatever the filter.
    expect(await ids(ben.accessToken, `merchant=${encodeURIComponent(BOOKSHOP.name)}`)).toEqual([bensBook]);
  });

  it('refuses a value it cannot filter by, with the reason', async () => {
    const badSkill = await list(manager.accessToken, 'skill=Juggling');
    expect(badSkill.status).toBe(400);
    expect((badSkill.body.error as { code: string }).code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(badSkill.body)).toContain('Choose a skill area from the list');
    const backwards = await list(manager.accessToken, 'from=2026-10&to=2026-09');
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain('The first month must not be after the last');
    expect((await list(manager.accessToken, 'from=2026-13')).status).toBe(400);
    expect((await list(manager.accessToken, 'media=scroll')).status).toBe(400);
    expect((await list(manager.accessToken, 'receipts=received')).status).toBe(400);
    expect((await list(manager.accessToken, `merchant=${'x'.repeat(201)}`)).status).toBe(400);
  });
});

describe('a filtered page over many purchases', () => {
  it('stops reading after about 1,000 items: a page shorter than the limit, with a cursor that leads to the rest', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const cleo = await joinTeam(stack, manager, 20);
    // 1,100 purchases in January 2025, one a minute; three at a rare merchant: the newest and the two oldest.
    const start = Date.parse('2025-01-10T12:00:00.000Z');
    const at = (minute: number) => new Date(start + minute * 60_000).toISOString();
    const count = 1100;
    const items = Array.from({ length: count }, (_, minute) =>
      stored(cleo, teamId, at(minute), { merchant: 'Filler Books' }),
    );
    for (const minute of [count - 1, 1, 0])
      items[minute] = stored(cleo, teamId, at(minute), { merchant: 'Rare Books' });
    // A purchase in February: outside the range asked for, never listed.
    items.push(stored(cleo, teamId, '2025-02-10T12:00:00.000Z', { merchant: 'Rare Books' }));
    await putAll(items);
    const idAt = (minute: number) => items[minute]?.purchaseId as string;

    const query = `merchant=Rare+Books&from=2025-01&to=2025-01&limit=2`;
    const first = await list(manager.accessToken, query);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // The newest matched; the two oldest lie beyond what one request reads.
    expect(first.body.purchases.map((r) => r.purchaseId)).toEqual([idAt(count - 1)]);
    expect(first.body.nextCursor).toEqual(expect.any(String));

    const rest = await list(manager.accessToken, `${query}&cursor=${first.body.nextCursor}`);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.purchases.map((r) => r.purchaseId)).toEqual([idAt(1), idAt(0)]);
    // The range ended with the last one listed.
    expect(rest.body.nextCursor).toBeNull();

    // A filter that keeps most: full pages, each after the last one listed.
    const page1 = await list(cleo.accessToken, 'merchant=Filler+Books&limit=3');
    const page2 = await list(
      cleo.accessToken,
      `merchant=Filler+Books&limit=3&cursor=${page1.body.nextCursor}`,
    );
    expect(page1.body.purchases.map((r) => r.purchaseId)).toEqual(
      [count - 2, count - 3, count - 4].map(idAt),
    );
    expect(page2.body.purchases.map((r) => r.purchaseId)).toEqual(
      [count - 5, count - 6, count - 7].map(idAt),
    );
  });
});
