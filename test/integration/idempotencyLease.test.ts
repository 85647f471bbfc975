/**
 * Idempotency-Key claims are leases: a request that dies after claiming its key
 * (a Lambda timeout) must not lock the key for 24 hours, or the manager retries
 * under a new key and pays twice. Real handlers, DynamoDB Local and the Stripe
 * emulator; the dead request is played by writing its claim directly, or
 * (attack 14) by failing the write of its answer after its money moved.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '@shared/api/routes';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { hashBody, IDEMPOTENCY_LEASE_MS } from '../../lambdas/src/data/idempotency';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { api, inviteAndRegisterEmployee, registerManager, type SignedIn } from '../support/accountFlows';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { holdClock, releaseClock } from '../support/productClock';
import { ADDRESS, emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';
import { failOnce, loseAnswerOf } from '../support/transactionFaults';

let stack: IntegrationStack;
let stripe: Stripe;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
});
afterAll(async () => {
  await stack?.stop();
});

function deposit(manager: SignedIn, body: unknown, key: string) {
  return api(stack.apiUrl, 'POST', '/funds/deposit', {
    token: manager.accessToken,
    body,
    idempotencyKey: key,
  });
}

/** A manager with billing set up and one employee funded with a $25 budget. */
async function team() {
  const { manager, teamId } = await setUpTeam(stack);
  const employee = await joinTeam(stack, manager, 25);
  expect(await balanceOf(cardAccount(employee.userId))).toBe(2500);
  return { manager, employee, teamId };
}

/** The claim a request leaves behind when it dies before storing its answer. */
async function leaveClaim(
  manager: SignedIn,
  key: string,
  body: unknown,
  claim: { leaseUntil?: number; createdAt: Date },
) {
  const scope = `depositFunds#${manager.userId}`;
  await stack.doc.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: {
        ...keys.idempotency(scope, key),
        entity: 'Idempotency',
        bodyHash: hashBody(routes.depositFunds.input.parse(body)),
        state: 'inProgress',
        claimId: randomUUID(),
        ...(claim.leaseUntil !== undefined ? { leaseUntil: claim.leaseUntil } : {}),
        createdAt: claim.createdAt.toISOString(),
        expiresAt: Math.floor(claim.createdAt.getTime() / 1000) + 24 * 3600,
      },
    }),
  );
}

async function chargedAmounts(teamId: string): Promise<number[]> {
  const record = await stack.getItem(keys.team(teamId));
  const charges = await stripe.charges.list({ customer: record?.stripeCustomerId as string });
  return charges.data.map((c) => c.amount).sort((a, b) => a - b);
}

const expired = () => ({
  leaseUntil: Date.now() - 1000,
  createdAt: new Date(Date.now() - IDEMPOTENCY_LEASE_MS - 1000),
});

describe('an Idempotency-Key claimed by a request that died', () => {
  it('after the lease, the same key and body run again and the deposit is charged and credited once', async () => {
    const { manager, employee, teamId } = await team();
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    // The first request charged and credited, then died before storing its answer.
    expect((await deposit(manager, body, key)).status).toBe(200);
    await leaveClaim(manager, key, body, expired());

    const retry = await deposit(manager, body, key);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.results).toEqual([{ userId: employee.userId, status: 'credited' }]);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3500);
    expect(await chargedAmounts(teamId)).toEqual([1000, 2500]);
    // The answer is stored now: a further retry replays it.
    expect(await deposit(manager, body, key)).toEqual(retry);
  });

  it('after the lease, a claim that died before charging is run: charged and credited', async () => {
    const { manager, employee, teamId } = await team();
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    await leaveClaim(manager, key, body, expired());
    const retry = await deposit(manager, body, key);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3500);
    expect(await chargedAmounts(teamId)).toEqual([1000, 2500]);
  });

  it('a claim from before leases existed counts from its creation', async () => {
    const { manager, employee } = await team();
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    await leaveClaim(manager, key, body, { createdAt: new Date(Date.now() - 60_000) });
    expect((await deposit(manager, body, key)).status).toBe(200);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3500);
  });

  it('while the lease runs a retry is refused (409) and nothing is charged; once it has run out, the retry runs', async () => {
    const { manager, employee, teamId } = await team();
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    await leaveClaim(manager, key, body, {
      leaseUntil: Date.now() + IDEMPOTENCY_LEASE_MS,
      createdAt: new Date(),
    });
    const early = await deposit(manager, body, key);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('This request is still being processed.');
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500);
    expect(await chargedAmounts(teamId)).toEqual([2500]);

    await leaveClaim(manager, key, body, expired());
    expect((await deposit(manager, body, key)).status).toBe(200);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3500);
  });

  it('after the lease, the same key with another body is still refused; the same body runs', async () => {
    const { manager, employee, teamId } = await team();
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    await leaveClaim(manager, key, body, expired());
    const other = await deposit(manager, { ...body, amount: '$20' }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe('This Idempotency-Key was already used for a different request.');
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500);
    expect(await chargedAmounts(teamId)).toEqual([2500]);

    expect((await deposit(manager, body, key)).status).toBe(200);
    expect(await chargedAmounts(teamId)).toEqual([1000, 2500]);
  });

  it('two retries racing for the same expired claim: one takes it over, the money moves once', async () => {
    const { manager, employee, teamId } = await team();
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    await leaveClaim(manager, key, body, expired());
    const answers = await Promise.all([deposit(manager, body, key), deposit(manager, body, key)]);
    // The loser is told to wait (409), or replays the winner's answer if it had finished.
    expect(answers.map((a) => a.status)).toContain(200);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3500);
    expect(await chargedAmounts(teamId)).toEqual([1000, 2500]);
  });
});

