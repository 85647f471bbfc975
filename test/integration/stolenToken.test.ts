/**
 * Issue 24, "Must hold": someone who holds only a manager's access token (taken
 * by an injected script, or leaked) - no password, no mailbox, no session
 * cookie, the sign-in's factor older than five minutes - walks the whole route
 * table, each route with the request that would hurt most. Afterwards:
 *
 * - money moved (charges, refunds, and new monthly commitments: invited
 *   budgets and budget raises) stays within what needs no factor, and within
 *   the daily limits;
 * - no second factor was added, changed or removed, and no recovery code made;
 * - the sign-in e-mail and password are as they were.
 *
 * Every route of the table must have its attempt here (a typed record): a new
 * route fails the typecheck until someone has thought about what it lets a
 * stolen token do.
 */
import { randomUUID } from 'node:crypto';
import { type OperationId, operationIds } from '@shared/api/routes';
import {
  DEFAULT_DAILY_DEPOSIT_LIMIT_CENTS,
  DEFAULT_DAILY_REDEMPTION_LIMIT_CENTS,
} from '@shared/domain/moneyLimits';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAll } from '../../lambdas/src/data/client';
import { keys } from '../../lambdas/src/data/keys';
import { STEP_UP_THRESHOLD_CENTS } from '../../lambdas/src/platform/freshFactor';
import { api, type SignedIn, signIn, uniqueEmail } from '../support/accountFlows';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';
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

interface Scene {
  manager: SignedIn;
  teamId: string;
  /** Active employees. */
  staying: SignedIn[];
  /** A removed employee whose money is in the pool. */
  removedId: string;
}

type Answer = { status: number; body: any };
type Attempt = (scene: Scene, call: Call) => Promise<unknown>;
type Call = (
  method: string,
  path: string,
  body?: unknown,
  options?: { idempotent?: boolean },
) => Promise<Answer>;

const MAX = 10_000;
const manyAddresses = (n: number) => Array.from({ length: n }, () => uniqueEmail('stolen'));

