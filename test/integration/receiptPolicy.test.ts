import { auditDetails, SYSTEM_ACTOR_NAME } from '@shared/domain/auditLog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { markReceiptReceived } from '../../lambdas/src/data/purchaseReceipts';
import { handler } from '../../lambdas/src/jobs/receiptDeadlines';
import { createLogger } from '../../lambdas/src/platform/log';
import { onReceiptReceived, runReceiptDeadlines } from '../../lambdas/src/services/receipts';
import type { SignedIn } from '../support/accountFlows';
import { putAwaitingPurchase } from '../support/awaitingPurchase';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

/** A purchase as the card settlement records it, awaiting its receipt. */
const putPurchase = (employee: { userId: string; cardId: string }, teamId: string, createdAt: string) =>
  putAwaitingPurchase(stack, employee, teamId, { createdAt });

async function card(cardId: string) {
  const ours = await stack.getItem(keys.card(cardId));
  const issuer = await emulatorClient(stack).issuing.cards.retrieve(cardId);
  return { status: ours?.status, freeze: ours?.freeze, issuerStatus: issuer.status };
}

async function subjects(address: string): Promise<string[]> {
  return (await stack.mailbox.to(address)).map((m) => m.subject);
}

async function team(): Promise<{
  manager: SignedIn;
  teamId: string;
  employee: SignedIn & { cardId: string };
}> {
  const { manager, teamId } = await setUpTeam(stack);
  const employee = await joinTeam(stack, manager, 30);
  return { manager, teamId, employee };
}

const log = createLogger({ test: 'receiptPolicy' });

type LogEvent = {
  eventId: string;
  actorId: string;
  actorName?: string;
  action: string;
  targetId?: string;
  targetName?: string;
  after?: Record<string, unknown>;
  at: string;
};

/** The card events of the manager's Activity Log (GET /team/audit), oldest first, with their details in words. */
async function cardLog(manager: SignedIn) {
  const res = await sender(stack)('GET', '/team/audit?kind=cards&limit=100', manager.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.events as LogEvent[]).reverse().map((e) => ({ ...e, details: auditDetails(e) }));
}

