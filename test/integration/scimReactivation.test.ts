/**
 * Issue 28, "reactivation before the next cycle restores the person and their
 * card", against the real handlers on DynamoDB Local and the Stripe emulator:
 * a member removed (by SCIM or by the manager) and sent `active: true` before
 * the team's next billing day is active again with the same id and sign-in, a
 * new card that pays, what of their money is still in the pool back on it
 * through the ledger (to the cent), and in the next renewal again; once
 * however often or concurrently asked; only the rest when the manager already
 * moved their money; refused with the reason after the billing day; never by
 * another team's token.
 */
import { randomUUID } from 'node:crypto';
import { auditDetails } from '@shared/domain/auditLog';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import { SCHEMA } from '@shared/domain/scim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTeamUsers } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { cycleMembers } from '../../lambdas/src/services/billing/renewals';
import { api, type SignedIn, signIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { holdClock, releaseClock } from '../support/productClock';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

type Answer = { status: number; body: any; text: string };

async function scim(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/scim+json',
      ...(body !== undefined ? { 'content-type': 'application/scim+json; charset=utf-8' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

async function makeToken(manager: SignedIn, name: string): Promise<string> {
  const made = await api(stack.apiUrl, 'POST', '/provisioning/tokens', {
    token: manager.accessToken,
    body: { name },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.token as string;
}

/** Okta's deactivation and reactivation (its SCIM 2.0 guide, "Update a specific user (PATCH)"). */
const okta = (active: boolean) => ({
  schemas: [SCHEMA.patchOp],
  Operations: [{ op: 'replace', value: { active } }],
});
/** Entra's (Microsoft's "Known issues" and validator: a path and a string "True"/"False"). */
const entra = (active: boolean) => ({
  schemas: [SCHEMA.patchOp],
  Operations: [{ op: 'Replace', path: 'active', value: active ? 'True' : 'False' }],
});

/** A team with a $25 member who joined (charged, carded, funded) and is a SCIM user of the team's token. */
async function teamWithMember(tokenName = 'Okta') {
  const team = await setUpTeam(stack);
  const token = await makeToken(team.manager, tokenName);
  const member = await joinTeam(stack, team.manager, 25);
  expect(member.cardId).toMatch(/^ic_/);
  // The IdP adds the address of someone already on the team: adopted, with a SCIM id.
  const adopted = await scim(token, 'POST', '/Users', {
    schemas: [SCHEMA.user],
    userName: member.email,
    name: { givenName: 'Eddie', familyName: 'Employee' },
    emails: [{ primary: true, value: member.email, type: 'work' }],
    active: true,
  });
  expect(adopted.status, adopted.text).toBe(201);
  return { ...team, token, member, scimId: adopted.body.id as string };
}

async function auditEvents(manager: SignedIn, action: string) {
  const log = await api(stack.apiUrl, 'GET', '/team/audit?limit=100', { token: manager.accessToken });
  expect(log.status).toBe(200);
  return log.body.events.filter((e: { action: string }) => e.action === action);
}

async function poolReturns(teamId: string) {
  return (await teamJournal(teamId)).filter((e) => e.kind === 'poolReturn');
}

describe('reactivating a member removed through SCIM, before the next billing day', () => {
  it('restores them: same sign-in, budget, a new card that pays, their pooled money back through the ledger, billed again; once', async () => {
    const { manager, teamId, token, member, scimId } = await teamWithMember('Okta');
    const books = new LedgerInvariants(stack, teamId);
    const oldCard = member.cardId;

    const listed = (await stack.getItem(keys.user(member.userId)))?.gsi4sk;
    expect(listed).toMatch(new RegExp(`#${member.userId}$`));
    const off = await scim(token, 'PATCH', `/Users/${scimId}`, okta(false));
    expect(off.status, off.text).toBe(200);
    const removed = await stack.getItem(keys.user(member.userId));
    expect(removed).toMatchObject({ status: 'deleted' });
    // Out of the team's quiet list (insights) in the removal's own write.
    expect(removed?.gsi4pk).toBeUndefined();
    expect(await stack.getItem(keys.card(oldCard))).toMatchObject({ status: 'canceled' });
    expect(await balanceOf(poolAccount(teamId))).toBe(2500);
    expect((await signIn(stack.apiUrl, member.email)).status).not.toBe(200);

    // Another team's token reaches nobody here (404), and changes nothing.
    const other = await setUpTeam(stack);
    const otherToken = await makeToken(other.manager, 'Other Okta');
    expect((await scim(otherToken, 'PATCH', `/Users/${scimId}`, okta(true))).status).toBe(404);
    expect(await stack.getItem(keys.user(member.userId))).toMatchObject({ status: 'deleted' });

    const back = await scim(token, 'PATCH', `/Users/${scimId}`, okta(true));
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ id: scimId, userName: member.email, active: true });

    // The same person: same id, active, same budget, a new card (the cancelled one stays cancelled).
    const user = await stack.getItem(keys.user(member.userId));
    expect(user).toMatchObject({ userId: member.userId, status: 'active', budgetCents: 2500 });
    expect(user?.deletedAt).toBeUndefined();
    expect(user?.restoring).toBeUndefined();
    // Back in the team's quiet list, under their clock (restarted by the new card).
    expect(user).toMatchObject({ gsi4pk: `QUIET#${teamId}`, gsi4sk: `${user?.quietSince}#${member.userId}` });
    expect(String(user?.gsi4sk) >= String(listed)).toBe(true);
    const newCard = user?.cardId as string;
    expect(newCard).toMatch(/^ic_/);
    expect(newCard).not.toBe(oldCard);
    expect(await stack.getItem(keys.card(oldCard))).toMatchObject({ status: 'canceled' });
    // Its backstop at the issuer: what they could spend when it was issued and since, not the old card's too.
    expect(await stack.getItem(keys.card(newCard))).toMatchObject({
      status: 'active',
      userId: member.userId,
      lifetimeLimitCents: 2500,
    });

    // The pooled $25.00 is back on their card, to the cent, by one pool return entry.
    expect(await balanceOf(cardAccount(member.userId))).toBe(2500);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    const returns = await poolReturns(teamId);
    expect(returns.map((e) => e.legs)).toEqual([
      [
        { account: poolAccount(teamId), amountCents: -2500 },
        { account: cardAccount(member.userId), amountCents: 2500 },
      ],
    ]);
    await books.check('after the reactivation', [member.userId]);

    // The new card pays; they sign in with their password as before; the next renewal bills them.
    const paid = await payWithCard(stack, newCard, 700);
    expect(paid?.approved, JSON.stringify(paid)).toBe(true);
    expect(await balanceOf(cardAccount(member.userId))).toBe(1800);
    expect((await signIn(stack.apiUrl, member.email)).status).toBe(200);
    expect(cycleMembers(await listTeamUsers(teamId), new Date())).toContainEqual({
      userId: member.userId,
      cents: 2500,
    });

    // Audited as the token, with what came back; the manager is told.
    const reactivated = await auditEvents(manager, 'employee.reactivated');
    expect(reactivated).toHaveLength(1);
    expect(reactivated[0]).toMatchObject({ actorName: 'Okta', targetId: member.userId });
    expect(auditDetails(reactivated[0])).toBe('New card; $25.00 back from the team pool');
    const told = (await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes('reactivated'));
    expect(told.map((m) => m.subject)).toEqual([`Eddie Employee (${member.email}) was reactivated`]);
    expect(told[0]?.body.text).toContain('$25.00 back from the team pool');

    // The same PATCH again: 200, nothing restored twice.
    const again = await scim(token, 'PATCH', `/Users/${scimId}`, okta(true));
    expect(again.status, again.text).toBe(200);
    expect(again.body.active).toBe(true);
    expect((await stack.getItem(keys.user(member.userId)))?.cardId).toBe(newCard);
    expect(await poolReturns(teamId)).toHaveLength(1);
    expect(await auditEvents(manager, 'employee.reactivated')).toHaveLength(1);
    await books.check('after the second PATCH', [member.userId], { everyStatement: true });
  });
});

describe('reactivating a member the manager removed by hand', () => {
  it('reads inactive to the IdP; two Entra PATCHes at once restore them once', async () => {
    const { manager, teamId, token, member, scimId } = await teamWithMember('Entra');
    const removed = await sender(stack)('POST', '/employees/delete', manager.accessToken, {
      userIds: [member.userId],
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    // The stale flag: the IdP reads the removal, by id and by filter.
    expect((await scim(token, 'GET', `/Users/${scimId}`)).body.active).toBe(false);
    const filtered = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${member.email}"`)}`,
    );
    expect(filtered.body.Resources.map((u: { active: boolean }) => u.active)).toEqual([false]);

    const [a, b] = await Promise.all([
      scim(token, 'PATCH', `/Users/${scimId}`, entra(true)),
      scim(token, 'PATCH', `/Users/${scimId}`, entra(true)),
    ]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    expect([a.body.active, b.body.active]).toEqual([true, true]);

    const user = await stack.getItem(keys.user(member.userId));
    expect(user).toMatchObject({ status: 'active' });
    expect(user?.restoring).toBeUndefined();
    expect(await balanceOf(cardAccount(member.userId))).toBe(2500);
    expect(await poolReturns(teamId)).toHaveLength(1);
    expect(await auditEvents(manager, 'employee.reactivated')).toHaveLength(1);
    const told = (await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes('reactivated'));
    expect(told).toHaveLength(1);
    const paid = await payWithCard(stack, user?.cardId as string, 1200);
    expect(paid?.approved, JSON.stringify(paid)).toBe(true);
    await new LedgerInvariants(stack, teamId).check('after two PATCHes at once', [member.userId], {
      everyStatement: true,
    });
  });
});

describe('reactivating after the manager moved the pooled money', () => {
  it('gives back only what is left in the pool for them (here nothing), and says so', async () => {
    const { manager, teamId, token, member, scimId } = await teamWithMember('Okta');
    const receiver = await joinTeam(stack, manager, 10);
    const off = await scim(token, 'PUT', `/Users/${scimId}`, {
      schemas: [SCHEMA.user],
      userName: member.email,
      emails: [{ primary: true, value: member.email, type: 'work' }],
      active: false,
    });
    expect(off.status, off.text).toBe(200);
    const moved = await sender(stack)(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [member.userId], receiverIds: [receiver.userId] },
      `r-${randomUUID()}`,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await balanceOf(cardAccount(receiver.userId))).toBe(1000 + 2500);

    const back = await scim(token, 'PUT', `/Users/${scimId}`, {
      schemas: [SCHEMA.user],
      userName: member.email,
      emails: [{ primary: true, value: member.email, type: 'work' }],
      active: true,
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.active).toBe(true);
    const user = await stack.getItem(keys.user(member.userId));
    expect(user).toMatchObject({ status: 'active' });
    expect(user?.cardId).not.toBe(member.cardId);
    // Nothing was left for them: the receiver keeps the reallocation, the card starts at $0.00.
    expect(await balanceOf(cardAccount(member.userId))).toBe(0);
    expect(await balanceOf(cardAccount(receiver.userId))).toBe(3500);
    expect(await poolReturns(teamId)).toEqual([]);
    const [event] = await auditEvents(manager, 'employee.reactivated');
    expect(auditDetails(event)).toBe(
      'New card; $0.00 back from the team pool (of $25.00: $25.00 was already reallocated or redeemed)',
    );
    // The new card is theirs and limited by the ledger: it approves nothing until money arrives.
    const paid = await payWithCard(stack, user?.cardId as string, 100);
    expect(paid?.approved).toBe(false);
    await new LedgerInvariants(stack, teamId).check('after', [member.userId, receiver.userId]);
  });
});

describe('reactivating after the next billing day', () => {
  it('is refused with the reason (400 mutability): the person stays removed and reads inactive', async () => {
    const { teamId, token, member, scimId, cycleDay } = await teamWithMember('Okta');
    expect((await scim(token, 'PATCH', `/Users/${scimId}`, okta(false))).status).toBe(200);
    expect(cycleDay).toBeGreaterThan(0);
    // 40 days on, the team's billing day has come at least once since the removal.
    holdClock(new Date(Date.now() + 40 * 86_400_000));
    try {
      const back = await scim(token, 'PATCH', `/Users/${scimId}`, okta(true));
      expect(back.status, back.text).toBe(400);
      expect(back.body).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '400',
        scimType: 'mutability',
      });
      expect(back.body.detail).toMatch(
        /can be reactivated only until the team's next billing day \(.+\), which has passed/,
      );
    } finally {
      releaseClock();
    }
    expect(await stack.getItem(keys.user(member.userId))).toMatchObject({ status: 'deleted' });
    expect((await scim(token, 'GET', `/Users/${scimId}`)).body.active).toBe(false);
    expect(await balanceOf(poolAccount(teamId))).toBe(2500);
    expect(await poolReturns(teamId)).toEqual([]);
  });
});
