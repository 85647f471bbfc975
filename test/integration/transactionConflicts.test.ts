/**
 * Issue 12: a ledger transaction DynamoDB cancels for a TransactionConflict is
 * sent again after a jittered wait, a bounded number of times, and counted.
 * DynamoDB Local never conflicts (it runs transactions one at a time), so the
 * cancellations are injected into the data layer's real SDK client
 * (test/support/transactionFaults.ts); everything else is DynamoDB Local and
 * the real services and webhook handler.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  authorizationHold,
  cardAccount,
  externalAccount,
  funding,
  holdAccount,
  networkAccount,
} from '@shared/domain/ledger';
import { limitDay } from '@shared/domain/moneyLimits';
import { metricNames } from '@shared/observability';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamRecord } from '../../lambdas/src/data/accounts';
import { putCard } from '../../lambdas/src/data/cards';
import { keys } from '../../lambdas/src/data/keys';
import {
  balanceOf,
  getJournal,
  InsufficientFunds,
  post,
  statement,
  teamJournal,
} from '../../lambdas/src/data/ledger';
import { usedToday } from '../../lambdas/src/data/moneyLimits';
import {
  CONFLICT_RETRIES,
  onTransactionConflict,
  type TransactionConflict,
  transactionConflictCounts,
} from '../../lambdas/src/data/transactions';
import { reserveWithinLimit, settleWithinLimit } from '../../lambdas/src/services/money';
import {
  inviteAndRegisterEmployee,
  PASSWORD,
  registerManager,
  signIn,
  uniqueEmail,
} from '../support/accountFlows';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { authorizationObject, deliver, event, transactionObject } from '../support/stripeEvents';
import { injectTransactionFaults, type TransactionFaults } from '../support/transactionFaults';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

// Each test sees the conflicts the ledger reports, the EMF lines written, and removes its faults.
let conflicts: TransactionConflict[];
let stopListening: () => void;
let faults: TransactionFaults | undefined;
let emfLines: Record<string, unknown>[];
beforeEach(() => {
  conflicts = [];
  stopListening = onTransactionConflict((c) => conflicts.push(c));
  emfLines = [];
  const keep = (chunk: unknown) => {
    for (const line of String(chunk).split('\n')) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed._aws) emfLines.push(parsed);
    }
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});
afterEach(() => {
  faults?.remove();
  faults = undefined;
  stopListening();
  vi.restoreAllMocks();
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
});

/** The retries counted in the EMF lines written (one value, or an array of them, per line). */
function retriesInMetrics(): number {
  return emfLines
    .flatMap((line) => [line[metricNames.transactionConflictRetry] ?? []].flat())
    .reduce((sum: number, value) => sum + Number(value), 0);
}

/** ledger.ts: full jitter, below min(250 ms, 10 ms x 2^(attempt - 1)). */
function expectDelayWithinBounds(conflict: TransactionConflict) {
  expect(conflict.delayMs).toBeGreaterThanOrEqual(0);
  expect(conflict.delayMs).toBeLessThan(Math.min(250, 10 * 2 ** (conflict.attempt - 1)));
}

function newTeam() {
  return { teamId: `t-${randomUUID()}`, userId: `u-${randomUUID()}` };
}

function join(team: { teamId: string; userId: string }, cents: number) {
  return funding({
    entryId: `JOIN#${team.userId}`,
    ...team,
    amountCents: cents,
    description: 'Budget',
    chargeId: 'ch_conflict',
  });
}