describe('receipt deadlines', () => {
  it('reminds before the deadline, freezes the day after it and tells both, once a day; the receipt unfreezes at once', async () => {
    const { manager, teamId, employee } = await team();
    // Bought Monday 2 March 2026: reminder Thursday 5 March, due Monday 9 March.
    const purchaseId = await putPurchase(employee, teamId, '2026-03-02T15:00:00.000Z');

    await handler({ time: '2026-03-04T14:00:00.000Z' });
    expect(await subjects(employee.email)).not.toContain('Receipt due soon');

    await handler({ time: '2026-03-05T14:00:00.000Z' });
    expect((await subjects(employee.email)).filter((s) => s === 'Receipt due soon')).toHaveLength(1);
    expect((await card(employee.cardId)).status).toBe('active');

    await handler({ time: '2026-03-09T14:00:00.000Z' });
    const dueToday = (await stack.mailbox.to(employee.email)).filter((m) =>
      m.subject.startsWith('Receipt due today'),
    );
    expect(dueToday).toHaveLength(1);
    expect(dueToday[0]?.body.text).toContain(
      '$12.99 at Powell’s Books on 03/02/2026, receipt due 03/09/2026',
    );
    expect((await card(employee.cardId)).status).toBe('active');

    const overdueDay = await handler({ time: '2026-03-10T14:00:00.000Z' });
    expect(overdueDay.status).toBe('done');
    expect(await card(employee.cardId)).toEqual({
      status: 'inactive',
      freeze: { missingReceipt: true },
      issuerStatus: 'inactive',
    });
    const frozenMail = (await subjects(employee.email)).filter((s) => s.includes('frozen'));
    expect(frozenMail).toHaveLength(1);
    const managerMail = (await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes('frozen'));
    expect(managerMail).toHaveLength(1);
    expect(managerMail[0]?.body.text).toContain('03/09/2026');

    // Fired again the same day: the run is claimed once; a retried run by hand does nothing twice.
    expect((await handler({ time: '2026-03-10T18:00:00.000Z' })).status).toBe('skipped');
    const retried = await runReceiptDeadlines(new Date('2026-03-10T19:00:00.000Z'), log);
    expect(retried).toMatchObject({ cardsFrozen: 0, remindersSent: 0 });
    expect((await subjects(employee.email)).filter((s) => s.includes('frozen'))).toHaveLength(1);
    expect((await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes('frozen'))).toHaveLength(
      1,
    );
    const before = (await stack.mailbox.to(employee.email)).length;

    // The employee's purchase check says why.
    const check = await sender(stack)(
      'GET',
      '/me/purchaseCheck?amountCents=100&merchantCategory=book_stores',
      employee.accessToken,
    );
    expect(JSON.stringify(check.body)).toMatch(/receipt/i);

    await markReceiptReceived(purchaseId, '2026-03-10T20:00:00.000Z');
    expect(await onReceiptReceived(employee.userId, new Date('2026-03-10T20:00:00.000Z'))).toEqual({
      card: 'active',
    });
    expect(await card(employee.cardId)).toEqual({ status: 'active', freeze: {}, issuerStatus: 'active' });
    const after = await stack.mailbox.to(employee.email);
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)?.subject).toMatch(/works again/);
  });

  it("never lifts a manager's own freeze: the receipt only takes its own reason away", async () => {
    const { manager, teamId, employee } = await team();
    // Bought Wednesday 1 April 2026: due Wednesday 8 April, overdue on the 9th.
    const purchaseId = await putPurchase(employee, teamId, '2026-04-01T15:00:00.000Z');
    await handler({ time: '2026-04-09T14:00:00.000Z' });
    expect((await card(employee.cardId)).freeze).toEqual({ missingReceipt: true });

    const frozen = await sender(stack)('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'inactive',
    });
    expect(frozen.status).toBe(200);
    expect((await card(employee.cardId)).freeze).toEqual({ missingReceipt: true, manager: true });

    await markReceiptReceived(purchaseId, '2026-04-09T16:00:00.000Z');
    expect(await onReceiptReceived(employee.userId, new Date('2026-04-09T16:00:00.000Z'))).toEqual({
      card: 'stillFrozen',
    });
    expect(await card(employee.cardId)).toEqual({
      status: 'inactive',
      freeze: { manager: true },
      issuerStatus: 'inactive',
    });
    // The log says the receipt freeze went, and what still holds the card.
    const lifted = (await cardLog(manager)).filter((e) => e.action === 'card.receiptFreezeLifted');
    expect(lifted.map((e) => [e.actorName, e.after?.status, e.details])).toEqual([
      [
        SYSTEM_ACTOR_NAME,
        'inactive',
        expect.stringMatching(/every overdue receipt is in; still frozen: frozen by a manager$/),
      ],
    ]);

    await handler({ time: '2026-04-10T14:00:00.000Z' });
    expect((await card(employee.cardId)).status).toBe('inactive');
    expect((await subjects(employee.email)).some((s) => s.includes('works again'))).toBe(false);
  });

  it("a manager's bulk activation lifts a receipt freeze only until the next daily run, as the Activate dialogs warn", async () => {
    const { manager, teamId, employee } = await team();
    const other = await joinTeam(stack, manager, 20);
    // Bought Monday 13 July 2026: due Monday 20 July, frozen by the run of the 21st (its own days:
    // each day's run happens once per table).
    await putPurchase(employee, teamId, '2026-07-13T15:00:00.000Z');
    await handler({ time: '2026-07-21T14:00:00.000Z' });
    expect((await card(employee.cardId)).freeze).toEqual({ missingReceipt: true });
    const manual = await sender(stack)('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [other.userId],
      status: 'inactive',
    });
    expect(manual.status).toBe(200);

    const activated = await sender(stack)('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId, other.userId],
      status: 'active',
    });
    expect(activated.status).toBe(200);
    for (const cardId of [employee.cardId, other.cardId])
      expect(await card(cardId)).toEqual({ status: 'active', freeze: {}, issuerStatus: 'active' });

    // The next morning's check freezes the card whose receipt is still missing, and only that one.
    await handler({ time: '2026-07-22T14:00:00.000Z' });
    expect(await card(employee.cardId)).toEqual({
      status: 'inactive',
      freeze: { missingReceipt: true },
      issuerStatus: 'inactive',
    });
    expect(await card(other.cardId)).toEqual({ status: 'active', freeze: {}, issuerStatus: 'active' });
  });

  it('stays frozen while any overdue receipt is missing; the daily run lifts a freeze whose receipts came in; the roster counts what is outstanding', async () => {
    const { manager, teamId, employee } = await team();
    const first = await putPurchase(employee, teamId, '2026-05-04T15:00:00.000Z'); // due 11 May
    const second = await putPurchase(employee, teamId, '2026-05-05T15:00:00.000Z'); // due 12 May
    await handler({ time: '2026-05-13T14:00:00.000Z' });
    expect((await card(employee.cardId)).status).toBe('inactive');

    const roster = await sender(stack)('GET', '/employees', manager.accessToken);
    const row = roster.body.employees.find((e: { userId: string }) => e.userId === employee.userId);
    expect(row.receiptsOutstanding).toBe(2);
    // Why the card is frozen, so the Employees screen can say "Frozen: receipt overdue".
    expect(row).toMatchObject({ cardStatus: 'inactive', freezeReasons: ['missingReceipt'] });

    await markReceiptReceived(first, '2026-05-13T15:00:00.000Z');
    expect(await onReceiptReceived(employee.userId, new Date('2026-05-13T15:00:00.000Z'))).toEqual({
      card: 'stillOverdue',
    });
    expect((await card(employee.cardId)).status).toBe('inactive');

    // The second receipt arrives but its confirm never calls back: the next run catches up.
    await markReceiptReceived(second, '2026-05-13T16:00:00.000Z');
    const next = await handler({ time: '2026-05-14T14:00:00.000Z' });
    expect(next.status).toBe('done');
    expect(await card(employee.cardId)).toEqual({ status: 'active', freeze: {}, issuerStatus: 'active' });
    // The job's own lifting is logged too, once: a run by hand the same day finds nothing to lift.
    await runReceiptDeadlines(new Date('2026-05-14T15:00:00.000Z'), log);
    expect((await cardLog(manager)).map((e) => [e.action, e.at])).toEqual([
      ['card.receiptFreeze', '2026-05-13T14:00:00.000Z'],
      ['card.receiptFreezeLifted', '2026-05-14T14:00:00.000Z'],
    ]);

    const later = await sender(stack)('GET', '/employees', manager.accessToken);
    expect(later.body.employees.find((e: { userId: string }) => e.userId === employee.userId)).toMatchObject({
      receiptsOutstanding: 0,
      freezeReasons: [],
    });
  });
  it('logs each freeze and its lifting in the Activity Log as the automatic system, once however often the job runs', async () => {
    const { manager, teamId, employee } = await team();
    const last4 = (await stack.getItem(keys.card(employee.cardId)))?.last4 as string;
    // Bought Monday 1 June 2026: due Monday 8 June, overdue from Tuesday 9 June.
    const purchaseId = await putPurchase(employee, teamId, '2026-06-01T15:00:00.000Z');
    expect(await cardLog(manager)).toEqual([]);

    expect((await handler({ time: '2026-06-09T14:00:00.000Z' })).status).toBe('done');
    const frozen = await cardLog(manager);
    expect(frozen).toHaveLength(1);
    expect(frozen[0]).toMatchObject({
      actorId: 'system',
      actorName: SYSTEM_ACTOR_NAME,
      action: 'card.receiptFreeze',
      targetId: employee.userId,
      targetName: expect.any(String),
      at: '2026-06-09T14:00:00.000Z',
      after: { cardId: employee.cardId, last4, status: 'inactive' },
      details: `Card ending in ${last4}: receipt for Powell’s Books $12.99 overdue since 06/09/2026`,
    });

    // The same day again, a run by hand, and the next days with the card still frozen: nothing more.
    expect((await handler({ time: '2026-06-09T18:00:00.000Z' })).status).toBe('skipped');
    expect(await runReceiptDeadlines(new Date('2026-06-09T19:00:00.000Z'), log)).toMatchObject({
      cardsFrozen: 0,
    });
    await handler({ time: '2026-06-10T14:00:00.000Z' });
    await runReceiptDeadlines(new Date('2026-06-10T15:00:00.000Z'), log);
    expect((await cardLog(manager)).map((e) => e.eventId)).toEqual([frozen[0]?.eventId]);

    // The manager activates it while the receipt is still overdue: the next run freezes it again,
    // a new freeze the log shows after the manager's activation.
    const activated = await sender(stack)('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'active',
    });
    expect(activated.status).toBe(200);
    await handler({ time: '2026-06-11T14:00:00.000Z' });
    expect((await card(employee.cardId)).freeze).toEqual({ missingReceipt: true });
    // (The manager acts on today's clock, the job on June's: compared by kind, not by place.)
    const refrozen = await cardLog(manager);
    expect(refrozen.filter((e) => e.action === 'card.activated')).toHaveLength(1);
    expect(refrozen.filter((e) => e.action === 'card.receiptFreeze').map((e) => [e.at, e.actorId])).toEqual([
      ['2026-06-09T14:00:00.000Z', 'system'],
      ['2026-06-11T14:00:00.000Z', 'system'],
    ]);

    // The receipt comes in and two unfreezes race (a retried confirm): the card is lifted, logged and
    // the employee told once; the next run adds nothing.
    const told = (await subjects(employee.email)).filter((s) => s.includes('works again')).length;
    await markReceiptReceived(purchaseId, '2026-06-11T16:00:00.000Z');
    const both = await Promise.all([
      onReceiptReceived(employee.userId, new Date('2026-06-11T16:00:00.000Z')),
      onReceiptReceived(employee.userId, new Date('2026-06-11T16:00:00.000Z')),
    ]);
    expect(both.map((r) => r.card)).toContain('active');
    for (const r of both) expect(['active', 'notFrozenForReceipts']).toContain(r.card);
    expect(await card(employee.cardId)).toEqual({ status: 'active', freeze: {}, issuerStatus: 'active' });
    expect((await subjects(employee.email)).filter((s) => s.includes('works again'))).toHaveLength(told + 1);
    await handler({ time: '2026-06-12T14:00:00.000Z' });
    const lifted = (await cardLog(manager)).filter((e) => e.action === 'card.receiptFreezeLifted');
    expect(lifted).toHaveLength(1);
    expect(lifted[0]).toMatchObject({
      actorId: 'system',
      actorName: SYSTEM_ACTOR_NAME,
      targetId: employee.userId,
      at: '2026-06-11T16:00:00.000Z',
      after: { cardId: employee.cardId, status: 'active' },
      details: `Card ending in ${last4}: every overdue receipt is in`,
    });
    expect(await cardLog(manager)).toHaveLength(4);
  });
});
