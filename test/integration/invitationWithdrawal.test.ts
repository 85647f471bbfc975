/**
 * Withdrawing invitations (POST /invitations/withdraw): a manager takes back
 * their own team's pending invitations, by address or by the Employees
 * screen's row id; each withdrawal is one conditional delete written with its
 * Activity Log entry; the link then says 'Sorry! No one invited you'. Another
 * team's invitation and people who already joined are left as they are and
 * said so. A sign-up at the same moment either completes (the withdrawal says
 * "already joined") or is refused: never a member without an invitation.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { auditDetails, describeAction } from '@shared/domain/auditLog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lambdas/src/data/client';
import { keys } from '../../lambdas/src/data/keys';
import {
  api,
  inviteAndRegisterEmployee,
  linkToken,
  PASSWORD,
  registerManager,
  type SignedIn,
  signIn,
  uniqueEmail,
} from '../support/accountFlows';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';
import { createInvitedMember } from '../support/teams';

let stack: IntegrationStack;
let manager: SignedIn;
let otherManager: SignedIn;

beforeAll(async () => {
  stack = await startIntegrationStack();
  manager = await registerManager(stack.apiUrl, stack.mailbox);
  otherManager = await registerManager(stack.apiUrl, stack.mailbox);
});

afterAll(async () => {
  await stack?.stop();
});

const invite = (who: SignedIn, emails: string, budget = 25) =>
  api(stack.apiUrl, 'POST', '/invitations', { token: who.accessToken, body: { emails, budget } });

const withdraw = (who: SignedIn, body: { emails?: string | string[]; userIds?: string[] }) =>
  api(stack.apiUrl, 'POST', '/invitations/withdraw', { token: who.accessToken, body });

const signUpWith = (email: string, token: string) =>
  postJson(`${stack.apiUrl}/auth/registerEmployee`, {
    firstName: 'Sam',
    lastName: 'Late',
    email,
    password: PASSWORD,
    zip: '10001',
    token,
  });

/** Signs up with the link in the newest invitation e-mail to `email`, as the person would. */
const signUp = async (email: string) =>
  signUpWith(email, await linkToken(stack.mailbox, email, '/registerEmployee'));

async function teamIdOf(who: SignedIn): Promise<string> {
  return String((await stack.getItem(keys.user(who.userId)))?.teamId);
}

