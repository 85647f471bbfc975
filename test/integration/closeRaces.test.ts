/**
 * Closing the subscription while a removed person's pooled money is being
 * redeemed or reallocated (issue 24, attack 5). Closing redeems the whole
 * team pool; redemption and reallocation take one removed person's share of
 * it under their pool claim. Started together, they must still move each
 * dollar once: every Stripe refund is on a ledger entry, the refunds never
 * exceed what was pooled, and every ledger invariant holds. The request that
 * loses answers 409 and moves nothing. Real handlers, DynamoDB Local and the
 * Stripe emulator; each round is a new team. A third of the redemption
 * rounds race as they come; in another the network holds the redemption's
 * first refund until closing refunds (or answers), the order in which, before
 * the fix, both refunded the same money from the same pool; in the last the
 * redemption is under way (claim open, a refund slow at Stripe) when closing
 * starts. Claims left open by a crash, and a close cut off while finishing
 * them, are finished once by the close and its retry.
 */
import { randomUUID } from 'node:crypto';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, getJournal } from '../../lambdas/src/data/ledger';
import { openPoolClaim } from '../../lambdas/src/data/poolClaims';
import { differencesOfMonth } from '../../lambdas/src/data/reconciliation';
import { createLogger } from '../../lambdas/src/platform/log';
import { monthOfDate } from '../../lambdas/src/services/billing';
import { pooledFrom } from '../../lambdas/src/services/money';
import { runReconciliation } from '../../lambdas/src/services/reconciliation';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { type FaultProxy, refundsFor, startFaultProxy } from '../support/stripeFaultProxy';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;
let proxy: FaultProxy;
const log = createLogger({ test: 'closeRaces' });

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  // The test's own client talks to the emulator directly, never through the proxy.
  stripe = emulatorClient(stack);
  send = sender(stack);
  proxy = await startFaultProxy(stack.stripe?.url as string);
  // The product reads its Stripe configuration on first use, which is after this.
  process.env.STRIPE_API_URL = proxy.url;
});
afterEach(() => proxy?.clear());
afterAll(async () => {
  await proxy?.stop();
  await stack?.stop();
});

/** Rounds per pair, each a new team; which request is sent first alternates. */
const ROUNDS = 9;

/** What a request that lost the race to closing answers: it moved nothing. */
const LOST = [
  /^Your subscription is being closed right now/,
  /^Your team's subscription is closed: its records can be read, but nothing can be changed\.$/,
];

type Response = { status: number; body: any };
type Team = Awaited<ReturnType<typeof teamWithPooledMoney>>;

/**
 * A team whose card paid $40.00 for `leaving` (then removed: their money
 * waits in the pool) and $100.00 for `staying`, who spent $70.00 of it at a
 * bookshop. $70.00 is left ($40.00 pooled, $30.00 on a card), and the newest
 * charge alone could take back more than that: Stripe would not stop a second
 * refund of the same money.
 */
async function teamWithPooledMoney() {
  const team = await setUpTeam(stack);
  const leaving = await joinTeam(stack, team.manager, 40);
  const staying = await joinTeam(stack, team.manager, 100);
  expect((await payWithCard(stack, staying.cardId, 7000))?.approved).toBe(true);
  expect(await balanceOf(cardAccount(staying.userId))).toBe(3000);
  const removed = await send('POST', '/employees/delete', team.manager.accessToken, {
    userIds: [leaving.userId],
  });
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  expect(await balanceOf(poolAccount(team.teamId))).toBe(4000);
  return { ...team, leaving, staying, books: new LedgerInvariants(stack, team.teamId) };
}

const close = (manager: SignedIn, key: string) =>
  send('POST', '/subscription/close', manager.accessToken, { remaining: 'redeem' }, key);

/** Both requests started in the same tick; `closeFirst` says which is sent first. */
async function race(closeFirst: boolean, closing: () => Promise<Response>, other: () => Promise<Response>) {
  if (closeFirst) {
    const [closed, answer] = await Promise.all([closing(), other()]);
    return { closed, other: answer };
  }
  const [answer, closed] = await Promise.all([other(), closing()]);
  return { closed, other: answer };
}

