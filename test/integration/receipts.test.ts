/**
 * Purchase history and receipts end to end (issue 10): real handlers,
 * DynamoDB Local, s3rver and the Stripe emulator. Purchases are made at the
 * emulator's card network, so they arrive as the settlement writes them.
 * s3rver enforces no POST-policy conditions, so every refusal here is the
 * server's own check of the stored bytes (local-stack.md).
 */
import { readFileSync } from 'node:fs';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { createLogger } from '../../lambdas/src/platform/log';
import { runReceiptDeadlines } from '../../lambdas/src/services/receipts';
import type { SignedIn } from '../support/accountFlows';
import { putAwaitingPurchase } from '../support/awaitingPurchase';
import { BOOKSHOP, payWithCard } from '../support/cardNetwork';
import {
  type IntegrationStack,
  startIntegrationStack,
  TEST_RECEIPTS_BUCKET,
} from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
let s3: S3Client;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
  s3 = new S3Client({
    endpoint: stack.s3Endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}, 60_000);
afterAll(async () => {
  s3?.destroy();
  await stack?.stop();
});

const fixture = (name: string) => readFileSync(new URL(`../fixtures/receipts/${name}`, import.meta.url));
const PNG = fixture('receipt.png');
const JPEG = fixture('receipt.jpg');
const GIF = fixture('receipt.gif');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/** Pays `cents` at a merchant with the employee's card, through the emulator's card network. */
async function pay(cardId: string, cents: number, merchant = BOOKSHOP.name) {
  const outcome = await payWithCard(stack, cardId, cents, { ...BOOKSHOP, name: merchant });
  expect(outcome?.approved).toBe(true);
  return stack.stripe?.admin.cardDetails(cardId)?.number ?? '';
}

interface Team {
  manager: SignedIn;
  employee: SignedIn & { cardId: string };
  teamId: string;
}

async function teamWithPurchase(cents = 1250): Promise<Team & { purchaseId: string; cardNumber: string }> {
  const { manager, teamId } = await setUpTeam(stack);
  const employee = await joinTeam(stack, manager, 25);
  const cardNumber = await pay(employee.cardId, cents);
  const list = await send('GET', '/purchases', employee.accessToken);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return { manager, employee, teamId, purchaseId: list.body.purchases[0].purchaseId, cardNumber };
}

async function objectsUnder(prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: TEST_RECEIPTS_BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key as string);
}

/** The browser's part: ask for a presigned POST, send the bytes, confirm. */
async function upload(
  token: string,
  purchaseId: string,
  bytes: Buffer,
  contentType: string,
  options: { fileName?: string; declaredSize?: number; title?: string } = {},
) {
  const fileName = options.fileName ?? 'receipt';
  const presign = await send('POST', `/purchases/${purchaseId}/receipt/upload`, token, {
    contentType,
    size: options.declaredSize ?? bytes.length,
    fileName,
  });
  if (presign.status !== 200) return { presign, confirm: undefined };
  const form = new FormData();
  for (const [name, value] of Object.entries(presign.body.fields as Record<string, string>)) {
    form.append(name, value);
  }
  form.append('file', new Blob([new Uint8Array(bytes)], { type: contentType }), fileName);
  const posted = await fetch(presign.body.url, { method: 'POST', body: form });
  expect(posted.status, await posted.text()).toBeLessThan(300);
  const confirm = await send('POST', `/purchases/${purchaseId}/receipt`, token, {
    uploadId: presign.body.uploadId,
    title: options.title ?? 'Design patterns book',
    fileName,
  });
  return { presign, confirm };
}

