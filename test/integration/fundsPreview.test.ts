/**
 * The previews of the Employees screen (POST /funds/reallocate/preview and
 * /funds/redeem/preview): what the manager is shown before confirming is what
 * the ledger then records, to the cent; a preview moves nothing; and a
 * redemption under $5 is refused with the reason, before and at the action.
 */
import { randomUUID } from 'node:crypto';
import { cardAccount, externalAccount, poolAccount } from '@shared/domain/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

/** A team whose removed people hold `leaving` dollars each (in the pool), and `staying` active members. */
async function teamWithRemoved(leaving: number[], staying: number) {
  const team = await setUpTeam(stack);
  const removed = [];
  for (const budget of leaving) removed.push(await joinTeam(stack, team.manager, budget));
  const receivers = [];
  for (let i = 0; i < staying; i++) receivers.push(await joinTeam(stack, team.manager, 25));
  if (removed.length > 0) {
    const res = await send('POST', '/employees/delete', team.manager.accessToken, {
      userIds: removed.map((r) => r.userId),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { ...team, removed, receivers };
}

describe('reallocation preview', () => {
  it('shows each receiver the share the ledger then credits, remainder cents included, and moves nothing', async () => {
    const { manager, teamId, removed, receivers } = await teamWithRemoved([50, 31], 3);
    const token = manager.accessToken;
    const body = {
      deletedUserIds: removed.map((r) => r.userId),
      receiverIds: receivers.map((r) => r.userId),
    };
    const journalBefore = (await teamJournal(teamId)).length;

    const preview = await send('POST', '/funds/reallocate/preview', token, body);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.amountCents).toBe(8100);
    // $50.00 and $31.00 are each split three ways on their own, as they are posted.
    expect(preview.body.shares.map((s: { amountCents: number }) => s.amountCents)).toEqual([
      1667 + 1034,
      1667 + 1033,
      1666 + 1033,
    ]);
    // A preview writes nothing: the pool and the journal are as they were.
    expect(await balanceOf(poolAccount(teamId))).toBe(8100);
    expect((await teamJournal(teamId)).length).toBe(journalBefore);
    // The roster shows the removed people's pooled money as their remaining budget.
    const roster = await send('GET', '/employees', token);
    const rows = new Map(roster.body.employees.map((e: { userId: string }) => [e.userId, e]));
    expect(rows.get(removed[0]?.userId as string)).toMatchObject({
      status: 'deleted',
      remainingBudgetCents: 5000,
    });
    expect(rows.get(receivers[0]?.userId as string)).toMatchObject({ cardId: receivers[0]?.cardId });

    const moved = await send('POST', '/funds/reallocate', token, body, `r-${randomUUID()}`);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const { needsFreshFactor, ...moves } = preview.body;
    expect(needsFreshFactor).toBe(false);
    expect(moved.body).toEqual(moves);
    const credited = new Map<string, number>();
    for (const entry of (await teamJournal(teamId)).filter((e) => e.kind === 'reallocation'))
      for (const leg of entry.legs)
        if (leg.account.startsWith('card:'))
          credited.set(leg.account, (credited.get(leg.account) ?? 0) + leg.amountCents);
    for (const share of preview.body.shares as { userId: string; amountCents: number }[]) {
      expect(credited.get(cardAccount(share.userId))).toBe(share.amountCents);
      expect(await balanceOf(cardAccount(share.userId))).toBe(2500 + share.amountCents);
    }
    expect(await balanceOf(poolAccount(teamId))).toBe(0);

    // Nothing left: the preview says so as the action would.
    const empty = await send('POST', '/funds/reallocate/preview', token, body);
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toBe('There is no remaining budget to reallocate.');
  });

  it('with "all employees" splits across every active member, and asks for a receiver when there is none', async () => {
    const { manager, removed, receivers } = await teamWithRemoved([40], 2);
    const token = manager.accessToken;
    const deletedUserIds = [removed[0]?.userId];
    const all = await send('POST', '/funds/reallocate/preview', token, {
      deletedUserIds,
      allEmployees: true,
    });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.shares.map((s: { userId: string }) => s.userId)).toEqual(
      receivers.map((r) => r.userId).sort(),
    );
    const none = await send('POST', '/funds/reallocate/preview', token, { deletedUserIds });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('Please select at least one employee to receive the reallocation');
  });
});

describe('redemption preview', () => {
  it('shows the amount, the fee (15 % or $5, whichever is greater) and the net the ledger then records', async () => {
    const { manager, teamId, removed } = await teamWithRemoved([40, 20], 0);
    const token = manager.accessToken;
    const body = { deletedUserIds: removed.map((r) => r.userId) };

    const preview = await send('POST', '/funds/redeem/preview', token, body);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    // $40.00: 15 % is $6.00; $20.00: 15 % is $3.00, so the $5.00 minimum.
    expect(preview.body).toMatchObject({ amountCents: 6000, feeCents: 1100, netCents: 4900 });
    expect(await balanceOf(poolAccount(teamId))).toBe(6000);

    const redeemed = await send('POST', '/funds/redeem', token, body, `x-${randomUUID()}`);
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(redeemed.body).toEqual({ amountCents: preview.body.amountCents, feeCents: preview.body.feeCents });
    const entries = (await teamJournal(teamId)).filter((e) => e.kind === 'redemption');
    const leg = (account: string) =>
      entries.flatMap((e) => e.legs).reduce((s, l) => s + (l.account === account ? l.amountCents : 0), 0);
    expect(leg(`revenue:${teamId}`)).toBe(preview.body.feeCents);
    expect(leg(externalAccount(teamId))).toBe(preview.body.netCents);
    for (const person of preview.body.people as { userId: string; feeCents: number; netCents: number }[]) {
      const own = entries.find((e) => e.references?.user === person.userId);
      expect(own?.legs.find((l) => l.account === `revenue:${teamId}`)?.amountCents).toBe(person.feeCents);
      expect(own?.legs.find((l) => l.account === externalAccount(teamId))?.amountCents).toBe(person.netCents);
    }
  });

  it('refuses under $5 with the reason, and at exactly $5 because the fee takes it all; nothing moves', async () => {
    const { manager, teamId, removed } = await teamWithRemoved([3, 5], 0);
    const token = manager.accessToken;
    const [small, five] = removed.map((r) => r.userId);

    const under = await send('POST', '/funds/redeem/preview', token, { deletedUserIds: [small] });
    expect(under.status).toBe(422);
    expect(under.body.error.message).toBe('Refund is not available for balances under $5.');
    const action = await send(
      'POST',
      '/funds/redeem',
      token,
      { deletedUserIds: [small] },
      `x-${randomUUID()}`,
    );
    expect(action.status).toBe(422);
    expect(action.body.error.message).toBe(under.body.error.message);

    const exact = await send('POST', '/funds/redeem/preview', token, { deletedUserIds: [five] });
    expect(exact.status).toBe(422);
    expect(exact.body.error.message).toBe('After the $5.00 minimum fee nothing would be returned.');
    expect(await balanceOf(poolAccount(teamId))).toBe(800);
  });

  it("answers 404 for another team's removed person", async () => {
    const { removed } = await teamWithRemoved([10], 0);
    const other = await setUpTeam(stack);
    const res = await send('POST', '/funds/redeem/preview', other.manager.accessToken, {
      deletedUserIds: [removed[0]?.userId],
    });
    expect(res.status).toBe(404);
  });
});
