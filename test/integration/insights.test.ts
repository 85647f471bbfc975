/**
 * Issue 26: insights read from aggregates the ledger keeps as money moves.
 * One team, through the real handlers and the Stripe emulator: joining
 * fundings, an extra deposit, purchases with and without an inferred skill
 * area, a merchant refund, removals to the pool, a reallocation and a
 * redemption. Every figure of GET /insights is checked against the ledger
 * (the team's journal and the accounts' balances); duplicate webhook
 * deliveries add nothing; an authorization writes no aggregate; a skill change
 * raced by the employee and the manager moves the purchase's amount once.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { teamMonthOf } from '@shared/domain/insightDeltas';
import { cardAccount, holdAccount, poolAccount } from '@shared/domain/ledger';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import type { InsightsAnswer, InsightsPeopleAnswer, MySpendAnswer } from '@shared/schemas/insights';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTeam, listTeamUsers, setUserFields, type TeamRecord } from '../../lambdas/src/data/accounts';
import { backfillInsights, backfillTeamInsights } from '../../lambdas/src/data/insightBackfill';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { nextCharge } from '../../lambdas/src/services/billing';
import { NEXT_CHARGE_FRESH_MS, teamInsights } from '../../lambdas/src/services/insights';
import { importCatalogue } from '../../lambdas/src/services/shop';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { fundedCard } from '../support/fundedCard';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { authorizationObject, deliver, event, transactionObject } from '../support/stripeEvents';
import { joinTeam, sender, setUpTeam } from '../support/teams';

const course: CatalogueItem = {
  id: 'insights-test-course',
  name: 'Leading Teams',
  author: 'A. Coach',
  category: 'Leadership',
  trait: 'Vision',
  media: 'course',
  priceCents: 1500,
  rating: 4.5,
  totalReviews: 10,
  year: 2024,
  affiliateLinks: { udemy: 'https://www.udemy.com/course/leading-teams' },
};

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
  await importCatalogue([course]);
});
afterAll(async () => {
  await stack?.stop();
});

const admin = () => {
  const a = stack.stripe?.admin;
  if (!a) throw new Error('no emulator');
  return a;
};

async function pay(cardId: string, cents: number, name: string) {
  const outcome = await payWithCard(stack, cardId, cents, { name, category: 'book_stores' });
  expect(outcome?.approved).toBe(true);
}

/** Every aggregate item of a team, as stored. */
async function aggregates(teamId: string) {
  const result = await stack.doc.send(
    new QueryCommand({
      TableName: stack.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.insightsNow(teamId).pk },
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

/** What the ledger says, computed from the team's journal and balances (not from the aggregates). */
async function fromLedger(teamId: string, months: string[], employeeIds: string[]) {
  const journal = (await teamJournal(teamId)).filter((e) =>
    months.includes(teamMonthOf(e.postedAt, 'America/New_York')),
  );
  const legs = (kinds: string[], prefix: string, sign: 1 | -1) =>
    journal
      .filter((e) => kinds.includes(e.kind))
      .flatMap((e) => e.legs)
      .filter((l) => l.account.startsWith(prefix) && Math.sign(l.amountCents) === sign)
      .reduce((sum, l) => sum + l.amountCents, 0);
  const captured = legs(['capture'], 'network:', 1);
  const refunded = -legs(['refund'], 'network:', -1);
  let onCards = 0;
  for (const id of employeeIds)
    onCards += (await balanceOf(cardAccount(id))) + (await balanceOf(holdAccount(id)));
  return {
    fundedCents: legs(['funding', 'deposit'], 'card:', 1),
    chargedCents: -legs(['funding', 'deposit'], 'external:', -1),
    spentCents: captured - refunded,
    refundedCents: refunded,
    redeemedCents: legs(['redemption'], 'external:', 1),
    feesCents: legs(['redemption'], 'revenue:', 1),
    pooledCents: legs(['poolTransfer'], 'pool:', 1),
    reallocatedCents: -legs(['reallocation'], 'pool:', -1),
    onCardsCents: onCards,
    inPoolCents: await balanceOf(poolAccount(teamId)),
  };
}

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

describe('insights of a team whose money moved every way', () => {
  let manager: SignedIn;
  let teamId: string;
  let a: SignedIn & { cardId: string };
  let b: SignedIn & { cardId: string };
  let udemyPurchase: string;
  let amazonPurchase: string;
  let refundId: string;
  const month = teamMonthOf(new Date(), 'America/New_York');
  const from = previousMonth(month);
  const query = `from=${from}&to=${month}`;

  beforeAll(async () => {
    ({ manager, teamId } = await setUpTeam(stack));
    a = await joinTeam(stack, manager, 60);
    b = await joinTeam(stack, manager, 30);
    const c = await joinTeam(stack, manager, 20);
    const d = await joinTeam(stack, manager, 20);
    const deposit = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [b.userId], amount: '$10' },
      `d-${randomUUID()}`,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);

    // a opened the Udemy course in the shop, then bought at Udemy (inferred) and at a bookshop (not).
    const view = await send('POST', `/catalogue/${course.id}/views`, a.accessToken);
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    await pay(a.cardId, 1500, 'Udemy');
    await pay(a.cardId, 700, 'Powell’s Books');
    // b opened nothing: an Amazon purchase stays Uncategorised.
    await pay(b.cardId, 1000, 'Amazon.com');

    const purchases = (await send('GET', '/purchases', manager.accessToken)).body.purchases as {
      purchaseId: string;
      vendor: string;
    }[];
    udemyPurchase = purchases.find((p) => p.vendor === 'Udemy')?.purchaseId as string;
    amazonPurchase = purchases.find((p) => p.vendor === 'Amazon.com')?.purchaseId as string;
    refundId = admin().refund(udemyPurchase, 400).id;
    await admin().idle();

    const removed = await send('POST', '/employees/delete', manager.accessToken, {
      userIds: [c.userId, d.userId],
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const moved = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [c.userId], receiverIds: [b.userId] },
      `r-${randomUUID()}`,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const redeemed = await send(
      'POST',
      '/funds/redeem',
      manager.accessToken,
      { deletedUserIds: [d.userId] },
      `x-${randomUUID()}`,
    );
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    const asked = await send(
      'POST',
      '/requests',
      a.accessToken,
      {
        action: 'ask',
        title: 'Negotiation',
        merchant: 'Coursera',
        amount: '12.00',
        why: 'Renewals',
        skillArea: 'Communication',
      },
      `q-${randomUUID()}`,
    );
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  }, 240_000);

  it('infers the skill area from the item opened at that merchant, and leaves the rest Uncategorised', async () => {
    const rows = (await send('GET', '/purchases', a.accessToken)).body.purchases;
    expect(rows.find((p: { vendor: string }) => p.vendor === 'Udemy')).toMatchObject({
      skillArea: 'Leadership',
      media: 'course',
      skillSource: 'inferred',
    });
    expect(rows.find((p: { vendor: string }) => p.vendor === 'Powell’s Books')).toMatchObject({
      skillArea: 'Uncategorised',
      media: 'other',
      skillSource: 'none',
    });
  });

  it('answers every figure as the ledger has it, to the cent', async () => {
    const res = await send('GET', `/insights?${query}`, manager.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = res.body as InsightsAnswer;
    const ledger = await fromLedger(teamId, [from, month], [a.userId, b.userId]);
    expect(answer.totals).toEqual({
      ...ledger,
      utilisation: Math.round((ledger.spentCents / ledger.fundedCents) * 10_000) / 10_000,
    });
    // And the figures themselves, worked out by hand.
    expect(answer.totals).toMatchObject({
      fundedCents: 6000 + 3000 + 2000 + 2000 + 1000,
      chargedCents: 14_000,
      spentCents: 1500 + 700 + 1000 - 400,
      refundedCents: 400,
      onCardsCents: 6000 - 1500 - 700 + 400 + (3000 + 1000 - 1000 + 2000),
      inPoolCents: 0,
      pooledCents: 4000,
      reallocatedCents: 2000,
      redeemedCents: 1500,
      feesCents: 500,
    });
    const slice = (list: InsightsAnswer['bySkill'], key: string) => list.find((s) => s.key === key);
    expect(slice(answer.bySkill, 'Leadership')).toEqual({ key: 'Leadership', cents: 1100, count: 1 });
    expect(slice(answer.bySkill, 'Uncategorised')).toEqual({ key: 'Uncategorised', cents: 1700, count: 2 });
    expect(answer.bySkill).toHaveLength(8);
    expect(answer.bySkill.reduce((s, x) => s + x.cents, 0)).toBe(answer.totals.spentCents);
    expect(slice(answer.byMedia, 'course')).toEqual({ key: 'course', cents: 1100, count: 1 });
    expect(slice(answer.byMedia, 'other')).toEqual({ key: 'other', cents: 1700, count: 2 });
    expect(answer.byMerchant).toEqual([
      { key: 'Udemy', cents: 1100, count: 1 },
      { key: 'Amazon.com', cents: 1000, count: 1 },
      { key: 'Powell’s Books', cents: 700, count: 1 },
    ]);
    // Each month is one item, its merchants attributes of it: a period of N months reads N month items.
    const stored = await aggregates(teamId);
    expect(stored.filter((i) => String(i.sk).includes('MERCHANT'))).toEqual([]);
    expect(stored.find((i) => i.sk === `MONTH#${month}`)).toMatchObject({
      'merchant:Udemy': 1100,
      'merchantN:Udemy': 1,
    });
    expect(answer.byMonth).toEqual([
      { month: from, fundedCents: 0, spentCents: 0 },
      { month, fundedCents: 14_000, spentCents: 2800 },
    ]);
    expect(answer.receiptsOutstanding).toEqual({ count: 3, cents: 3200 });
    expect(answer.requests).toEqual({ askedCents: 1200, approvedCents: 0, declinedCents: 0, count: 1 });
    // The next charge: the Subscription screen's own figure.
    const subscription = (await send('GET', '/subscription', manager.accessToken)).body;
    expect(answer.nextCharge).toEqual({
      on: subscription.billing.nextChargeDate,
      cents: subscription.billing.expectedTotalCents,
    });
    expect(answer.nextCharge?.cents).toBe(9000);
  });

  it('lists each person’s spend and the employee’s own by skill area', async () => {
    const people = (await send('GET', `/insights/people?${query}`, manager.accessToken))
      .body as InsightsPeopleAnswer;
    expect(people.topSpenders.map((p) => [p.userId, p.spentCents, p.status])).toEqual([
      [a.userId, 1800, 'active'],
      [b.userId, 1000, 'active'],
    ]);
    expect(people.spenderCount).toBe(2);
    // Everyone's card came today: nobody has gone 3 months without a purchase.
    expect(people.quiet).toEqual({ count: 0, people: [] });
    expect(people.headingForDormancy).toEqual({ count: 0, people: [] });
    // The CSV's list: the same spenders, with their names and e-mails.
    const all = await send('GET', `/insights/people/all?${query}&list=spenders`, manager.accessToken);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.people).toEqual(people.topSpenders);
    expect(all.body.people[0]).toMatchObject({ email: a.email, name: expect.stringMatching(/\S/) });
    // The spend by person adds up to the period's spend.
    const totals = (await send('GET', `/insights?${query}`, manager.accessToken)).body as InsightsAnswer;
    expect(people.topSpenders.reduce((sum, p) => sum + p.spentCents, 0)).toBe(totals.totals.spentCents);
    const mine = (await send('GET', '/me/spend', a.accessToken)).body as MySpendAnswer;
    expect(mine.leftThisMonthCents).toBe(await balanceOf(cardAccount(a.userId)));
    const thisMonth = mine.months.find((m) => m.month === month);
    expect(thisMonth?.spentCents).toBe(1800);
    expect(thisMonth?.bySkill.filter((s) => s.cents !== 0)).toEqual([
      { key: 'Leadership', cents: 1100, count: 1 },
      { key: 'Uncategorised', cents: 700, count: 1 },
    ]);
  });

  it('adds nothing for a capture or a refund delivered again', async () => {
    const before = await aggregates(teamId);
    const capture = admin()
      .events('issuing_transaction.created')
      .find((e) => e.data.object.id === udemyPurchase);
    await admin().redeliver(capture?.id as string);
    const refundEvent = admin()
      .events('issuing_transaction.created')
      .find((e) => e.data.object.id === refundId);
    expect(refundEvent).toBeDefined();
    await admin().redeliver(refundEvent?.id as string);
    // The same refund in an event of its own (a new event id): only the journal's condition stops it.
    const again = await deliver(stack.apiUrl, event('issuing_transaction.created', refundEvent?.data.object));
    expect(again.status).toBe(200);
    expect(await aggregates(teamId)).toEqual(before);
  });

  it('writes no aggregate for an authorization (card -> hold moves nothing counted)', async () => {
    admin().setAutoCapture(false);
    try {
      const before = await aggregates(teamId);
      await pay(a.cardId, 300, 'Udemy');
      expect(await balanceOf(holdAccount(a.userId))).toBe(300);
      expect(await aggregates(teamId)).toEqual(before);
    } finally {
      admin().setAutoCapture(0);
    }
  });

  it('moves a purchase’s amount once when the employee and the manager change its skill area at once', async () => {
    // Three changes each, all at once: each one reads, then moves from what it read, conditioned on it.
    const answers = await Promise.all(
      [1, 2, 3].flatMap(() => [
        send('PUT', `/purchases/${amazonPurchase}/skill`, b.accessToken, {
          skillArea: 'Communication',
          media: 'book',
        }),
        send('PUT', `/purchases/${amazonPurchase}/skill`, manager.accessToken, {
          skillArea: 'Execution',
          media: 'book',
        }),
      ]),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const row = (await send('GET', '/purchases', b.accessToken)).body.purchases.find(
      (p: { purchaseId: string }) => p.purchaseId === amazonPurchase,
    );
    const final = row.skillArea as string;
    expect(['Communication', 'Execution']).toContain(final);
    expect(row.skillSource).toBe(final === 'Execution' ? 'manager' : 'employee');
    const answer = (await send('GET', `/insights?${query}`, manager.accessToken)).body as InsightsAnswer;
    const cents = Object.fromEntries(answer.bySkill.map((s) => [s.key, [s.cents, s.count]]));
    expect(cents).toMatchObject({
      Leadership: [1100, 1],
      Uncategorised: [700, 1],
      [final]: [1000, 1],
      [final === 'Execution' ? 'Communication' : 'Execution']: [0, 0],
    });
    expect(Object.fromEntries(answer.byMedia.map((s) => [s.key, s.cents]))).toMatchObject({
      book: 1000,
      other: 700,
      course: 1100,
    });
    const people = (await send('GET', `/me/spend`, b.accessToken)).body as MySpendAnswer;
    expect(people.months.find((m) => m.month === month)?.bySkill.filter((s) => s.cents !== 0)).toEqual([
      { key: final, cents: 1000, count: 1 },
    ]);
    // The manager's change is in the audit log, with the area before and after.
    const audit = (await send('GET', '/team/audit', manager.accessToken)).body;
    const changes = JSON.stringify(audit).match(/purchase\.skillChanged/g) ?? [];
    expect(changes.length).toBeGreaterThanOrEqual(1);
    expect(changes.length).toBeLessThanOrEqual(3);
  });

  it('refuses employees the team’s insights, and other people a purchase that is not theirs', async () => {
    expect((await send('GET', `/insights?${query}`, a.accessToken)).status).toBe(403);
    expect((await send('GET', `/insights/people?${query}`, a.accessToken)).status).toBe(403);
    expect((await send('GET', '/me/spend', manager.accessToken)).status).toBe(403);
    const other = await setUpTeam(stack);
    const stranger = await send('PUT', `/purchases/${amazonPurchase}/skill`, other.manager.accessToken, {
      skillArea: 'Leadership',
      media: 'book',
    });
    expect(stranger.status).toBe(404);
    const colleague = await send('PUT', `/purchases/${amazonPurchase}/skill`, a.accessToken, {
      skillArea: 'Leadership',
      media: 'book',
    });
    expect(colleague.status).toBe(404);
    // Another team's manager sees their own team: nothing of this one.
    const theirs = (await send('GET', `/insights?${query}`, other.manager.accessToken))
      .body as InsightsAnswer;
    expect(theirs.totals.spentCents).toBe(0);
  });

  it('keeps the next charge 5 minutes as an estimate, then figures it again exactly as the Subscription screen', async () => {
    const team = (await getTeam(teamId)) as TeamRecord;
    const period = { from, to: month };
    // The Subscription screen's function, on the team's whole user items.
    const subscriptionFigure = async (at: Date) => {
      const billing = await nextCharge(team, await listTeamUsers(teamId), at);
      return billing ? { on: billing.nextChargeDate, cents: billing.expectedTotalCents } : null;
    };
    // An hour on: later than any read so far, so figured afresh.
    const t0 = new Date(Date.now() + 60 * 60 * 1000);
    const before = await subscriptionFigure(t0);
    expect(before?.cents).toBeGreaterThan(0);
    expect((await teamInsights(teamId, period, t0)).nextCharge).toEqual(before);
    const budget = Number((await listTeamUsers(teamId)).find((u) => u.userId === b.userId)?.budgetCents);
    await setUserFields(b.userId, { nextBudgetCents: budget + 500 });
    try {
      const changed = await subscriptionFigure(t0);
      expect(changed?.cents).toBe((before?.cents ?? 0) + 500);
      // Under 5 minutes old: the estimate kept.
      const soon = new Date(t0.getTime() + NEXT_CHARGE_FRESH_MS - 1);
      expect((await teamInsights(teamId, period, soon)).nextCharge).toEqual(before);
      // 5 minutes old: figured again, the Subscription screen's figure to the cent.
      const later = new Date(t0.getTime() + NEXT_CHARGE_FRESH_MS);
      const again = (await teamInsights(teamId, period, later)).nextCharge;
      expect(again).toEqual(await subscriptionFigure(later));
      expect(again?.cents).toBe((before?.cents ?? 0) + 500);
    } finally {
      await setUserFields(b.userId, {}, ['nextBudgetCents']);
    }
  });
});

describe('the backfill of money that moved before the aggregates were kept', () => {
  it('adds each older entry once, however often it runs, and ends where live aggregation ends', async () => {
    const card = await fundedCard(stack, 5000);
    const auth = authorizationObject({ ...card, amountCents: 1200, merchant: 'Udemy' });
    expect((await deliver(stack.apiUrl, event('issuing_authorization.request', auth))).body.approved).toBe(
      true,
    );
    const captureTxn = transactionObject({
      cardId: card.cardId,
      authorizationId: auth.id,
      amountCents: 1200,
      merchant: 'Udemy',
    });
    expect((await deliver(stack.apiUrl, event('issuing_transaction.created', captureTxn))).status).toBe(200);
    const refundTxn = transactionObject({
      cardId: card.cardId,
      authorizationId: auth.id,
      amountCents: 300,
      type: 'refund',
      merchant: 'Udemy',
    });
    expect((await deliver(stack.apiUrl, event('issuing_transaction.created', refundTxn))).status).toBe(200);
    const live = await aggregates(card.teamId);
    expect(live.length).toBeGreaterThan(0);

    // As before issue 26: no aggregate items, no mark on the journal, no month on the purchase.
    for (const item of live)
      await stack.doc.send(
        new DeleteCommand({ TableName: stack.tableName, Key: { pk: item.pk, sk: item.sk } }),
      );
    for (const entry of await teamJournal(card.teamId))
      await stack.doc.send(
        new UpdateCommand({
          TableName: stack.tableName,
          Key: keys.journal(entry.entryId),
          UpdateExpression: 'REMOVE aggregated',
        }),
      );
    await stack.doc.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.purchase(captureTxn.id),
        UpdateExpression: 'REMOVE insightMonth',
      }),
    );
    expect(await aggregates(card.teamId)).toEqual([]);

    // Two runs at once, then another: each entry is added once.
    const added = await Promise.all([backfillTeamInsights(card.teamId), backfillTeamInsights(card.teamId)]);
    expect(added[0] + added[1]).toBe(3); // the funding, the capture, the refund (the hold adds nothing)
    expect(await backfillTeamInsights(card.teamId)).toBe(0);
    expect(await aggregates(card.teamId)).toEqual(live);
    expect((await stack.getItem(keys.purchase(captureTxn.id)))?.insightMonth).toEqual(
      expect.stringMatching(/^\d{4}-\d{2}$/),
    );
    // Every team with billing: nothing left to add anywhere.
    expect((await backfillInsights()).added).toBe(0);
  });
});