describe('attack 14: a retried request that had succeeded is answered as it was', () => {
  type Answer = { status: number; body: any };

  /**
   * Sends `call` (a money request under `key`) once and lets it die after its
   * money moved, before its answer was stored; retries it while its lease runs
   * (refused: it may still be running) and after (the product's clock moved
   * past the lease, or `retryAfterMs`): the retry answers what the first run
   * would have, status and body, and a further retry replays that.
   */
  async function dieThenRetry(
    key: string,
    call: () => Promise<Answer>,
    retryAfterMs = IDEMPOTENCY_LEASE_MS + 1000,
  ): Promise<Answer> {
    const at = new Date();
    holdClock(at);
    onTestFinished(releaseClock);
    const lost = loseAnswerOf(key);
    onTestFinished(() => lost.remove());
    const first = await call();
    expect(first.status, JSON.stringify(first.body)).toBe(500);
    expect(lost.answer, 'the request died before storing its answer').toBeDefined();

    const early = await call();
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('This request is still being processed.');

    holdClock(new Date(at.getTime() + retryAfterMs));
    const retry = await call();
    expect(retry.status, JSON.stringify(retry.body)).toBe(lost.answer?.status);
    expect(retry.body).toEqual(lost.answer?.body);
    expect(await call()).toEqual(retry);
    return retry;
  }

  async function teamWithLeaver(leavingBudget: number) {
    const team = await setUpTeam(stack);
    const staying = await joinTeam(stack, team.manager, 25);
    const leaving = await joinTeam(stack, team.manager, leavingBudget);
    const send = sender(stack);
    const removed = await send('POST', '/employees/delete', team.manager.accessToken, {
      userIds: [leaving.userId],
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await balanceOf(poolAccount(team.teamId))).toBe(leavingBudget * 100);
    return { ...team, staying, leaving, send, books: new LedgerInvariants(stack, team.teamId) };
  }

  async function refundsOf(teamId: string): Promise<number[]> {
    const refunds = await stripe.refunds.list({ limit: 100 });
    return refunds.data.filter((r) => r.metadata?.teamId === teamId).map((r) => r.amount);
  }

  it('a reallocation: the same success, not "There is no remaining budget to reallocate"', async () => {
    const { manager, teamId, staying, leaving, send, books } = await teamWithLeaver(40);
    const key = `realloc-${randomUUID()}`;
    const body = { deletedUserIds: [leaving.userId], receiverIds: [staying.userId] };
    const retry = await dieThenRetry(key, () =>
      send('POST', '/funds/reallocate', manager.accessToken, body, key),
    );
    expect(retry.body).toEqual({
      amountCents: 4000,
      shares: [{ userId: staying.userId, amountCents: 4000 }],
    });
    // Moved once.
    expect(await balanceOf(cardAccount(staying.userId))).toBe(2500 + 4000);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    const moves = (await teamJournal(teamId)).filter((e) => e.kind === 'reallocation');
    expect(moves).toHaveLength(1);
    await books.check('after the retried reallocation', [staying.userId, leaving.userId], {
      everyStatement: true,
    });
    // The move is logged once.
    const audit = await send('GET', '/team/audit', manager.accessToken);
    const logged = audit.body.events.filter((e: { action: string }) => e.action === 'funds.reallocated');
    expect(logged).toHaveLength(1);
  });

  it('a redemption: the same amount and fee, refunded once', async () => {
    const { manager, teamId, staying, leaving, send, books } = await teamWithLeaver(40);
    const key = `redeem-${randomUUID()}`;
    const body = { deletedUserIds: [leaving.userId] };
    const retry = await dieThenRetry(key, () =>
      send('POST', '/funds/redeem', manager.accessToken, body, key),
    );
    // $40.00 less 15 % ($6.00).
    expect(retry.body).toEqual({ amountCents: 4000, feeCents: 600 });
    expect(await refundsOf(teamId)).toEqual([3400]);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    await books.check('after the retried redemption', [staying.userId, leaving.userId], {
      everyStatement: true,
    });
  });

  it('a deposit: the same results, charged once, without counting itself against the step-up threshold', async () => {
    const { manager, teamId, customerId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    // Signed in long ago: $300 is under the $500 a day that needs a fresh factor.
    await forgetStepUps(manager.userId);
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: 300 };
    const retry = await dieThenRetry(key, () => deposit(manager, body, key));
    expect(retry.body).toEqual({ results: [{ userId: employee.userId, status: 'credited' }] });
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500 + 30000);
    const charges = await stripe.charges.list({ customer: customerId, limit: 100 });
    expect(charges.data.map((c) => c.amount).sort((a, b) => a - b)).toEqual([2500, 30000]);
    await new LedgerInvariants(stack, teamId).check('after the retried deposit', [employee.userId], {
      everyStatement: true,
    });
  });

  it('closing with the money redeemed, retried after the step-up has gone stale: the same closed subscription, refunded once', async () => {
    const { manager, teamId, staying, leaving, send, books } = await teamWithLeaver(40);
    const key = `close-${randomUUID()}`;
    // Six minutes on, the factor proved before the first run (sign-in) is no longer fresh: the
    // retry finishes the request that proved it, and asks for none.
    const retry = await dieThenRetry(
      key,
      () => send('POST', '/subscription/close', manager.accessToken, { remaining: 'redeem' }, key),
      6 * 60_000,
    );
    expect(retry.body).toMatchObject({
      state: 'closed',
      closing: { choice: 'redeem', amountCents: 6500, feeCents: 975, netCents: 5525 },
    });
    expect((await refundsOf(teamId)).reduce((a, b) => a + b, 0)).toBe(5525);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    await books.check('after the retried close', [staying.userId, leaving.userId], { everyStatement: true });
  });

  it('finishing setup with a member waiting for billing: the same answer, not "already set up"', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    // Joined before billing worked: charged and funded when setup finishes.
    const waiting = await inviteAndRegisterEmployee(stack.apiUrl, manager, 30, { mailbox: stack.mailbox });
    expect(await balanceOf(cardAccount(waiting.userId))).toBe(0);
    const send = sender(stack);
    const key = `setup-${randomUUID()}`;
    const body = { businessName: 'Acme Learning LLC', token: 'tok_visa', billingAddress: ADDRESS };
    const retry = await dieThenRetry(key, () =>
      send('POST', '/billing/setup', manager.accessToken, body, key),
    );
    expect(retry.body).toMatchObject({ status: 'active', invited: 0, funded: 1 });
    expect(await balanceOf(cardAccount(waiting.userId))).toBe(3000);
    const team = await stack.getItem(keys.team(retry.body.teamId));
    const charges = await stripe.charges.list({ customer: team?.stripeCustomerId as string, limit: 100 });
    expect(charges.data.map((c) => c.amount)).toEqual([3000]);
    const customers = await stripe.customers.list({ email: manager.email, limit: 100 });
    expect(customers.data).toHaveLength(1);
    await new LedgerInvariants(stack, retry.body.teamId).check('after the retried setup', [waiting.userId], {
      everyStatement: true,
    });
  });

  it('adding a card: the same cards on file, the card added once', async () => {
    const { manager } = await setUpTeam(stack);
    const url = new URL(stack.stripe?.url as string);
    const browser = new Stripe('pk_test_replay', { host: url.hostname, port: url.port, protocol: 'http' });
    const card = await browser.tokens.create({
      card: { number: '5555555555554444', exp_month: '12', exp_year: '2031', cvc: '123' },
    } as Stripe.TokenCreateParams);
    const key = `addcard-${card.id}`;
    const send = sender(stack);
    const retry = await dieThenRetry(
      key,
      () => send('POST', '/billing/cards', manager.accessToken, { token: card.id }, key),
      6 * 60_000,
    );
    expect(retry.body.cards.map((c: { last4: string }) => c.last4).sort()).toEqual(['4242', '4444']);
  });

  it('a reallocation that failed after moving the money: its retry at once finishes it, logged once', async () => {
    const { manager, teamId, staying, leaving, send, books } = await teamWithLeaver(40);
    const key = `realloc-${randomUUID()}`;
    const body = { deletedUserIds: [leaving.userId], receiverIds: [staying.userId] };
    // The money moves, then writing the move to the activity log times out.
    failOnce('PutItemCommand', (input) => {
      const item = input.Item as { pk?: unknown; sk?: unknown } | undefined;
      return item?.pk === `TEAM#${teamId}` && String(item?.sk).startsWith('AUDIT#');
    });
    const failed = await send('POST', '/funds/reallocate', manager.accessToken, body, key);
    expect(failed.status, JSON.stringify(failed.body)).toBe(500);
    expect(await balanceOf(cardAccount(staying.userId))).toBe(2500 + 4000);

    // No lease to wait for: the failed run gave its claim up, and kept what it decided.
    const retry = await send('POST', '/funds/reallocate', manager.accessToken, body, key);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toEqual({
      amountCents: 4000,
      shares: [{ userId: staying.userId, amountCents: 4000 }],
    });
    expect(await balanceOf(cardAccount(staying.userId))).toBe(2500 + 4000);
    await books.check('after the finished reallocation', [staying.userId, leaving.userId], {
      everyStatement: true,
    });
    const audit = await send('GET', '/team/audit', manager.accessToken);
    const logged = audit.body.events.filter((e: { action: string }) => e.action === 'funds.reallocated');
    expect(logged).toHaveLength(1);
  });
});
