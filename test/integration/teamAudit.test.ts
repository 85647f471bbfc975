/**
 * The activity log (GET /team/audit): manager actions and money movements of
 * one team, newest first, a page at a time. Paging through with any page size
 * hands out every event exactly once, in order; the person and kind filters
 * keep only what they name; another team sees none of it.
 */
import { randomUUID } from 'node:crypto';
import { auditDetails } from '@shared/domain/auditLog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lambdas/src/platform/log';
import { applyCapture } from '../../lambdas/src/services/cards';
import { inviteAndRegisterEmployee, type SignedIn } from '../support/accountFlows';
import { BOOKSHOP, payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
let manager: SignedIn;
let first: SignedIn;
let second: SignedIn;

type Event = { eventId: string; action: string; actorId: string; targetId?: string; at: string };

async function everyPage(
  token: string,
  query: string,
  limit: number,
): Promise<{ events: Event[]; pages: number }> {
  const events: Event[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await send('GET', `/team/audit${q}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.events.length).toBeLessThanOrEqual(limit);
    events.push(...res.body.events);
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return { events, pages };
}

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
  ({ manager } = await setUpTeam(stack));
  first = await joinTeam(stack, manager, 20);
  second = await joinTeam(stack, manager, 30);
  // Manager actions interleaved with money movements (each join funded a card).
  for (const action of ['pause', 'unpause', 'pause'] as const) {
    const res = await send('POST', '/employees/pause', manager.accessToken, {
      userIds: [first.userId],
      action,
    });
    expect(res.status).toBe(200);
  }
  const frozen = await send('POST', '/employees/cardStatus', manager.accessToken, {
    userIds: [second.userId],
    status: 'inactive',
  });
  expect(frozen.status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

describe('the activity log', () => {
  it('pages through every event exactly once, newest first, whatever the page size', async () => {
    const all = await everyPage(manager.accessToken, '', 100);
    expect(all.pages).toBe(1);
    const actions = all.events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['billing.setup', 'employee.paused', 'employee.unpaused', 'card.frozen']),
    );
    expect(actions.filter((a) => a === 'money.funding')).toHaveLength(2);
    const times = all.events.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    for (const limit of [1, 2, 3]) {
      const paged = await everyPage(manager.accessToken, '', limit);
      expect(paged.events.map((e) => e.eventId)).toEqual(all.events.map((e) => e.eventId));
      expect(paged.pages).toBeGreaterThanOrEqual(Math.ceil(all.events.length / limit));
    }
  });

  it('names the people and keeps only the chosen person or kind', async () => {
    const res = await send('GET', '/team/audit?limit=100', manager.accessToken);
    const pause = res.body.events.find((e: Event) => e.action === 'employee.paused');
    expect(pause).toMatchObject({
      actorName: 'Mary Manager',
      targetId: first.userId,
      targetName: 'Eddie Employee',
    });

    const mine = await everyPage(manager.accessToken, `&person=${first.userId}`, 2);
    expect(mine.events.length).toBeGreaterThan(0);
    for (const e of mine.events) {
      expect(e.targetId === first.userId || e.actorId === first.userId).toBe(true);
    }
    // Their pauses and their card's funding, nothing of the other employee.
    expect(mine.events.map((e) => e.action).sort()).toEqual(
      ['employee.paused', 'employee.paused', 'employee.unpaused', 'money.funding'].sort(),
    );

    const cards = await everyPage(manager.accessToken, '&kind=cards', 2);
    expect(cards.events.map((e) => e.action)).toEqual(['card.frozen']);
    const money = await everyPage(manager.accessToken, '&kind=money', 1);
    expect(money.events.every((e) => e.action.startsWith('money.'))).toBe(true);
    expect(money.events).toHaveLength(2);
  });

  it('records no card change that did not happen: activating an active card, freezing a frozen one', async () => {
    const before = (await everyPage(manager.accessToken, '&kind=cards', 100)).events.length;
    const activate = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [first.userId],
      status: 'active',
    });
    expect(activate.status).toBe(200);
    expect(activate.body.results).toEqual([{ userId: first.userId, status: 'active', message: 'Unchanged' }]);
    const refreeze = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [second.userId],
      status: 'inactive',
    });
    expect(refreeze.body.results).toEqual([
      { userId: second.userId, status: 'inactive', message: 'Unchanged' },
    ]);
    expect((await everyPage(manager.accessToken, '&kind=cards', 100)).events).toHaveLength(before);

    // A real change in the same request is still recorded, once, for its person only.
    const both = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [first.userId, second.userId],
      status: 'active',
    });
    expect(both.status).toBe(200);
    const cards = (await everyPage(manager.accessToken, '&kind=cards', 100)).events;
    expect(cards).toHaveLength(before + 1);
    expect(cards[0]).toMatchObject({ action: 'card.activated', targetId: second.userId });
  });

  it('refuses a cursor it did not make, and shows another team nothing of this one', async () => {
    const bad = await send('GET', '/team/audit?cursor=not-a-cursor', manager.accessToken);
    expect(bad.status).toBe(400);
    const other = await setUpTeam(stack);
    const theirs = await everyPage(other.manager.accessToken, '', 100);
    const ours = new Set((await everyPage(manager.accessToken, '', 100)).events.map((e) => e.eventId));
    expect(theirs.events.some((e) => ours.has(e.eventId))).toBe(false);
    const spy = await send('GET', `/team/audit?person=${first.userId}`, other.manager.accessToken);
    expect(spy.status).toBe(200);
    expect(spy.body.events).toEqual([]);
  });

  it('says whose money a reallocation or redeem moved and to whom, and what a budget edit changed', async () => {
    const team = await setUpTeam(stack);
    const boss = team.manager;
    const join = (budget: number, firstName: string, lastName: string) =>
      inviteAndRegisterEmployee(stack.apiUrl, boss, budget, { mailbox: stack.mailbox, firstName, lastName });
    const omar = await join(30, 'Omar', 'Diaz');
    const ana = await join(25, 'Ana', 'Lee');
    const priya = await join(25, 'Priya', 'Shah');
    const sam = await join(25, 'Sam', 'Rivera');
    const leo = await join(25, 'Leo', 'Martin');
    const removed = await send('POST', '/employees/delete', boss.accessToken, { userIds: [omar.userId] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const moved = await send(
      'POST',
      '/funds/reallocate',
      boss.accessToken,
      { deletedUserIds: [omar.userId], receiverIds: [ana.userId, priya.userId, sam.userId] },
      `r-${randomUUID()}`,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    for (const budget of [30, 0, 25]) {
      const edited = await send('PUT', `/users/${leo.userId}`, boss.accessToken, {
        firstName: 'Leo',
        lastName: 'Martin',
        budget,
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    }
    const renamed = await send('PUT', `/users/${leo.userId}`, boss.accessToken, {
      firstName: 'Leo',
      lastName: 'Martins',
    });
    expect(renamed.status).toBe(200);
    expect(
      (await send('POST', '/employees/delete', boss.accessToken, { userIds: [sam.userId] })).status,
    ).toBe(200);
    const redeemed = await send(
      'POST',
      '/funds/redeem',
      boss.accessToken,
      { deletedUserIds: [sam.userId] },
      `x-${randomUUID()}`,
    );
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);

    type Row = Event & {
      targetName?: string;
      names?: Record<string, string>;
      after?: Record<string, unknown>;
    };
    const events = (await everyPage(boss.accessToken, '', 100)).events as Row[];
    const rows = (action: string) => events.filter((e) => e.action === action);
    const shown = (e: Row | undefined) =>
      e && { to: e.targetName, details: auditDetails(e as Row & { action: string }) };

    // The reallocation: both rows name Omar as the one whose money it was, and each receiver's share.
    const receivers = 'Ana Lee $10.00, Priya Shah $10.00, Sam Rivera $10.00';
    expect(shown(rows('funds.reallocated')[0])).toEqual({
      to: 'Omar Diaz',
      details: `From Omar Diaz: ${receivers}`,
    });
    expect(shown(rows('money.reallocation')[0])).toEqual({
      to: 'Omar Diaz',
      details: `From Omar Diaz: ${receivers}`,
    });
    // Sam's own redeem and the ledger's row beside it: the fee, and what was refunded to the team's card.
    // ($10.00 reallocated on top of $25.00 is $35.00: 15 % is $5.25.)
    const redeemWords = '$29.75 refunded to the team’s card; fee $5.25';
    expect(shown(rows('funds.redeemed')[0])).toEqual({ to: 'Sam Rivera', details: redeemWords });
    expect(shown(rows('money.redemption')[0])).toEqual({ to: 'Sam Rivera', details: redeemWords });
    // The person filter finds Sam's redeem, and the reallocation that paid him.
    const samOnly = (await everyPage(boss.accessToken, `&person=${sam.userId}`, 100)).events.map(
      (e) => e.action,
    );
    expect(samOnly).toEqual(
      expect.arrayContaining(['funds.redeemed', 'funds.reallocated', 'money.reallocation']),
    );
    // Leo's edits, newest first, each saying what changed.
    expect(rows('employee.updated').map(shown)).toEqual([
      { to: 'Leo Martins', details: 'Name Leo Martin → Leo Martins' },
      { to: 'Leo Martins', details: 'Budget $0.00 → $25.00' },
      { to: 'Leo Martins', details: 'Budget $30.00 → $0.00' },
      { to: 'Leo Martins', details: 'Budget $25.00 → $30.00' },
    ]);
  });

  it('says why money moved to the team pool: a removed person is not called dormant', async () => {
    const { manager: boss } = await setUpTeam(stack);
    const leaving = await joinTeam(stack, boss, 40);
    const removed = await send('POST', '/employees/delete', boss.accessToken, { userIds: [leaving.userId] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const events = (await everyPage(boss.accessToken, `&person=${leaving.userId}`, 100)).events;
    const pooled = events.filter((e) => e.action === 'money.poolTransfer');
    expect(pooled).toHaveLength(1);
    expect(auditDetails(pooled[0] as Event & { after?: Record<string, unknown> })).toBe(
      'Balance of a removed employee moved to the team pool',
    );
  });

  it('shows a purchase held, then settled, even when Stripe dates the capture in the same second or before', async () => {
    const team = await setUpTeam(stack);
    const ada = await joinTeam(stack, team.manager, 25);
    const admin = stack.stripe?.admin;
    if (!admin) throw new Error('this stack runs without the Stripe emulator');
    admin.setAutoCapture(false);
    let authorizationId: string;
    try {
      const outcome = await payWithCard(stack, ada.cardId, 1299);
      expect(outcome.approved).toBe(true);
      authorizationId = outcome.authorization?.id as string;
    } finally {
      admin.setAutoCapture(50);
    }
    // Stripe's `created` is whole seconds: the capture can carry a time before our approval's milliseconds.
    const decidedAt = Date.now();
    const result = await applyCapture(
      {
        transactionId: `ipi_sameSecond_${randomUUID()}`,
        authorizationId,
        cardId: ada.cardId,
        amountCents: 1299,
        merchant: BOOKSHOP.name,
        category: BOOKSHOP.category,
        createdAt: new Date(Math.floor(decidedAt / 1000) * 1000 - 1000).toISOString(),
      },
      createLogger({ test: 'teamAudit' }),
    );
    expect(result.status).toBe('posted');
    const { events } = await everyPage(team.manager.accessToken, '&kind=money', 50);
    const purchase = events
      .filter((e) => e.action === 'money.authorization' || e.action === 'money.capture')
      .map((e) => e.action);
    // Newest first: settled above held.
    expect(purchase).toEqual(['money.capture', 'money.authorization']);
  });
});