describe('purchase history', () => {
  it('lists own purchases for the employee and the team with names for the manager, newest first, paged', async () => {
    const { manager, employee, purchaseId, cardNumber } = await teamWithPurchase(700);
    await pay(employee.cardId, 300, 'Udemy');
    await pay(employee.cardId, 200, 'Audible');

    const first = await send('GET', '/purchases?limit=2', employee.accessToken);
    expect(first.status).toBe(200);
    expect(first.body.purchases).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await send(
      'GET',
      `/purchases?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      employee.accessToken,
    );
    expect(second.body.purchases).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    // Newest first across pages, each purchase exactly once (the card network stamps whole seconds).
    const all = [...first.body.purchases, ...second.body.purchases];
    const dates = all.map((p: { date: string }) => p.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(all.map((p: { vendor: string }) => p.vendor).sort()).toEqual([
      'Audible',
      'Powell’s Books',
      'Udemy',
    ]);
    const powells = all.find((p: { purchaseId: string }) => p.purchaseId === purchaseId);
    expect(powells).toMatchObject({
      amountCents: 700,
      vendor: 'Powell’s Books',
      status: 'settled',
      title: null,
      receipt: { state: 'awaiting', seen: false, dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });
    expect(powells.employeeName).toBeUndefined();

    const team = await send('GET', '/purchases', manager.accessToken);
    expect(team.body.purchases).toHaveLength(3);
    for (const row of team.body.purchases) expect(row.employeeName).toBe('Eddie Employee');
    // The statement (every movement on the card) never carries the number either.
    const statement = await send('GET', '/me/statement', employee.accessToken);
    expect(statement.status).toBe(200);
    expect(JSON.stringify(statement.body)).toContain('Powell’s Books');
    for (const body of [first.body, second.body, team.body, statement.body]) {
      expect(JSON.stringify(body)).not.toContain(cardNumber);
      expect(JSON.stringify(body)).not.toContain(cardNumber.slice(0, 12));
    }

    const bad = await send('GET', '/purchases?cursor=not-a-cursor', employee.accessToken);
    expect(bad.status).toBe(400);
  });
});

describe('pending purchases', () => {
  it('lists a hold not yet captured as pending on top of the first page, then as settled once captured', async () => {
    const { manager, employee } = await teamWithPurchase(700);
    const admin = stack.stripe?.admin;
    if (!admin) throw new Error('no emulator');
    admin.setAutoCapture(false);
    let authorizationId: string;
    try {
      const details = admin.cardDetails(employee.cardId);
      const outcome = await admin.authorize({
        number: details.number,
        expMonth: details.exp_month,
        expYear: details.exp_year,
        cvc: details.cvc,
        amount: 450,
        merchant: { name: 'Udemy', category: 'book_stores' },
      });
      await admin.idle();
      expect(outcome.approved).toBe(true);
      authorizationId = outcome.authorization?.id ?? '';
    } finally {
      admin.setAutoCapture(50);
    }

    const mine = await send('GET', '/purchases?limit=1', employee.accessToken);
    expect(mine.status).toBe(200);
    // The page holds the one settled purchase asked for, after the pending hold.
    expect(mine.body.purchases.map((p: { status: string }) => p.status)).toEqual(['pending', 'settled']);
    expect(mine.body.purchases[0]).toMatchObject({
      purchaseId: authorizationId,
      amountCents: 450,
      vendor: 'Udemy',
      receipt: { state: 'awaiting' },
    });
    const team = await send('GET', '/purchases', manager.accessToken);
    expect(team.body.purchases[0]).toMatchObject({ status: 'pending', employeeName: 'Eddie Employee' });
    // A later page never repeats the pending hold (DynamoDB hands a cursor once the limit is met).
    expect(mine.body.nextCursor).toEqual(expect.any(String));
    const next = await send(
      'GET',
      `/purchases?limit=1&cursor=${encodeURIComponent(mine.body.nextCursor)}`,
      employee.accessToken,
    );
    expect(next.status).toBe(200);
    expect(next.body.purchases).toEqual([]);
    // No receipt for a hold: the upload needs a settled purchase.
    const early = await send('POST', `/purchases/${authorizationId}/receipt/upload`, employee.accessToken, {
      contentType: 'image/png',
      size: PNG.length,
      fileName: 'r.png',
    });
    expect(early.status).toBe(404);

    admin.capture(authorizationId);
    await admin.idle();
    const after = await send('GET', '/purchases', employee.accessToken);
    const statuses = after.body.purchases.map(
      (p: { status: string; vendor: string }) => `${p.vendor}:${p.status}`,
    );
    expect(statuses).toContain('Udemy:settled');
    expect(statuses.some((s: string) => s.endsWith(':pending'))).toBe(false);
  });
});

describe('purchase status from the ledger', () => {
  it('shows a merchant refund against its purchase: partly refunded, then refunded', async () => {
    const { employee, purchaseId } = await teamWithPurchase(1000);
    const status = async () =>
      (await send('GET', '/purchases', employee.accessToken)).body.purchases.find(
        (p: { purchaseId: string }) => p.purchaseId === purchaseId,
      );
    stack.stripe?.admin.refund(purchaseId, 400);
    await stack.stripe?.admin.idle();
    expect(await status()).toMatchObject({ status: 'partlyRefunded', refundedCents: 400, amountCents: 1000 });
    stack.stripe?.admin.refund(purchaseId);
    await stack.stripe?.admin.idle();
    expect(await status()).toMatchObject({ status: 'refunded', refundedCents: 1000 });
    // The card got its money back through the ledger.
    expect((await send('GET', '/me/balance', employee.accessToken)).body.availableCents).toBe(2500);
  });
});

describe('receipt uploads', () => {
  it('unfreezes a card frozen for this missing receipt as soon as the upload is confirmed', async () => {
    const { employee, purchaseId } = await teamWithPurchase();
    // Three weeks on, the daily job finds the receipt overdue and freezes the card.
    const later = new Date(Date.now() + 21 * 86_400_000);
    // (Other tests' teams in this file are frozen too; only this employee's card is checked.)
    await runReceiptDeadlines(later, createLogger({ test: 'receipts' }));
    const frozen = await stack.getItem(keys.card(employee.cardId));
    expect(frozen).toMatchObject({ status: 'inactive', freeze: { missingReceipt: true } });

    const { confirm } = await upload(employee.accessToken, purchaseId, PNG, 'image/png');
    expect(confirm?.status, JSON.stringify(confirm?.body)).toBe(200);
    const card = await stack.getItem(keys.card(employee.cardId));
    expect(card).toMatchObject({ status: 'active', freeze: {} });
    const issuer = await emulatorClient(stack).issuing.cards.retrieve(employee.cardId);
    expect(issuer.status).toBe('active');
  });

  it('says which overdue receipts keep the card frozen, and whether the upload made it work again', async () => {
    const { manager, employee, teamId, purchaseId: recent } = await teamWithPurchase();
    // Two purchases three weeks old, as the settlement writes them, awaiting their receipts.
    const old = new Date(Date.now() - 21 * 86_400_000);
    const overdue: string[] = [];
    for (const [i, merchant] of ['Powell’s Books', 'Audible'].entries()) {
      const purchaseId = await putAwaitingPurchase(stack, employee, teamId, {
        createdAt: new Date(old.getTime() + i * 60_000).toISOString(),
        amountCents: 649 + i,
        merchant,
      });
      overdue.push(purchaseId);
    }
    const balance = async () => {
      const res = await send('GET', '/me/balance', employee.accessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    // Before the daily job: not frozen, nothing to say.
    expect((await balance()).receiptFreeze).toBeNull();
    await runReceiptDeadlines(new Date(), createLogger({ test: 'receipts' }));

    // Frozen: the two overdue purchases, oldest first; the recent one is not overdue.
    const frozen = await balance();
    expect(frozen.cardStatus).toBe('inactive');
    expect(frozen.receiptFreeze.overdue).toEqual([
      expect.objectContaining({ purchaseId: overdue[0], merchant: 'Powell’s Books', amountCents: 649 }),
      expect.objectContaining({ purchaseId: overdue[1], merchant: 'Audible', amountCents: 650 }),
    ]);
    expect(frozen.receiptFreeze.overdue[0].dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The manager's roster says whose receipts are overdue, beside all those still awaited.
    const roster = await send('GET', '/employees', manager.accessToken);
    expect(roster.body.employees.find((e: { userId: string }) => e.userId === employee.userId)).toMatchObject(
      {
        cardStatus: 'inactive',
        receiptsOutstanding: 3,
        receiptsOverdue: 2,
      },
    );

    // The recent purchase's receipt lifts nothing; one of two overdue ones keeps it frozen.
    expect((await upload(employee.accessToken, recent, PNG, 'image/png')).confirm?.body.card).toBe(
      'stillOverdue',
    );
    expect(
      (await upload(employee.accessToken, overdue[0] as string, PNG, 'image/png')).confirm?.body.card,
    ).toBe('stillOverdue');
    expect((await balance()).receiptFreeze.overdue.map((p: { purchaseId: string }) => p.purchaseId)).toEqual([
      overdue[1],
    ]);

    // The manager freezes the card too: the last receipt lifts only the receipt freeze.
    const managerFreeze = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'inactive',
    });
    expect(managerFreeze.status, JSON.stringify(managerFreeze.body)).toBe(200);
    const last = await upload(employee.accessToken, overdue[1] as string, PNG, 'image/png');
    expect(last.confirm?.body.card).toBe('stillFrozen');
    const after = await balance();
    expect(after).toMatchObject({ cardStatus: 'inactive', freezeReason: 'manager', receiptFreeze: null });
  });

  it('answers active once the last overdue receipt is in and nothing else froze the card', async () => {
    const { employee, purchaseId } = await teamWithPurchase();
    await runReceiptDeadlines(new Date(Date.now() + 21 * 86_400_000), createLogger({ test: 'receipts' }));
    const { confirm } = await upload(employee.accessToken, purchaseId, PNG, 'image/png');
    expect(confirm?.body.card).toBe('active');
    const res = await send('GET', '/me/balance', employee.accessToken);
    expect(res.body).toMatchObject({ cardStatus: 'active', freezeReason: null, receiptFreeze: null });
  });

  it.each([
    ['a PNG', PNG, 'image/png'],
    ['a JPEG', JPEG, 'image/jpeg'],
    ['a GIF', GIF, 'image/gif'],
  ])('accepts %s, records it with its title, and audits it', async (_name, bytes, type) => {
    const { manager, employee, teamId, purchaseId, cardNumber } = await teamWithPurchase();
    const { presign, confirm } = await upload(employee.accessToken, purchaseId, bytes, type, {
      fileName: 'IMG_0042 <script>.png',
    });
    expect(confirm?.status, JSON.stringify(confirm?.body)).toBe(200);
    expect(confirm?.body.purchase).toMatchObject({
      title: 'Design patterns book',
      receipt: { state: 'received' },
    });
    // The key is ours: team, purchase, random id; never the file's name.
    expect(presign.body.fields.key).toBe(`receipts/${teamId}/${purchaseId}/${presign.body.uploadId}`);
    const stored = await stack.getItem(keys.purchase(purchaseId));
    expect(stored?.receipt).toMatchObject({ contentType: type, size: bytes.length });
    const audit = await stack.doc.send(
      new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
        TableName: stack.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :audit)',
        ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':audit': 'AUDIT#' },
      }),
    );
    expect((audit.Items ?? []).map((i) => i.action)).toContain('receipt.uploaded');

    // The employee and the manager can view it through a short-lived URL.
    for (const viewer of [employee, manager]) {
      const view = await send('GET', `/purchases/${purchaseId}/receipt`, viewer.accessToken);
      expect(view.status, JSON.stringify(view.body)).toBe(200);
      expect(JSON.stringify(view.body)).not.toContain(cardNumber);
      const image = await fetch(view.body.url);
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  const big = Buffer.concat([
    PNG.subarray(0, PNG.length - 12),
    Buffer.alloc(150_001 - PNG.length),
    PNG.subarray(-12),
  ]);
  const pngThenHtml = Buffer.concat([PNG.subarray(0, 8), HTML]);
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const text = Buffer.from('These are my notes, renamed to notes.png.\n'.repeat(20));
  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );
  it.each([
    ['150,001 bytes', big, 'image/png', /too large, please pick a smaller file/],
    // The message names what the bytes are, not the type the browser claimed for them; bytes of
    // no known type are named by the file's name, so the spec's wording always applies.
    ['a text file renamed .png', text, 'image/png', /^'text\/plain' is not a supported format\.$/],
    [
      'bytes of no known type',
      Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x10]),
      'image/png',
      /^'notes\.png' is not a supported format\.$/,
    ],
    ['a PDF renamed .png', pdf, 'image/png', /^'application\/pdf' is not a supported format\.$/],
    ['a PNG header followed by HTML', pngThenHtml, 'image/png', /not a supported format|not a valid image/],
    ['a valid PNG with HTML after its end', Buffer.concat([PNG, HTML]), 'image/png', /not a valid image/],
    ['an SVG sent as a PNG', svg, 'image/png', /is not a supported format/],
    ['a JPEG declared as a GIF', JPEG, 'image/gif', /is not the image\/gif it says it is/],
    ['a zero-byte file', Buffer.alloc(0), 'image/png', /is empty/],
  ])('refuses %s after upload: nothing recorded, no object left', async (_name, bytes, type, message) => {
    const { employee, teamId, purchaseId } = await teamWithPurchase();
    // Declared small and of a taken type, as a client bypassing the browser's checks would.
    const { confirm } = await upload(employee.accessToken, purchaseId, bytes, type, {
      fileName: 'notes.png',
      declaredSize: 1000,
    });
    expect(confirm?.status, JSON.stringify(confirm?.body)).toBe(422);
    expect(confirm?.body.error.message).toMatch(message);
    const stored = await stack.getItem(keys.purchase(purchaseId));
    expect(stored?.receipt).toBeUndefined();
    expect(stored?.receiptStatus).toBe('awaiting');
    expect(await objectsUnder(`receipts/${teamId}/${purchaseId}/`)).toEqual([]);
  });

  it.each([
    ['an SVG', 'image/svg+xml', 10, "'image/svg+xml' is not a supported format."],
    ['a file of no type the browser can name', '', 10, "'big.png' is not a supported format."],
    ['a file over the limit', 'image/png', 150_001, "'big.png' is too large, please pick a smaller file."],
  ])('refuses to presign %s, with the spec’s message', async (_name, type, size, message) => {
    const { employee, purchaseId } = await teamWithPurchase();
    const res = await send('POST', `/purchases/${purchaseId}/receipt/upload`, employee.accessToken, {
      contentType: type,
      size,
      fileName: 'big.png',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(message);
  });

  it('attack 9: a receipt the manager has seen cannot be replaced through its old upload form', async () => {
    const { manager, employee, purchaseId } = await teamWithPurchase();
    const first = await upload(employee.accessToken, purchaseId, PNG, 'image/png');
    expect(first.confirm?.status).toBe(200);
    const seen = await send('GET', `/purchases/${purchaseId}/receipt`, manager.accessToken);
    expect(seen.status).toBe(200);

    // The upload's presigned POST is still within its five minutes: send other bytes with it.
    const form = new FormData();
    for (const [name, value] of Object.entries(first.presign.body.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([new Uint8Array(GIF)], { type: 'image/png' }), 'swapped');
    await fetch(first.presign.body.url, { method: 'POST', body: form });

    const viewed = await send('GET', `/purchases/${purchaseId}/receipt`, manager.accessToken);
    const bytes = Buffer.from(await (await fetch(viewed.body.url)).arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
  });

  it('lets the employee replace a receipt until the manager has seen it', async () => {
    const { manager, employee, teamId, purchaseId } = await teamWithPurchase();
    const first = await upload(employee.accessToken, purchaseId, PNG, 'image/png');
    expect(first.confirm?.status).toBe(200);
    const second = await upload(employee.accessToken, purchaseId, GIF, 'image/gif', {
      title: 'Better title',
    });
    expect(second.confirm?.status).toBe(200);
    expect(second.confirm?.body.purchase.title).toBe('Better title');
    // The replaced object is gone; only the current receipt is left under the purchase, where
    // no upload can reach it, and no upload is left behind.
    expect(await objectsUnder(`confirmed/${teamId}/${purchaseId}/`)).toEqual([
      `confirmed/${teamId}/${purchaseId}/${second.presign.body.uploadId}`,
    ]);
    expect(await objectsUnder(`receipts/${teamId}/${purchaseId}/`)).toEqual([]);

    expect((await send('GET', `/purchases/${purchaseId}/receipt`, manager.accessToken)).status).toBe(200);
    const list = await send('GET', '/purchases', employee.accessToken);
    expect(list.body.purchases[0].receipt.seen).toBe(true);
    const third = await send('POST', `/purchases/${purchaseId}/receipt/upload`, employee.accessToken, {
      contentType: 'image/png',
      size: PNG.length,
    });
    expect(third.status).toBe(409);

    // The activity log names the person whose purchase it is (not "Former
    // member"), and lists these under them: each event and an older one
    // written with the purchase as its target.
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    await stack.doc.send(
      new PutCommand({
        TableName: stack.tableName,
        Item: {
          pk: `TEAM#${teamId}`,
          sk: 'AUDIT#00000000000000000000000000',
          entity: 'AuditEvent',
          eventId: '00000000000000000000000000',
          teamId,
          actorId: manager.userId,
          action: 'receipt.seen',
          targetId: purchaseId,
          at: '2020-01-01T00:00:00.000Z',
        },
      }),
    );
    const log = await send('GET', '/team/audit?limit=100', manager.accessToken);
    const receiptEvents = (
      log.body.events as { action: string; targetId?: string; targetName?: string }[]
    ).filter((e) => e.action.startsWith('receipt.'));
    expect(receiptEvents.map((e) => e.action)).toEqual([
      'receipt.seen',
      'receipt.replaced',
      'receipt.uploaded',
      'receipt.seen',
    ]);
    for (const event of receiptEvents)
      expect(event, JSON.stringify(event)).toMatchObject({
        targetId: employee.userId,
        targetName: 'Eddie Employee',
      });
    const theirs = await send('GET', `/team/audit?limit=100&person=${employee.userId}`, manager.accessToken);
    expect(
      (theirs.body.events as { action: string }[]).filter((e) => e.action.startsWith('receipt.')),
    ).toHaveLength(3);
  });

  it('keeps other people and other teams out (404), and managers cannot upload', async () => {
    const a = await teamWithPurchase();
    const b = await teamWithPurchase();
    expect((await upload(a.employee.accessToken, a.purchaseId, PNG, 'image/png')).confirm?.status).toBe(200);
    const colleague = await joinTeam(stack, a.manager, 25);

    for (const outsider of [colleague, b.employee]) {
      const presign = await send('POST', `/purchases/${a.purchaseId}/receipt/upload`, outsider.accessToken, {
        contentType: 'image/png',
        size: PNG.length,
      });
      expect(presign.status).toBe(404);
      expect((await send('GET', `/purchases/${a.purchaseId}/receipt`, outsider.accessToken)).status).toBe(
        404,
      );
      const confirm = await send('POST', `/purchases/${a.purchaseId}/receipt`, outsider.accessToken, {
        uploadId: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
        title: 'Mine now',
      });
      expect(confirm.status).toBe(404);
    }
    expect((await send('GET', `/purchases/${a.purchaseId}/receipt`, b.manager.accessToken)).status).toBe(404);
    const managerUpload = await send(
      'POST',
      `/purchases/${a.purchaseId}/receipt/upload`,
      a.manager.accessToken,
      {
        contentType: 'image/png',
        size: PNG.length,
      },
    );
    expect(managerUpload.status).toBe(403);
    // B's manager's list does not carry A's purchase.
    const bList = await send('GET', '/purchases', b.manager.accessToken);
    expect(bList.body.purchases.map((p: { purchaseId: string }) => p.purchaseId)).not.toContain(a.purchaseId);
  });

  it('signs an upload policy that pins the key, the type, 1-150,000 bytes and 5 minutes (what S3 enforces; s3rver does not)', async () => {
    const { employee, purchaseId, teamId } = await teamWithPurchase();
    const before = Date.now();
    const presign = await send('POST', `/purchases/${purchaseId}/receipt/upload`, employee.accessToken, {
      contentType: 'image/gif',
      size: GIF.length,
      fileName: '../../evil name.gif',
    });
    expect(presign.status).toBe(200);
    const fields = presign.body.fields as Record<string, string>;
    const policy = JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    const key = fields.key ?? '';
    // The server's key: team, purchase, random id; never the file name.
    expect(key).toMatch(new RegExp(`^receipts/${teamId}/${purchaseId}/[0-9A-Z]{26}$`));
    expect(key).not.toContain('evil');
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['eq', '$key', key],
        ['eq', '$Content-Type', 'image/gif'],
        ['content-length-range', 1, 150_000],
      ]),
    );
    const expiresIn = Date.parse(policy.expiration) - before;
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60 * 1000 + 1000);
  });

  it('mints view URLs that expire', async () => {
    const { employee, purchaseId } = await teamWithPurchase();
    expect((await upload(employee.accessToken, purchaseId, PNG, 'image/png')).confirm?.status).toBe(200);
    const stored = await stack.getItem(keys.purchase(purchaseId));
    const key = (stored?.receipt as { key: string } | undefined)?.key as string;
    const { presignView, VIEW_EXPIRY_SECONDS } = await import('../../lambdas/src/adapters/receipts');
    // Signed as if minted just over the expiry ago: the store refuses it.
    const stale = await presignView(
      key,
      'image/png',
      new Date(Date.now() - (VIEW_EXPIRY_SECONDS + 5) * 1000),
    );
    expect((await fetch(stale)).status).toBe(403);
    const fresh = await presignView(key, 'image/png', new Date());
    expect((await fetch(fresh)).status).toBe(200);
    // The object is private: no URL without a signature.
    const head = await s3.send(new HeadObjectCommand({ Bucket: TEST_RECEIPTS_BUCKET, Key: key }));
    expect(head.ContentType).toBe('image/png');
  });
});