/** What the attacker tries on each route, as hard as the route allows. */
const WALK: Record<OperationId, Attempt> = {
  // Public routes: the token adds nothing, but they are walked all the same.
  joinWaitlist: (_s, call) => call('POST', '/waitlist', { name: 'X', email: uniqueEmail('w') }),
  sendContactMessage: (_s, call) =>
    call('POST', '/messages', { name: 'X', email: uniqueEmail('c'), message: 'hello' }),
  registerManager: (s, call) =>
    call('POST', '/auth/registerManager', {
      firstName: 'X',
      lastName: 'Y',
      email: s.manager.email,
      password: 'attacker-password',
      company: 'Evil',
    }),
  checkInvitation: (_s, call) => call('POST', '/auth/invitationCheck', { email: uniqueEmail('i') }),
  registerEmployee: (_s, call) =>
    call('POST', '/auth/registerEmployee', {
      firstName: 'X',
      lastName: 'Y',
      email: uniqueEmail('r'),
      password: 'attacker-password',
      zip: '94110',
    }),
  inviteManager: (_s, call) => call('POST', '/auth/inviteManager', { managerEmail: uniqueEmail('m') }),
  signIn: (s, call) => call('POST', '/auth/signIn', { email: s.manager.email, password: 'guess' }),
  completeSocialSignIn: (_s, call) => call('POST', '/auth/social', { code: '123456' }),
  // No cookie: the token alone cannot renew itself.
  refreshSession: (_s, call) => call('POST', '/auth/refresh', {}),
  signOut: (_s, call) => call('POST', '/auth/signOut', {}),
  stepUp: (_s, call) => call('POST', '/auth/stepUp', { password: 'guess' }),
  getSecondFactor: (_s, call) => call('GET', '/me/secondFactor'),
  startTotpEnrolment: async (_s, call) => {
    expect((await call('POST', '/me/secondFactor/totp', {})).status).toBe(400);
    return call('POST', '/me/secondFactor/totp', { emailCode: '12345678' });
  },
  confirmTotpEnrolment: (_s, call) => call('POST', '/me/secondFactor/totp/confirm', { code: '123456' }),
  turnOffSecondFactor: (_s, call) => call('POST', '/auth/secondFactor/turnOff', { code: '123456' }),
  changePassword: (_s, call) =>
    call('POST', '/auth/changePassword', {
      currentPassword: 'guess',
      password: 'attacker-password',
      confirmPassword: 'attacker-password',
    }),
  regenerateRecoveryCodes: (_s, call) => call('POST', '/me/secondFactor/recoveryCodes', { code: '123456' }),
  // It e-mails the owner, whose mailbox the attacker cannot read.
  sendIdentityCode: (_s, call) => call('POST', '/me/identityCode', {}),
  verifyEmail: (_s, call) => call('POST', '/auth/verifyEmail', { token: 'z'.repeat(43) }),
  resendVerification: (_s, call) => call('POST', '/auth/resendVerification', {}),
  forgotPassword: (s, call) => call('POST', '/auth/forgotPassword', { email: s.manager.email }),
  resetPassword: (_s, call) =>
    call('POST', '/auth/resetPassword', {
      token: 'z'.repeat(43),
      password: 'attacker-password',
      confirmPassword: 'attacker-password',
    }),
  getProfile: (s, call) => call('GET', `/users/${s.manager.userId}`),
  // Every budget to the most the form takes: new commitments, counted like deposits.
  updateProfile: async (s, call) => {
    for (const employee of s.staying)
      await call('PUT', `/users/${employee.userId}`, {
        userId: employee.userId,
        firstName: 'Eddie',
        lastName: 'Employee',
        budget: MAX,
      });
    return call('PUT', `/users/${s.manager.userId}`, {
      userId: s.manager.userId,
      firstName: 'Mary',
      lastName: 'Manager',
    });
  },
  // Read-only: says whether a raise would need a factor; saves nothing.
  previewBudgetChange: async (s, call) => {
    for (const employee of s.staying)
      await call('POST', `/users/${employee.userId}/budget/preview`, { budget: MAX });
  },
  // Runs last (below): it would end the walk.
  deleteAccount: (s, call) => call('DELETE', `/users/${s.manager.userId}`, { userId: s.manager.userId }),
  inviteEmployees: async (_s, call) => {
    await call('POST', '/invitations', { emails: manyAddresses(60), budget: MAX });
    // And one at a time, each under the threshold.
    for (let i = 0; i < 12; i++)
      await call('POST', '/invitations', { emails: manyAddresses(1), budget: 100 });
  },
  // Read-only: says whether the invitations would need a factor; invites nobody.
  previewInvitations: (_s, call) =>
    call('POST', '/invitations/preview', { emails: manyAddresses(100), budget: MAX }),
  withdrawInvitations: (_s, call) => call('POST', '/invitations/withdraw', { emails: [uniqueEmail('n')] }),
  finalizeSetup: (_s, call) =>
    call(
      'POST',
      '/billing/setup',
      {
        businessName: 'Evil',
        token: 'tok_visa',
        billingAddress: { address1: 'x', city: 'y', state: 'tx', zip: '78701' },
      },
      { idempotent: true },
    ),
  getCustomer: (_s, call) => call('GET', '/billing/customer'),
  addCard: (_s, call) => call('POST', '/billing/cards', { token: 'tok_mastercard' }, { idempotent: true }),
  updateCustomer: (_s, call) => call('PUT', '/billing/customer', { defaultCardId: 'card_attacker' }),
  deleteCard: (_s, call) => call('DELETE', '/billing/cards/card_x'),
  listEmployees: (_s, call) => call('GET', '/employees'),
  updateSubscriptionStatus: (s, call) =>
    call('POST', '/employees/pause', { userIds: s.staying.map((e) => e.userId), action: 'unpause' }),
  setCardStatus: (s, call) =>
    call('POST', '/employees/cardStatus', { userIds: s.staying.map((e) => e.userId), status: 'active' }),
  deleteEmployees: (_s, call) => call('POST', '/employees/delete', { userIds: ['nobody'] }),
  reallocateFunds: (s, call) =>
    call(
      'POST',
      '/funds/reallocate',
      { deletedUserIds: [s.removedId], allEmployees: true },
      { idempotent: true },
    ),
  redeemFunds: (s, call) =>
    call('POST', '/funds/redeem', { deletedUserIds: [s.removedId] }, { idempotent: true }),
  previewReallocation: (s, call) =>
    call('POST', '/funds/reallocate/preview', { deletedUserIds: [s.removedId], allEmployees: true }),
  previewRedemption: (s, call) => call('POST', '/funds/redeem/preview', { deletedUserIds: [s.removedId] }),
  // The most the form takes, then the most that passes without a factor, again and again.
  depositFunds: async (s, call) => {
    const userIds = s.staying.map((e) => e.userId);
    const big = await call('POST', '/funds/deposit', { userIds, amount: MAX }, { idempotent: true });
    expect(big.body?.error?.code).toBe('STEP_UP_REQUIRED');
    const each = STEP_UP_THRESHOLD_CENTS / 100 / userIds.length;
    for (let i = 0; i < 5; i++)
      await call('POST', '/funds/deposit', { userIds, amount: each }, { idempotent: true });
  },
  previewDeposit: (s, call) =>
    call('POST', '/funds/deposit/preview', { userIds: s.staying.map((e) => e.userId), amount: MAX }),
  getTeamLedger: (_s, call) => call('GET', '/team/ledger'),
  exportTeamPurchases: (_s, call) => call('GET', '/team/purchases.csv'),
  getTeamAudit: (_s, call) => call('GET', '/team/audit'),
  getBalance: (_s, call) => call('GET', '/me/balance'),
  getStatement: (_s, call) => call('GET', '/me/statement'),
  getCardKey: (_s, call) => call('POST', '/me/cardKey', { nonce: 'x', apiVersion: '2024-06-20' }),
  checkPurchase: (_s, call) => call('GET', '/me/purchaseCheck?amount=10'),
  stripeWebhook: (_s, call) => call('POST', '/webhooks/stripe', { type: 'charge.succeeded' }),
  finishWalkthrough: (_s, call) => call('POST', '/me/walkthrough', {}),
  getCatalogue: (_s, call) => call('GET', '/catalogue'),
  recordItemView: (_s, call) => call('POST', '/catalogue/unknown-item/views', {}),
  getMe: (_s, call) => call('GET', '/me'),
  listPurchases: (_s, call) => call('GET', '/purchases'),
  createReceiptUpload: (_s, call) =>
    call('POST', '/purchases/nope/receipt/upload', { contentType: 'image/png', size: 100 }),
  confirmReceipt: (_s, call) => call('POST', '/purchases/nope/receipt', { uploadId: 'x' }),
  getReceiptUrl: (_s, call) => call('GET', '/purchases/nope/receipt'),
  getSubscription: (_s, call) => call('GET', '/subscription'),
  // Reading the team's invoices moves nothing.
  // No money: it moves the day dates are printed in (deadlines by at most a day); audited.
  updateTeamTimeZone: (_s, call) => call('PUT', '/team/timeZone', { timeZone: 'Pacific/Kiritimati' }),
  listInvoices: (_s, call) => call('GET', '/invoices'),
  getInvoicePdf: (_s, call) => call('GET', '/invoices/INV-000000-000001/pdf'),
  // Accounting export (issue 26): reads a month of the journal, moves nothing.
  exportAccounting: (_s, call) => call('GET', '/exports/accounting?month=2026-01&format=quickbooks'),
  // Insights (issue 26): reading moves nothing; a skill area moves no money, only how it is counted.
  getInsights: (_s, call) => call('GET', '/insights?from=2025-01&to=2026-12'),
  getInsightsPeople: (_s, call) => call('GET', '/insights/people?from=2025-01&to=2026-12'),
  getInsightsPeopleList: (_s, call) =>
    call('GET', '/insights/people/all?from=2025-01&to=2026-12&list=spenders'),
  getMySpend: (_s, call) => call('GET', '/me/spend'),
  setPurchaseSkill: (_s, call) =>
    call('PUT', '/purchases/nope/skill', { skillArea: 'Leadership', media: 'book' }),
  // Monthly e-mails (issue 26, nudges): public; a stolen token adds nothing to a made-up link.
  unsubscribeEmail: (_s, call) => call('POST', `/email/unsubscribe?token=${'z'.repeat(43)}`, {}),
  // Fund requests (issue 27): only employees ask (a manager's token cannot make a request to approve),
  // and the rule that approves without a click needs a fresh factor.
  listRequests: (_s, call) => call('GET', '/requests'),
  actOnRequest: async (_s, call) => {
    const ask = await call(
      'POST',
      '/requests',
      { action: 'ask', title: 'X', merchant: 'Y', amount: MAX, why: 'z', skillArea: 'Leadership' },
      { idempotent: true },
    );
    expect(ask.status).toBe(403);
    const rules = await call(
      'POST',
      '/requests',
      { action: 'setRules', autoApproveMonthly: MAX, maxRequest: MAX },
      { idempotent: true },
    );
    expect(rules.body?.error?.code).toBe('STEP_UP_REQUIRED');
    return call(
      'POST',
      '/requests',
      { action: 'approve', approvals: [{ requestId: 'nope' }] },
      { idempotent: true },
    );
  },
  // Issue 28 (roster import, offboarding dates): a whole file at the most the form takes is a
  // new commitment like an invitation, refused past the step-up threshold; a last day moves no money.
  importRoster: (_s, call) =>
    call('POST', '/roster/import', {
      rows: manyAddresses(100).map((email, i) => ({
        line: i + 2,
        firstName: 'Mal',
        lastName: 'Lory',
        email,
        budget: String(MAX),
        startDate: '',
      })),
    }),
  setLastDay: async (s, call) => {
    for (const employee of s.staying)
      await call('PUT', `/users/${employee.userId}/lastDay`, {
        userId: employee.userId,
        lastDay: '2099-01-01',
      });
  },
  // Provisioning (SCIM, issue 28): a token for an identity provider needs a fresh factor, and
  // so do the budgets it invites with; the SCIM routes refuse a session token.
  getProvisioning: (_s, call) => call('GET', '/provisioning'),
  createProvisioningToken: async (_s, call) => {
    const made = await call('POST', '/provisioning/tokens', { name: 'Attacker' });
    expect(made.status).toBe(403);
    return made;
  },
  revokeProvisioningToken: (_s, call) => call('DELETE', '/provisioning/tokens/01JZZZZZZZZZZZZZZZZZZZZZZZ'),
  updateProvisioningSettings: async (_s, call) => {
    const raised = await call('PUT', '/provisioning/settings', { defaultBudget: MAX });
    expect(raised.status).toBe(403);
    return raised;
  },
  scimServiceProviderConfig: (_s, call) => call('GET', '/scim/v2/ServiceProviderConfig'),
  scimResourceTypes: (_s, call) => call('GET', '/scim/v2/ResourceTypes'),
  scimSchemas: (_s, call) => call('GET', '/scim/v2/Schemas'),
  scimListUsers: (_s, call) => call('GET', '/scim/v2/Users'),
  scimGetUser: (_s, call) => call('GET', '/scim/v2/Users/01JZZZZZZZZZZZZZZZZZZZZZZZ'),
  scimCreateUser: async (_s, call) => {
    const created = await call('POST', '/scim/v2/Users', { userName: uniqueEmail('scim') });
    expect(created.status).toBe(401);
    return created;
  },
  scimReplaceUser: (s, call) =>
    call('PUT', `/scim/v2/Users/${s.staying[0]?.userId}`, { userName: uniqueEmail('scim'), active: false }),
  scimPatchUser: (s, call) =>
    call('PATCH', `/scim/v2/Users/${s.staying[0]?.userId}`, {
      Operations: [{ op: 'replace', value: { active: false } }],
    }),
  scimDeleteUser: (s, call) => call('DELETE', `/scim/v2/Users/${s.staying[0]?.userId}`),
  suspendSubscription: (_s, call) => call('POST', '/subscription/suspend', {}),
  resumeSubscription: (_s, call) => call('POST', '/subscription/resume', {}),
  closeSubscription: (_s, call) =>
    call('POST', '/subscription/close', { remaining: 'redeem' }, { idempotent: true }),
};