describe('a ledger posting that meets conflicts', () => {
  it('meets 2 conflicts, is sent again after jittered waits, lands once and is counted twice', async () => {
    const team = newTeam();
    const before = transactionConflictCounts();
    faults = injectTransactionFaults(2);

    expect(await post(join(team, 2500))).toEqual({ status: 'posted' });

    expect(faults.calls).toBe(3);
    // 7 items: the journal, two per leg, and the insights month and NOW items (issue 26).
    expect(conflicts.map((c) => [c.attempt, c.gaveUp, c.items])).toEqual([
      [1, false, 7],
      [2, false, 7],
    ]);
    for (const conflict of conflicts) expectDelayWithinBounds(conflict);
    const after = transactionConflictCounts();
    expect(after.conflicts - before.conflicts).toBe(2);
    expect(after.retries - before.retries).toBe(2);
    expect(after.gaveUp - before.gaveUp).toBe(0);
    expect(retriesInMetrics()).toBe(2);

    expect(await balanceOf(cardAccount(team.userId))).toBe(2500);
    expect(await balanceOf(externalAccount(team.teamId))).toBe(-2500);
    expect((await teamJournal(team.teamId)).map((e) => e.entryId)).toEqual([`JOIN#${team.userId}`]);
    expect((await statement(cardAccount(team.userId))).map((l) => l.amountCents)).toEqual([2500]);
    await new LedgerInvariants(stack, team.teamId).check('after 2 conflicts', [team.userId], {
      everyStatement: true,
    });
  });

  it(`gives up after ${CONFLICT_RETRIES + 1} conflicts: the caller gets DynamoDB's error and nothing is written`, async () => {
    const team = newTeam();
    await post(join(team, 2500));
    const before = transactionConflictCounts();
    faults = injectTransactionFaults(CONFLICT_RETRIES + 1);
    const hold = authorizationHold({
      authorizationId: `iauth_${randomUUID()}`,
      ...team,
      amountCents: 700,
      merchant: 'M',
    });

    const error = await post(hold).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('TransactionCanceledException');
    expect((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.[0]?.Code).toBe(
      'TransactionConflict',
    );
    expect(faults.calls).toBe(CONFLICT_RETRIES + 1);
    expect(conflicts.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5].slice(0, CONFLICT_RETRIES + 1));
    expect(conflicts.filter((c) => c.gaveUp)).toEqual([
      { attempt: CONFLICT_RETRIES + 1, gaveUp: true, delayMs: 0, items: 5 },
    ]);
    for (const conflict of conflicts.filter((c) => !c.gaveUp)) expectDelayWithinBounds(conflict);
    const after = transactionConflictCounts();
    expect(after.conflicts - before.conflicts).toBe(CONFLICT_RETRIES + 1);
    expect(after.retries - before.retries).toBe(CONFLICT_RETRIES);
    expect(after.gaveUp - before.gaveUp).toBe(1);
    expect(retriesInMetrics()).toBe(CONFLICT_RETRIES);

    expect(await balanceOf(cardAccount(team.userId))).toBe(2500);
    expect(await balanceOf(holdAccount(team.userId))).toBe(0);
    expect(await getJournal(hold.entryId)).toBeUndefined();
    expect(await statement(holdAccount(team.userId))).toEqual([]);
    await new LedgerInvariants(stack, team.teamId).check('after giving up', [team.userId], {
      everyStatement: true,
    });
  });
});

describe('a cancellation for a failed condition is an answer, never retried', () => {
  it('a duplicate entry id: one attempt, reported as a duplicate, nothing written twice', async () => {
    const team = newTeam();
    await post(join(team, 2500));
    faults = injectTransactionFaults(0); // counts the calls, cancels none

    expect(await post(join(team, 2500))).toEqual({ status: 'duplicate' });

    expect(faults.calls).toBe(1);
    expect(conflicts).toEqual([]);
    expect(retriesInMetrics()).toBe(0);
    expect(await balanceOf(cardAccount(team.userId))).toBe(2500);
  });

  it('no funds: one attempt, InsufficientFunds naming the card', async () => {
    const team = newTeam();
    await post(join(team, 500));
    faults = injectTransactionFaults(0);
    const hold = authorizationHold({
      authorizationId: `iauth_${randomUUID()}`,
      ...team,
      amountCents: 700,
      merchant: 'M',
    });

    const error = await post(hold).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InsufficientFunds);
    expect((error as InsufficientFunds).account).toBe(cardAccount(team.userId));
    expect(faults.calls).toBe(1);
    expect(conflicts).toEqual([]);
    expect(await balanceOf(cardAccount(team.userId))).toBe(500);
  });

  it('a conflict on one item and a failed condition on another: one attempt, the condition wins', async () => {
    const team = newTeam();
    await post(join(team, 2500));
    // The journal item's condition failed (a duplicate) while another item conflicted.
    faults = injectTransactionFaults(1, (items) =>
      Array.from({ length: items }, (_, i) =>
        i === 0 ? 'ConditionalCheckFailed' : i === 1 ? 'TransactionConflict' : 'None',
      ),
    );

    expect(await post(join(team, 2500))).toEqual({ status: 'duplicate' });

    expect(faults.calls).toBe(1);
    expect(conflicts).toEqual([]);
    expect(await balanceOf(cardAccount(team.userId))).toBe(2500);
  });
});