/**
 * Every refund Stripe made on the team's charges is listed, with its id and
 * amount, on the ledger entry its purpose names; no charge is refunded beyond
 * what it took; the refunds add up to what the ledger says was redeemed,
 * which never exceeds what was left for the team's people.
 */
async function expectEveryRefundOnItsEntry(
  team: Team,
  label: string,
  people = [team.leaving.userId, team.staying.userId],
  leftCents = 7000,
) {
  const totals = await team.books.check(label, people, { everyStatement: true });
  const charges = (await stripe.charges.list({ customer: team.customerId, limit: 100 })).data.filter(
    (c) => c.status === 'succeeded',
  );
  let refunded = 0;
  for (const charge of charges) {
    expect(charge.amount_refunded, charge.id).toBeLessThanOrEqual(charge.amount);
    const refunds = (await stripe.refunds.list({ charge: charge.id, limit: 100 })).data.filter(
      (r) => r.status !== 'failed' && r.status !== 'canceled',
    );
    for (const r of refunds) {
      const purpose = String(r.metadata?.purpose);
      expect(purpose.endsWith(`#${charge.id}`), purpose).toBe(true);
      const entry = await getJournal(purpose.slice(0, -(charge.id.length + 1)));
      expect(
        entry?.refunds ?? [],
        `${label}: refund ${r.id} (${purpose}) is on no ledger entry`,
      ).toContainEqual({
        chargeId: charge.id,
        refundId: r.id,
        amountCents: r.amount,
      });
      refunded += r.amount;
    }
  }
  expect(refunded, label).toBe(totals.redeemed);
  // What was left ($70.00) came back less the fees, never more.
  expect(totals.redeemed + totals.fees, label).toBeLessThanOrEqual(leftCents);
  return totals;
}

/** After the race and the close it ended with: the $70.00 left the team exactly once. */
async function expectBooksClosed(team: Team, label: string): Promise<void> {
  const totals = await expectEveryRefundOnItsEntry(team, label);
  expect(totals).toMatchObject({ charged: 14_000, spent: 7000, internal: 0 });
  expect(totals.redeemed + totals.fees).toBe(7000);
  expect(await balanceOf(poolAccount(team.teamId))).toBe(0);
  for (const person of [team.leaving, team.staying])
    expect(await balanceOf(cardAccount(person.userId))).toBe(0);
  expect(await stack.getItem(keys.team(team.teamId))).toMatchObject({
    subscription: 'closed',
    closing: { status: 'done' },
  });
}

/** 200, or the 409 of a request that lost to closing. True when it won. */
function wonOrLost(res: Response, label: string): boolean {
  if (res.status === 200) return true;
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(409);
  const message = String(res.body?.error?.message);
  expect(
    LOST.some((m) => m.test(message)),
    `${label} lost with an unexpected message: ${message}`,
  ).toBe(true);
  return false;
}

const teamIds: string[] = [];