/** Every item of the table by key (rate-limit windows aside: each request counts itself). */
async function tableItems(): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stack.doc.send(
      new ScanCommand({ TableName: stack.tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    for (const item of page.Items ?? []) {
      if (String(item.pk).startsWith('RATE#')) continue;
      items.set(`${item.pk} ${item.sk}`, item);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Runs `beforeWrite` once, just before the first TransactWriteItems whose
 * request mentions `marker` goes to DynamoDB: a competing request lands at
 * exactly that moment. The data layer's real client, nothing mocked.
 */
function justBeforeTransaction(marker: string, beforeWrite: () => Promise<void>): () => void {
  const name = `race-${marker}`;
  let fired = false;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (
        !fired &&
        context.commandName === 'TransactWriteItemsCommand' &&
        JSON.stringify(args.input).includes(marker)
      ) {
        fired = true;
        await beforeWrite();
      }
      return next(args);
    },
    { step: 'initialize', priority: 'high', name },
  );
  return () => db().middlewareStack.remove(name);
}

describe('withdrawing invitations', () => {
  it("withdraws only the team's pending invitations, by address or row id, each logged, and the link refuses afterwards", async () => {
    const byAddress = uniqueEmail('wd-a');
    const byRowId = uniqueEmail('wd-b');
    const othersInvite = uniqueEmail('wd-other');
    expect((await invite(manager, `${byAddress}, ${byRowId}`, 40)).status).toBe(200);
    expect((await invite(otherManager, othersInvite, 30)).status).toBe(200);
    const joined = await inviteAndRegisterEmployee(stack.apiUrl, manager, 25);
    const othersMember = await inviteAndRegisterEmployee(stack.apiUrl, otherManager, 25);
    const teamId = await teamIdOf(manager);
    const before = await tableItems();

    const res = await withdraw(manager, {
      emails: [byAddress.toUpperCase(), othersInvite, joined.email, othersMember.email, 'not-an-email'],
      userIds: [`invite:${byRowId}`],
    });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual([
      { email: byAddress, result: 'withdrawn' },
      // Another team's invitation and another team's member: nothing of this team's, said alike.
      { email: othersInvite, result: 'notInvited' },
      { email: joined.email, result: 'alreadyJoined' },
      { email: othersMember.email, result: 'notInvited' },
      { email: 'not-an-email', result: 'invalidEmail' },
      { email: byRowId, result: 'withdrawn' },
    ]);

    // Nothing else changed: two invitations gone, two Activity Log entries in, nothing more.
    const after = await tableItems();
    const removed = [...before.keys()].filter((key) => !after.has(key));
    const added = [...after.keys()].filter((key) => !before.has(key));
    expect(removed.sort()).toEqual([`INVITE#${byAddress} INVITE`, `INVITE#${byRowId} INVITE`].sort());
    expect(added).toHaveLength(2);
    for (const key of added) expect(key).toMatch(new RegExp(`^TEAM#${teamId} AUDIT#`));
    for (const [key, item] of before) {
      if (!removed.includes(key)) expect(after.get(key), key).toEqual(item);
    }
    expect(await stack.getItem(keys.invitation(othersInvite))).toMatchObject({ budgetCents: 3000 });

    // The Activity Log says what happened, with the address, in the manager's name.
    const log = await api(stack.apiUrl, 'GET', '/team/audit?kind=people', { token: manager.accessToken });
    const withdrawals = (
      log.body.events as { action: string; actorId: string; after: Record<string, unknown> }[]
    )
      .filter((e) => e.action === 'invitation.withdrawn')
      .map((e) => ({ actorId: e.actorId, words: describeAction(e.action), details: auditDetails(e) }));
    expect(withdrawals.sort((a, b) => String(a.details).localeCompare(String(b.details)))).toEqual(
      [byAddress, byRowId].sort().map((email) => ({
        actorId: manager.userId,
        words: 'Invitation withdrawn',
        details: email,
      })),
    );

    // The e-mailed link now refuses, in the spec's words; the Employees list no longer shows them.
    expect((await signUp(byAddress)).body.error.message).toBe('Sorry! No one invited you');
    const refused = await signUp(byRowId);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe('Sorry! No one invited you');
    const list = await api(stack.apiUrl, 'GET', '/employees', { token: manager.accessToken });
    const listed = (list.body.employees as { email: string }[]).map((e) => e.email);
    expect(listed).not.toContain(byAddress);
    expect(listed).not.toContain(byRowId);
    expect(listed).toContain(joined.email);

    // Withdrawn twice: nothing to withdraw, nothing written.
    const again = await withdraw(manager, { emails: byAddress });
    expect(again.body.results).toEqual([{ email: byAddress, result: 'notInvited' }]);
    expect((await tableItems()).size).toBe(after.size);
  });

  it('asks for a verified manager and at least one invitation', async () => {
    const unverified = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const notVerified = await withdraw(unverified, { emails: uniqueEmail('x') });
    expect(notVerified.status).toBe(403);
    expect(notVerified.body.error.code).toBe('EMAIL_NOT_VERIFIED');

    const none = await withdraw(manager, { emails: ' , ' });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('Please select at least one invitation');
    const member = await withdraw(manager, { userIds: [manager.userId] });
    expect(member.status).toBe(400);
    expect(member.body.error.message).toBe('Only invitations can be withdrawn');
  });

  it('refuses a sign-up under way when the withdrawal lands first: no member, no login, no invitation', async () => {
    const email = uniqueEmail('wd-race');
    expect((await invite(manager, email)).status).toBe(200);
    let withdrawal: Awaited<ReturnType<typeof withdraw>> | undefined;
    // The sign-up has read the invitation and made the login; the manager withdraws just before it joins.
    const remove = justBeforeTransaction(`EMAIL#${email}`, async () => {
      withdrawal = await withdraw(manager, { emails: email });
    });
    try {
      const res = await signUp(email);
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.error.message).toBe('Sorry! No one invited you');
    } finally {
      remove();
    }
    expect(withdrawal?.body.results).toEqual([{ email, result: 'withdrawn' }]);
    expect(await stack.getItem(keys.emailClaim(email))).toBeUndefined();
    expect(await stack.getItem(keys.invitation(email))).toBeUndefined();
    // The login made for the sign-up was taken back.
    expect((await signIn(stack.apiUrl, email)).status).toBe(401);
    const list = await api(stack.apiUrl, 'GET', '/employees', { token: manager.accessToken });
    expect((list.body.employees as { email: string }[]).map((e) => e.email)).not.toContain(email);
  });

  it('leaves a member who joined first as they are and says they already joined', async () => {
    const email = uniqueEmail('wd-joined');
    expect((await invite(manager, email, 35)).status).toBe(200);
    const teamId = await teamIdOf(manager);
    let memberId = '';
    // The manager's withdrawal has read the invitation; the person finishes signing up just before it writes.
    const remove = justBeforeTransaction(`INVITE#${email}`, async () => {
      memberId = await createInvitedMember(email, teamId, 3500);
    });
    try {
      const res = await withdraw(manager, { emails: email });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([{ email, result: 'alreadyJoined' }]);
    } finally {
      remove();
    }
    expect(await stack.getItem(keys.user(memberId))).toMatchObject({
      teamId,
      status: 'active',
      budgetCents: 3500,
    });
    const log = await api(stack.apiUrl, 'GET', '/team/audit?kind=people', { token: manager.accessToken });
    const entries = (log.body.events as { action: string; after?: { emails?: string[] } }[]).filter(
      (e) => e.action === 'invitation.withdrawn' && e.after?.emails?.includes(email),
    );
    expect(entries).toEqual([]);
  });

  it('a sign-up and a withdrawal sent together: exactly one of them happens', async () => {
    for (let round = 0; round < 3; round++) {
      const email = uniqueEmail('wd-both');
      expect((await invite(manager, email)).status).toBe(200);
      const token = await linkToken(stack.mailbox, email, '/registerEmployee');
      const [joined, withdrawn] = await Promise.all([
        signUpWith(email, token),
        withdraw(manager, { emails: email }),
      ]);
      const result = withdrawn.body.results[0].result;
      const member = await stack.getItem(keys.emailClaim(email));
      if (joined.status === 201) {
        expect(result).toBe('alreadyJoined');
        expect(member).toBeDefined();
      } else {
        expect(joined.status).toBe(404);
        expect(result).toBe('withdrawn');
        expect(member).toBeUndefined();
      }
      expect(await stack.getItem(keys.invitation(email))).toBeUndefined();
    }
  });
});