/** An employee's funded card with an approved authorization of 1,200 cents, through the real webhook. */
async function authorizedCard() {
  const team = newTeam();
  const cardId = `ic_${randomUUID().replace(/-/g, '')}`;
  await stack.doc.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: {
        ...keys.user(team.userId),
        entity: 'User',
        ...team,
        role: 'employee',
        status: 'active',
        email: `${team.userId}@example.com`,
        firstName: 'C',
        lastName: 'F',
        emailVerified: true,
        finishedWalkthrough: false,
        createdAt: new Date().toISOString(),
      },
    }),
  );
  await putCard({
    cardId,
    cardholderId: 'ich_conflict',
    ...team,
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
    status: 'active',
    lifetimeLimitCents: 5000,
    createdAt: new Date().toISOString(),
  });
  await post(join(team, 5000));
  const auth = authorizationObject({ cardId, userId: team.userId, amountCents: 1200 });
  expect((await deliver(stack.apiUrl, event('issuing_authorization.request', auth))).body.approved).toBe(
    true,
  );
  return { team, cardId, auth };
}

describe('a webhook delivery that meets a conflict', () => {
  it('a signed capture meets 1 conflict: the answer is 200, the capture is posted once and the retry counted', async () => {
    const { team, cardId, auth } = await authorizedCard();
    const capture = transactionObject({ cardId, authorizationId: auth.id, amountCents: 1200 });
    const before = transactionConflictCounts();
    faults = injectTransactionFaults(1);

    const answer = await deliver(stack.apiUrl, event('issuing_transaction.created', capture));

    expect(answer.status).toBe(200);
    expect(conflicts.map((c) => [c.attempt, c.gaveUp])).toEqual([[1, false]]);
    expectDelayWithinBounds(conflicts[0] as TransactionConflict);
    expect(transactionConflictCounts().retries - before.retries).toBe(1);
    expect(retriesInMetrics()).toBe(1);

    expect(await balanceOf(networkAccount(team.teamId))).toBe(1200);
    expect(await balanceOf(holdAccount(team.userId))).toBe(0);
    expect(await balanceOf(cardAccount(team.userId))).toBe(3800);
    const captures = (await teamJournal(team.teamId)).filter((e) => e.kind === 'capture');
    expect(captures.map((e) => e.entryId)).toEqual([`CAPTURE#${capture.id}`]);
    expect(await stack.getItem(keys.purchase(capture.id))).toMatchObject({ amountCents: 1200 });
    await new LedgerInvariants(stack, team.teamId).check('after the capture', [team.userId], {
      everyStatement: true,
    });
  });

  it('a signed capture that gives up answers 500 and writes nothing; Stripe’s redelivery posts it once', async () => {
    const { team, cardId, auth } = await authorizedCard();
    const capture = event(
      'issuing_transaction.created',
      transactionObject({ cardId, authorizationId: auth.id, amountCents: 1200 }),
    );
    faults = injectTransactionFaults(CONFLICT_RETRIES + 1);

    expect((await deliver(stack.apiUrl, capture)).status).toBe(500);
    expect(conflicts.filter((c) => c.gaveUp)).toHaveLength(1);
    expect(await balanceOf(networkAccount(team.teamId))).toBe(0);
    expect(await balanceOf(holdAccount(team.userId))).toBe(1200);
    expect(await stack.getItem(keys.purchase(capture.data.object.id))).toBeUndefined();
    faults.remove();

    expect((await deliver(stack.apiUrl, capture)).status).toBe(200);
    expect(await balanceOf(networkAccount(team.teamId))).toBe(1200);
    expect(await balanceOf(holdAccount(team.userId))).toBe(0);
    expect((await teamJournal(team.teamId)).filter((e) => e.kind === 'capture')).toHaveLength(1);
    await new LedgerInvariants(stack, team.teamId).check('after the redelivery', [team.userId], {
      everyStatement: true,
    });
  });
});

