/**
 * Server rules the rules audit found enforced but untested, each through the
 * real handlers, DynamoDB Local and the Stripe emulator, each proved to fail
 * with its check removed: another team's manager moves none of this team's
 * money (reallocate, redeem, deposit) even with valid Idempotency-Keys;
 * pausing or unpausing a deleted person leaves them deleted and unrenewed;
 * billing setup refuses a blank address part with the spec's message and
 * creates no customer; a receipt needs a title; a $0 deposit charges nothing;
 * and an employee deleting their own account cancels their card, pools their
 * money through the ledger and can no longer sign in.
 */
import { randomUUID } from 'node:crypto';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf } from '../../lambdas/src/data/ledger';
import { createLogger } from '../../lambdas/src/platform/log';
import { renewTeam } from '../../lambdas/src/services/billing';
import { registerManager, type SignedIn, signIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { ADDRESS, emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  send = sender(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const key = (prefix: string) => `${prefix}-${randomUUID()}`;

/** Every charge of a customer at the emulator, with what was refunded of it. */
async function chargesOf(customerId: string) {
  const charges = await stripe.charges.list({ customer: customerId, limit: 100 });
  return charges.data
    .map((c) => ({ id: c.id, amount: c.amount, status: c.status, refunded: c.amount_refunded }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The month (YYYY-MM) after this one and its cycle date for `cycleDay`, as monthly funding sees it. */
function nextCycle(cycleDay: number) {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(cycleDay, lastDay));
  return { month: next.toISOString().slice(0, 7), at: next };
}

describe("another team's manager moves none of this team's money, with valid Idempotency-Keys", () => {
  type Team = Awaited<ReturnType<typeof setUpTeam>> & {
    receiver: SignedIn & { cardId: string };
    removed: SignedIn & { cardId: string };
  };
  let ours: Team;
  let theirs: Team;

  async function teamWithRemovedPerson(receiverBudget: number, removedBudget: number): Promise<Team> {
    const team = await setUpTeam(stack);
    const receiver = await joinTeam(stack, team.manager, receiverBudget);
    const removed = await joinTeam(stack, team.manager, removedBudget);
    const deleted = await send('POST', '/employees/delete', team.manager.accessToken, {
      userIds: [removed.userId],
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    return { ...team, receiver, removed };
  }

  /** Both teams' pools and cards on the ledger, and both teams' charges and refunds at Stripe. */
  async function moneyOfBothTeams() {
    const ledger = async (t: Team) => ({
      pool: await balanceOf(poolAccount(t.teamId)),
      receiver: await balanceOf(cardAccount(t.receiver.userId)),
      removed: await balanceOf(cardAccount(t.removed.userId)),
    });
    return {
      ours: { ledger: await ledger(ours), stripe: await chargesOf(ours.customerId) },
      theirs: { ledger: await ledger(theirs), stripe: await chargesOf(theirs.customerId) },
    };
  }

  beforeAll(async () => {
    ours = await teamWithRemovedPerson(20, 40);
    theirs = await teamWithRemovedPerson(15, 30);
    // The starting point every case is compared with: each removed person's money waits in their own pool.
    expect(await moneyOfBothTeams()).toMatchObject({
      ours: { ledger: { pool: 4000, receiver: 2000, removed: 0 } },
      theirs: { ledger: { pool: 3000, receiver: 1500, removed: 0 } },
    });
  }, 120_000);

  const NOT_REMOVED = 'Only removed or dormant employees of your team can be reallocated.';
  // Each a request by the other team's manager that names this team's people; the bodies are
  // functions because both teams are made in beforeAll. The third case names only this team's
  // people, so either check refuses it and no message is asserted.
  it.each([
    {
      what: "reallocate this team's removed person to the other team's own employee",
      path: '/funds/reallocate',
      body: () => ({ deletedUserIds: [ours.removed.userId], receiverIds: [theirs.receiver.userId] }),
      message: NOT_REMOVED as string | undefined,
    },
    {
      what: "reallocate the other team's own removed person to this team's employee",
      path: '/funds/reallocate',
      body: () => ({ deletedUserIds: [theirs.removed.userId], receiverIds: [ours.receiver.userId] }),
      message: 'A receiving employee is not an active member of your team.',
    },
    {
      what: "reallocate this team's removed person to this team's employee",
      path: '/funds/reallocate',
      body: () => ({ deletedUserIds: [ours.removed.userId], receiverIds: [ours.receiver.userId] }),
      message: undefined,
    },
    {
      what: "redeem this team's removed person",
      path: '/funds/redeem',
      body: () => ({ deletedUserIds: [ours.removed.userId] }),
      message: 'Only removed or dormant employees of your team can be redeemed.',
    },
  ])('refuses to $what, and no money moves', async ({ path, body, message }) => {
    const before = await moneyOfBothTeams();
    const res = await send('POST', path, theirs.manager.accessToken, body(), key('m'));
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    if (message) expect(res.body.error.message).toBe(message);
    expect(await moneyOfBothTeams()).toEqual(before);
  });

  it("skips this team's employee in an extra deposit and charges nobody", async () => {
    const before = await moneyOfBothTeams();
    const res = await send(
      'POST',
      '/funds/deposit',
      theirs.manager.accessToken,
      { userIds: [ours.receiver.userId], amount: 10 },
      key('d'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual([
      { userId: ours.receiver.userId, status: 'skipped', message: 'Not an active employee with a card' },
    ]);
    expect(await moneyOfBothTeams()).toEqual(before);
  });
});

describe('pausing or unpausing a deleted person', () => {
  it('leaves them deleted, and the next monthly renewal charges nothing for them', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam(stack);
    const staying = await joinTeam(stack, manager, 25);
    const leaving = await joinTeam(stack, manager, 40);
    await send('POST', '/employees/delete', manager.accessToken, { userIds: [leaving.userId] });
    const pooled = await balanceOf(poolAccount(teamId));
    expect(pooled).toBe(4000);

    for (const action of ['unpause', 'pause', 'unpause'] as const) {
      const res = await send('POST', '/employees/pause', manager.accessToken, {
        userIds: [leaving.userId],
        action,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.results).toEqual([{ userId: leaving.userId, status: 'skipped', message: 'Deleted' }]);
      expect(await stack.getItem(keys.user(leaving.userId))).toMatchObject({ status: 'deleted' });
    }

    const { month, at } = nextCycle(cycleDay);
    const team = await stack.getItem(keys.team(teamId));
    expect(await renewTeam(team as never, month, at, createLogger())).toBe('funded');

    // Joining charged $25.00 and $40.00; the renewal charged the staying person's $25.00 only.
    expect((await chargesOf(customerId)).map((c) => c.amount).sort((a, b) => a - b)).toEqual([
      2500, 2500, 4000,
    ]);
    expect(await balanceOf(cardAccount(staying.userId))).toBe(2500 + 2500);
    expect(await balanceOf(cardAccount(leaving.userId))).toBe(0);
    expect(await balanceOf(poolAccount(teamId))).toBe(pooled);
  });
});

describe('billing setup refuses a blank billing address part', () => {
  const blanks = [
    ['address1', 'Address is required'],
    ['city', 'City is required'],
    ['state', 'State is required'],
    ['zip', 'Postal Code is required'],
  ] as const;

  it("answers 400 with the spec's message for each, creates no Stripe customer, and sets up once complete", async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const me = await send('GET', '/me', manager.accessToken);
    const teamId = me.body.teamId as string;
    for (const [field, message] of blanks) {
      for (const blank of ['', '   ']) {
        const res = await send(
          'POST',
          '/billing/setup',
          manager.accessToken,
          {
            businessName: 'Acme Learning LLC',
            token: 'tok_visa',
            billingAddress: { ...ADDRESS, [field]: blank },
          },
          key('setup'),
        );
        expect(res.status, `${field}=${JSON.stringify(blank)}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.fields[`billingAddress.${field}`]).toBe(message);
      }
    }
    expect((await stripe.customers.list({ email: manager.email })).data).toEqual([]);
    expect((await stack.getItem(keys.team(teamId)))?.stripeCustomerId).toBeUndefined();
    expect((await send('GET', '/me', manager.accessToken)).body.teamStatus).toBe('setup');

    // The same request with every part filled in is the one that sets the team up.
    const complete = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      { businessName: 'Acme Learning LLC', token: 'tok_visa', billingAddress: ADDRESS },
      key('setup'),
    );
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    expect((await stripe.customers.list({ email: manager.email })).data).toHaveLength(1);
  });
});

describe('confirming a receipt', () => {
  it("refuses a blank title with 'Title is required' and the purchase keeps awaiting its receipt", async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    expect((await payWithCard(stack, employee.cardId, 1250))?.approved).toBe(true);
    const listed = await send('GET', '/purchases', employee.accessToken);
    const purchaseId = listed.body.purchases[0].purchaseId as string;

    // A valid PNG, uploaded through the presigned POST as the browser does.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const presign = await send('POST', `/purchases/${purchaseId}/receipt/upload`, employee.accessToken, {
      contentType: 'image/png',
      size: png.length,
      fileName: 'receipt.png',
    });
    expect(presign.status, JSON.stringify(presign.body)).toBe(200);
    const form = new FormData();
    for (const [name, value] of Object.entries(presign.body.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'receipt.png');
    const posted = await fetch(presign.body.url, { method: 'POST', body: form });
    expect(posted.status, await posted.text()).toBeLessThan(300);

    const confirm = (title: string) =>
      send('POST', `/purchases/${purchaseId}/receipt`, employee.accessToken, {
        uploadId: presign.body.uploadId,
        title,
        fileName: 'receipt.png',
      });
    for (const blank of ['', '   ']) {
      const refused = await confirm(blank);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error.fields.title).toBe('Title is required');
      expect(await stack.getItem(keys.purchase(purchaseId))).toMatchObject({ receiptStatus: 'awaiting' });
      const row = (await send('GET', '/purchases', employee.accessToken)).body.purchases[0];
      expect(row).toMatchObject({ purchaseId, title: null, receipt: { state: 'awaiting' } });
    }

    // The same upload with a title is recorded: only the title was missing.
    const accepted = await confirm('Design patterns book');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await stack.getItem(keys.purchase(purchaseId))).not.toMatchObject({ receiptStatus: 'awaiting' });
  });
});

describe('an extra deposit of $0', () => {
  it("is refused with 'Amount must be more than $0' and charges nothing", async () => {
    const { manager, customerId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    const charged = await chargesOf(customerId);
    for (const amount of [0, '$0', '0']) {
      const res = await send(
        'POST',
        '/funds/deposit',
        manager.accessToken,
        { userIds: [employee.userId], amount },
        key('d'),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toBe('Amount must be more than $0');
      expect(res.body.error.fields).toEqual({ amount: 'Amount must be more than $0' });
    }
    expect(await chargesOf(customerId)).toEqual(charged);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500);
  });
});

describe('an extra deposit that is not whole dollars, or too large', () => {
  it('is refused naming the Amount, with money written as people write it, and charges nothing', async () => {
    const { manager, customerId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    const charged = await chargesOf(customerId);
    for (const [amount, message] of [
      ['12.50', 'Amount must be a whole number of dollars'],
      [10_001, 'Amount must be at most $10,000'],
    ] as const) {
      const res = await send(
        'POST',
        '/funds/deposit',
        manager.accessToken,
        { userIds: [employee.userId], amount },
        key('d'),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.fields).toEqual({ amount: message });
    }
    expect(await chargesOf(customerId)).toEqual(charged);
  });
});

describe('an employee deleting their own account', () => {
  it('cancels their card, moves exactly their balance to the team pool, and they can no longer sign in', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 37);
    expect((await payWithCard(stack, employee.cardId, 1234))?.approved).toBe(true);
    const balance = await balanceOf(cardAccount(employee.userId));
    expect(balance).toBe(3700 - 1234);
    const poolBefore = await balanceOf(poolAccount(teamId));

    const res = await send('DELETE', `/users/${employee.userId}`, employee.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('deleted');

    expect((await stripe.issuing.cards.retrieve(employee.cardId)).status).toBe('canceled');
    expect(await stack.getItem(keys.card(employee.cardId))).toMatchObject({ status: 'canceled' });
    expect(await balanceOf(cardAccount(employee.userId))).toBe(0);
    expect(await balanceOf(poolAccount(teamId))).toBe(poolBefore + balance);

    const again = await signIn(stack.apiUrl, employee.email);
    expect(again.status).toBe(401);
    expect(again.body.error.message).toBe('Incorrect email or password.');
    expect((await send('GET', '/me', employee.accessToken)).status).toBe(401);
    // Cognito itself refuses them too, not only our check of the status.
    const { endpoint, userPoolId } = inject('cognito');
    const cognito = new CognitoIdentityProviderClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const user = await cognito.send(
        new AdminGetUserCommand({ UserPoolId: userPoolId, Username: employee.email }),
      );
      expect(user.Enabled).toBe(false);
    } finally {
      cognito.destroy();
    }
  });
});