/** Every charge and refund Stripe made for the team's customer, in cents. */
async function stripeMoney(customerId: string) {
  const charges = (await stripe.charges.list({ customer: customerId, limit: 100 })).data;
  return {
    charged: charges.filter((c) => c.status === 'succeeded').reduce((sum, c) => sum + c.amount, 0),
    refunded: charges.reduce((sum, c) => sum + c.amount_refunded, 0),
  };
}

/** The monthly budgets the team has committed to: its people's and its open invitations'. */
async function monthlyCommitments(teamId: string): Promise<number> {
  const items = await queryAll<{ sk?: string; gsi1sk?: string; budgetCents?: number; status?: string }>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}` },
  });
  return items
    .filter((i) => i.status !== 'deleted' && typeof i.budgetCents === 'number')
    .reduce((sum, i) => sum + (i.budgetCents ?? 0), 0);
}

describe('a stolen manager access token, alone, walks the route table', () => {
  it('moves no money past what needs no factor, and changes no factor, e-mail or password', async () => {
    const { manager, teamId, customerId } = await setUpTeam(stack);
    const staying = [await joinTeam(stack, manager, 25), await joinTeam(stack, manager, 25)];
    const leaving = await joinTeam(stack, manager, 40);
    const removed = await api(stack.apiUrl, 'POST', '/employees/delete', {
      token: manager.accessToken,
      body: { userIds: [leaving.userId] },
    });
    expect(removed.status).toBe(200);
    const scene: Scene = {
      manager,
      teamId,
      staying,
      removedId: leaving.userId,
    };

    // Signed in more than five minutes ago: no factor is fresh.
    await forgetStepUps(manager.userId);
    const factorBefore = await stack.getItem(keys.secondFactor(manager.userId));
    const moneyBefore = await stripeMoney(customerId);
    const committedBefore = await monthlyCommitments(teamId);

    const call: Call = (method, path, body, options = {}) =>
      api(stack.apiUrl, method, path, {
        token: manager.accessToken,
        body,
        ...(options.idempotent ? { idempotencyKey: randomUUID() } : {}),
      });
    const order = [...operationIds.filter((op) => op !== 'deleteAccount'), 'deleteAccount' as const];
    const answers: Partial<Record<OperationId, unknown>> = {};
    for (const op of order) answers[op] = await WALK[op](scene, call);
    expect(Object.keys(answers).sort()).toEqual([...operationIds].sort());

    // Money: only what passes without a factor, and within every daily limit.
    const moneyAfter = await stripeMoney(customerId);
    const charged = moneyAfter.charged - moneyBefore.charged;
    const refunded = moneyAfter.refunded - moneyBefore.refunded;
    const committed = (await monthlyCommitments(teamId)) - committedBefore;
    expect(charged).toBeLessThanOrEqual(STEP_UP_THRESHOLD_CENTS);
    expect(refunded).toBe(0);
    expect(committed).toBeLessThanOrEqual(STEP_UP_THRESHOLD_CENTS);
    // The step-up threshold counts what was moved and committed today together.
    expect(charged + committed).toBeLessThanOrEqual(STEP_UP_THRESHOLD_CENTS);
    expect(charged + committed).toBeLessThanOrEqual(DEFAULT_DAILY_DEPOSIT_LIMIT_CENTS);
    expect(refunded).toBeLessThanOrEqual(DEFAULT_DAILY_REDEMPTION_LIMIT_CENTS);

    // Factors: as they were.
    expect(await stack.getItem(keys.secondFactor(manager.userId))).toEqual(factorBefore);
    // E-mail and password: the owner signs in as before, with nothing more asked.
    const owner = await signIn(stack.apiUrl, manager.email);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    const me = await api(stack.apiUrl, 'GET', '/me', { token: owner.body.accessToken });
    expect(me.body.email).toBe(manager.email);
    expect(
      (await postJson(`${stack.apiUrl}/auth/signIn`, { email: manager.email, password: 'attacker-password' }))
        .status,
    ).toBe(401);
  }, 600_000);
});