describe('the per-team day counter of the money limits', () => {
  it('a reservation and its settlement each meet 1 conflict: both land once and are counted', async () => {
    const team = { teamId: `t-${randomUUID()}` } as TeamRecord;
    const now = new Date();
    faults = injectTransactionFaults(1);

    const reservationId = await reserveWithinLimit(team, 'deposit', `dep-${randomUUID()}`, 30_000, now);

    expect(faults.calls).toBe(2);
    expect(await usedToday(team.teamId, 'deposit', limitDay(now))).toBe(30_000);
    faults.remove();
    faults = injectTransactionFaults(1);

    await settleWithinLimit(team, 'deposit', reservationId, 10_000);

    expect(faults.calls).toBe(2);
    expect(await usedToday(team.teamId, 'deposit', limitDay(now))).toBe(10_000);
    expect(conflicts.map((c) => [c.attempt, c.gaveUp, c.items])).toEqual([
      [1, false, 2],
      [1, false, 2],
    ]);
    expect(retriesInMetrics()).toBe(2);
  });
});

describe('sign-ups', () => {
  const manager = (email: string) => ({
    firstName: 'Mary',
    lastName: 'Manager',
    email,
    password: PASSWORD,
    company: 'Acme Learning',
  });

  it('a manager sign-up that meets 2 conflicts is retried and creates the account once', async () => {
    const email = uniqueEmail('conflicted');
    faults = injectTransactionFaults(2);
    const answer = await postJson(`${stack.apiUrl}/auth/registerManager`, manager(email));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(faults.cancelled).toBe(2);
    expect(conflicts.map((c) => [c.attempt, c.gaveUp])).toEqual([
      [1, false],
      [2, false],
    ]);
    faults.remove();
    faults = undefined;
    // The account works, and is the only one for the address.
    expect((await signIn(stack.apiUrl, email)).status).toBe(200);
    const again = await postJson(`${stack.apiUrl}/auth/registerManager`, manager(email));
    expect(again.status).toBe(409);
  });

  it('a taken address (a failed condition) is answered at once, never retried', async () => {
    const email = uniqueEmail('taken');
    faults = injectTransactionFaults(1, (items) =>
      Array.from({ length: items }, (_, i) => (i === 0 ? 'ConditionalCheckFailed' : 'None')),
    );
    const answer = await postJson(`${stack.apiUrl}/auth/registerManager`, manager(email));
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toBe('An account with this email already exists. Please sign in.');
    expect(faults.calls).toBe(1);
    expect(conflicts).toEqual([]);
  });

  it('an employee sign-up that meets a conflict still consumes the invitation and joins', async () => {
    const boss = await registerManager(stack.apiUrl, stack.mailbox);
    faults = injectTransactionFaults(1);
    const employee = await inviteAndRegisterEmployee(stack.apiUrl, boss);
    expect(faults.cancelled).toBe(1);
    expect(conflicts).toHaveLength(1);
    expect(await stack.getItem(keys.invitation(employee.email))).toBeUndefined();
    expect((await stack.getItem(keys.user(employee.userId)))?.teamId).toBeDefined();
  });
});
