/**
 * Idempotency-Key claims are leases: a request that dies after claiming its key
 * (a Lambda timeout) must not lock the key for 24 hours, or the manager retries
 * under a new key and pays twice. Real handlers, DynamoDB Local and the Stripe
 * emulator; the dead request is played by writing its claim directly.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '@shared/api/routes';
import { cardAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashBody, IDEMPOTENCY_LEASE_MS } from '../../lambdas/src/data/idempotency';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf } from '../../lambdas/src/data/ledger';
import { api, type SignedIn } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, setUpTeam } from '../support/teams';

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
