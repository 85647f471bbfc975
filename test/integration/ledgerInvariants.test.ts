/**
 * The invariant checker the scenario tests lean on (test/support/ledgerInvariants.ts)
 * must itself fail on broken books: each case here posts real entries on
 * DynamoDB Local, breaks one invariant of docs/ledger.md behind the ledger's
 * back, and expects the check to name it.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { authorizationHold, funding, type Posting } from '@shared/domain/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { post, postingItems } from '../../lambdas/src/data/ledger';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** A team with one person, funded $25, who then held $10 for a purchase; checked once while whole. */
async function books() {
  const teamId = `team-${randomUUID()}`;
  const userId = `user-${randomUUID()}`;
  const fund = funding({
    entryId: `FUNDING#${teamId}#${userId}`,
    teamId,
    userId,
    amountCents: 2500,
    description: 'Budget',
    chargeId: `ch_${randomUUID()}`,
  });
  const hold = authorizationHold({
    authorizationId: `iauth_${randomUUID()}`,
    teamId,
    userId,
    amountCents: 1000,
    merchant: 'Powell’s Books',
  });
  expect(await post(fund)).toEqual({ status: 'posted' });
  expect(await post(hold)).toEqual({ status: 'posted' });
  const invariants = new LedgerInvariants(stack, teamId);
  const totals = await invariants.check('whole', [userId]);
  expect(totals).toMatchObject({ charged: 2500, internal: 2500, redeemed: 0, fees: 0, spent: 0, debt: 0 });
  return {
    teamId,
    userId,
    fund,
    hold,
    check: () => invariants.check('broken', [userId], { everyStatement: true }),
  };
}

const table = () => stack.tableName;

describe('the ledger invariant checker', () => {
  it('fails when a balance moved without an entry (5)', async () => {
    const { userId, check } = await books();
    await stack.doc.send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.account(`card:${userId}`),
        UpdateExpression: 'ADD balanceCents :x',
        ExpressionAttributeValues: { ':x': 100 },
      }),
    );
    await expect(check()).rejects.toThrow(`card:${userId} holds 1600, its journal legs sum to 1500`);
  });

  it('fails when a journal entry is edited or deleted (4)', async () => {
    const edited = await books();
    await stack.doc.send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.journal(edited.fund.entryId),
        UpdateExpression: 'SET description = :d',
        ExpressionAttributeValues: { ':d': 'Something else' },
      }),
    );
    await expect(edited.check()).rejects.toThrow(`entry ${edited.fund.entryId} changed`);

    const deleted = await books();
    await stack.doc.send(new DeleteCommand({ TableName: table(), Key: keys.journal(deleted.hold.entryId) }));
    await expect(deleted.check()).rejects.toThrow(`entry ${deleted.hold.entryId} disappeared`);
  });

  it('fails when a statement line is missing (5, entry items)', async () => {
    const { userId, check } = await books();
    const lines = await stack.doc.send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
        ExpressionAttributeValues: { ':pk': keys.account(`hold:${userId}`).pk, ':entry': 'ENTRY#' },
      }),
    );
    const line = lines.Items?.[0] as { pk: string; sk: string };
    await stack.doc.send(new DeleteCommand({ TableName: table(), Key: { pk: line.pk, sk: line.sk } }));
    await expect(check()).rejects.toThrow(`hold:${userId} has 0 entry items for 1 legs`);
  });

  it('fails when a posting names another team’s person (7)', async () => {
    const { teamId, check } = await books();
    const stranger = `user-${randomUUID()}`;
    await post(
      funding({
        entryId: `FUNDING#${teamId}#${stranger}`,
        teamId,
        userId: stranger,
        amountCents: 500,
        description: 'Budget',
        chargeId: `ch_${randomUUID()}`,
      }),
    );
    await expect(check()).rejects.toThrow(`names card:${stranger}, not an account of the team`);
  });

  it('fails when an internal account went below zero, even with entries to match (2)', async () => {
    const { teamId, userId, check } = await books();
    const overdraft: Posting = authorizationHold({
      authorizationId: `iauth_${randomUUID()}`,
      teamId,
      userId,
      amountCents: 9000,
      merchant: 'Powell’s Books',
    });
    // The ledger's own conditions refuse this; written without them, as a bug would.
    const items = postingItems(overdraft, new Date().toISOString()).map((item) => {
      if (!item.Update) return item;
      const { ConditionExpression: _dropped, ...update } = item.Update;
      const { ':needed': _n, ':ceiling': _c, ...values } = update.ExpressionAttributeValues ?? {};
      return { Update: { ...update, ExpressionAttributeValues: values } };
    });
    await stack.doc.send(new TransactWriteCommand({ TransactItems: items }));
    await expect(check()).rejects.toThrow(`card:${userId} is -7500`);
  });
});