describe('attack 5: closing and redeeming (or reallocating) started together move the money once', () => {
  it(`close and redeem, ${ROUNDS} rounds: every refund has its entry, refunds never exceed the pool`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const label = `round ${round}, close and redeem`;
      const team = await teamWithPooledMoney();
      teamIds.push(team.teamId);
      const key = `close-${randomUUID()}`;
      const redeem = () =>
        send(
          'POST',
          '/funds/redeem',
          team.manager.accessToken,
          { deletedUserIds: [team.leaving.userId] },
          `x-${randomUUID()}`,
        );
      let answered: () => void = () => undefined;
      const closeAnswered = new Promise<void>((resolve) => {
        answered = resolve;
      });
      const closing = () => close(team.manager, key).finally(answered);
      const redeemRefund = refundsFor(`REDEEM#${team.leaving.userId}#`);
      let raced: { closed: Response; other: Response };
      const kind = round % 3;
      if (kind === 2) {
        // The redemption is under way (its claim open, its first refund slow at Stripe) when closing starts.
        proxy.hold({ match: redeemRefund, until: closeAnswered });
        const redeeming = redeem();
        await Promise.race([proxy.waitFor(redeemRefund), redeeming]);
        const closed = await closing();
        raced = { closed, other: await redeeming };
      } else {
        // As they come; or the redemption's first refund waits until closing refunds or answers (or,
        // when closing sent it first, finishing the redemption's claim, until the redemption sends it too).
        if (kind === 1)
          proxy.hold({
            match: redeemRefund,
            until: Promise.race([
              proxy.waitFor(refundsFor(`CLOSE#${team.teamId}#`)),
              proxy.waitFor(redeemRefund, 2),
              closeAnswered,
            ]),
          });
        raced = await race(round % 2 === 0, closing, redeem);
      }
      proxy.clear();
      // The money first: whatever either answered, nothing was refunded twice or off the books.
      await expectEveryRefundOnItsEntry(team, `${label}, as they answered`);

      const redeemed = wonOrLost(raced.other, `${label}: redeem`);
      // Under way before closing started: its claim was open, so it finishes (closing finishes it too).
      if (kind === 2) expect(redeemed, label).toBe(true);
      expect(raced.closed.status, `${label}: close ${JSON.stringify(raced.closed.body)}`).toBe(200);
      if (redeemed) {
        // The person's $40.00 came back less its fee; closing redeemed the rest ($30.00) with its own.
        expect(raced.other.body).toEqual({ amountCents: 4000, feeCents: 600 });
        expect(raced.closed.body.closing).toEqual({
          choice: 'redeem',
          amountCents: 3000,
          feeCents: 500,
          netCents: 2500,
        });
      } else {
        expect(raced.closed.body.closing).toEqual({
          choice: 'redeem',
          amountCents: 7000,
          feeCents: 1050,
          netCents: 5950,
        });
      }
      await expectBooksClosed(team, label);
    }
  });

  it(`close and reallocate, ${ROUNDS} rounds: what was reallocated is closed with the rest, once`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const label = `round ${round}, close and reallocate`;
      const team = await teamWithPooledMoney();
      teamIds.push(team.teamId);
      const key = `close-${randomUUID()}`;
      const raced = await race(
        round % 2 === 0,
        () => close(team.manager, key),
        () =>
          send(
            'POST',
            '/funds/reallocate',
            team.manager.accessToken,
            { deletedUserIds: [team.leaving.userId], receiverIds: [team.staying.userId] },
            `r-${randomUUID()}`,
          ),
      );
      await expectEveryRefundOnItsEntry(team, `${label}, as they answered`);

      if (wonOrLost(raced.other, `${label}: reallocate`)) expect(raced.other.body.amountCents).toBe(4000);
      expect(raced.closed.status, `${label}: close ${JSON.stringify(raced.closed.body)}`).toBe(200);
      // Reallocated or not, the $70.00 was in the pool or on a card when the team closed: one redemption.
      expect(raced.closed.body.closing).toEqual({
        choice: 'redeem',
        amountCents: 7000,
        feeCents: 1050,
        netCents: 5950,
      });
      await expectBooksClosed(team, label);
    }
  });

  it('claims left open by a crash are finished by closing; a close cut off while finishing them is resumed by its retry', async () => {
    const team = await teamWithPooledMoney();
    teamIds.push(team.teamId);
    const alsoLeaving = await joinTeam(stack, team.manager, 20);
    const removed = await send('POST', '/employees/delete', team.manager.accessToken, {
      userIds: [alsoLeaving.userId],
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const people = [team.leaving.userId, team.staying.userId, alsoLeaving.userId];

    // A redemption whose refund Stripe never saw (an outage): its claim stays open, nothing refunded.
    const redeemRefund = refundsFor(`REDEEM#${team.leaving.userId}#`);
    proxy.fail({ when: 'before', match: redeemRefund });
    const redeemKey = `x-${randomUUID()}`;
    const body = { deletedUserIds: [team.leaving.userId] };
    const cut = await send('POST', '/funds/redeem', team.manager.accessToken, body, redeemKey);
    expect(cut.status).toBe(500);
    proxy.clear();
    expect(await stack.getItem(keys.poolClaim(team.leaving.userId))).toMatchObject({
      status: 'open',
      plan: { op: 'redeem', feeCents: 600 },
    });
    // A reallocation that opened its claim (all to `staying`) and died before posting.
    const { stateId } = await pooledFrom(team.teamId, alsoLeaving.userId);
    await openPoolClaim({
      userId: alsoLeaving.userId,
      teamId: team.teamId,
      stateId: stateId as string,
      amountCents: 2000,
      plan: { op: 'reallocate', shares: [{ userId: team.staying.userId, amountCents: 2000 }] },
      openedAt: new Date().toISOString(),
    });
    expect(await stack.getItem(keys.poolClaim(alsoLeaving.userId))).toMatchObject({ status: 'open' });

    // Closing finishes the redemption first: Stripe makes its refund, and the answer is lost.
    proxy.fail({ when: 'after', match: redeemRefund });
    const key = `close-${randomUUID()}`;
    const cutOff = await close(team.manager, key);
    expect(cutOff.status).toBe(500);
    proxy.clear();
    // Marked closed: the pool is closing's, nobody else's claim opens now.
    expect(await stack.getItem(keys.team(team.teamId))).toMatchObject({ subscription: 'closed' });
    const redeemAfter = await send(
      'POST',
      '/funds/redeem',
      team.manager.accessToken,
      body,
      `x-${randomUUID()}`,
    );
    expect(redeemAfter.status).toBe(409);

    const retried = await close(team.manager, key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    // The redemption's $40.00 ($34.00 back) and the reallocation's $20.00 went as planned, once;
    // closing redeemed what was left: $30.00 on the card and the $20.00 reallocated to it.
    expect(retried.body.closing).toEqual({
      choice: 'redeem',
      amountCents: 5000,
      feeCents: 750,
      netCents: 4250,
    });
    // One refund per planned part (the newest charges first), made once though two requests sent it.
    const claim = (await stack.getItem(keys.poolClaim(team.leaving.userId))) as {
      plan: { refunds: { chargeId: string; amountCents: number }[] };
    };
    const redeemRefunds = (await stripe.refunds.list({ limit: 100 })).data.filter((r) =>
      String(r.metadata?.purpose).startsWith(`REDEEM#${team.leaving.userId}#`),
    );
    const byCharge = (a: { chargeId: unknown }, b: { chargeId: unknown }) =>
      String(a.chargeId) < String(b.chargeId) ? -1 : 1;
    expect(redeemRefunds.map((r) => ({ chargeId: r.charge, amountCents: r.amount })).sort(byCharge)).toEqual(
      [...claim.plan.refunds].sort(byCharge),
    );
    expect(redeemRefunds.reduce((sum, r) => sum + r.amount, 0)).toBe(3400);
    for (const id of [team.leaving.userId, alsoLeaving.userId])
      expect(await stack.getItem(keys.poolClaim(id))).toMatchObject({ status: 'done' });
    const totals = await team.books.check('after the retried close', people, { everyStatement: true });
    expect(totals).toMatchObject({ charged: 16_000, spent: 7000, internal: 0, fees: 600 + 750 });
    expect(totals.redeemed).toBe(3400 + 4250);
    await expectEveryRefundOnItsEntry(team, 'after the retried close', people, 9000);

    // The redemption's own retry finds the team closed.
    const late = await send('POST', '/funds/redeem', team.manager.accessToken, body, redeemKey);
    expect(late.status).toBe(409);
  });

  it('reconciliation finds every refund of those teams on its redemption', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const summary = await runReconciliation(at, log);
    expect(summary.failed).toBe(0);
    const found = (await differencesOfMonth(monthOfDate(at))).filter((d) =>
      teamIds.includes(String(d.teamId)),
    );
    expect(found).toEqual([]);
  });
});
