/**
 * The access matrix (spec §6, decisions.md "Authorization"): every route in the
 * route table, called by a visitor, an employee and a manager of the team that
 * owns the resource, an employee and a manager of another team, and a deleted
 * user, gets exactly the answer listed here. A route added to the table without
 * a row here fails the first test.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type OperationId, operationIds, routes } from '@shared/api/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInvoice } from '../../lambdas/src/data/invoices';
import { keys } from '../../lambdas/src/data/keys';
import { purchaseItem } from '../../lambdas/src/data/purchases';
import { SESSION_COOKIE_NAME } from '../../lambdas/src/platform/sessionCookie';
import {
  api,
  inviteAndRegisterEmployee,
  PASSWORD,
  registerManager,
  type SignedIn,
  uniqueEmail,
} from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

type ActorKind = 'visitor' | 'employee' | 'manager' | 'otherEmployee' | 'otherManager' | 'deleted';
const actorKinds: ActorKind[] = [
  'visitor',
  'employee',
  'manager',
  'otherEmployee',
  'otherManager',
  'deleted',
];

/** 'ok' is any 2xx; a number is that exact status. */
type Expected = 'ok' | 400 | 401 | 403 | 404 | 409 | 422;

interface Row {
  /** Builds the request; `world` holds the people, `fresh` makes a new employee of team A for destructive calls. */
  request: (ctx: Ctx) => Promise<{ path: string; body?: unknown; cookie?: string }>;
  expect: Record<ActorKind, Expected>;
}

interface Ctx {
  world: World;
  fresh: () => Promise<SignedIn>;
}

interface World {
  manager: SignedIn;
  employee: SignedIn;
  otherManager: SignedIn;
  otherEmployee: SignedIn;
  deleted: SignedIn;
}

const everyone = (value: Expected): Record<ActorKind, Expected> => ({
  visitor: value,
  employee: value,
  manager: value,
  otherEmployee: value,
  otherManager: value,
  deleted: value,
});

/** Signed-in, own data: anyone signed in; the deleted and visitors are out. */
const anySignedIn: Record<ActorKind, Expected> = { ...everyone('ok'), visitor: 401, deleted: 401 };

/** Managers reach the service (and get `managerAnswer`); employees are forbidden; visitors and the deleted are out. */
const managersOnly = (managerAnswer: Expected): Record<ActorKind, Expected> => ({
  visitor: 401,
  employee: 403,
  manager: managerAnswer,
  otherEmployee: 403,
  otherManager: managerAnswer,
  deleted: 401,
});

/** An employee's own data: employees of either team get their own; managers are forbidden. */
const employeesOnly = (employeeAnswer: Expected): Record<ActorKind, Expected> => ({
  visitor: 401,
  employee: employeeAnswer,
  manager: 403,
  otherEmployee: employeeAnswer,
  otherManager: 403,
  deleted: 401,
});

/** Only the employee whose resource it is: managers are forbidden, another team's employee gets 404. */
const ownEmployeeOnly = (answer: Expected): Record<ActorKind, Expected> => ({
  visitor: 401,
  employee: answer,
  manager: 403,
  otherEmployee: 404,
  otherManager: 403,
  deleted: 401,
});

/** A resource of team A's employee: the employee and their manager; others 404. */
const teamAEmployeeResource: Record<ActorKind, Expected> = {
  visitor: 401,
  employee: 'ok',
  manager: 'ok',
  otherEmployee: 404,
  otherManager: 404,
  deleted: 401,
};

const matrix: Record<OperationId, Row> = {
  joinWaitlist: {
    request: async () => ({ path: '/waitlist', body: { name: 'Matrix', email: uniqueEmail('wl') } }),
    expect: everyone('ok'),
  },
  sendContactMessage: {
    request: async () => ({
      path: '/messages',
      body: { name: 'Matrix', email: uniqueEmail('c'), message: 'Hi' },
    }),
    expect: everyone('ok'),
  },
  registerManager: {
    request: async () => ({
      path: '/auth/registerManager',
      body: { firstName: 'M', lastName: 'X', email: uniqueEmail('rm'), password: PASSWORD, company: 'Co' },
    }),
    expect: everyone('ok'),
  },
  checkInvitation: {
    request: async () => ({ path: '/auth/invitationCheck', body: { email: uniqueEmail('ic') } }),
    expect: everyone('ok'),
  },
  registerEmployee: {
    // No invitation link of ours: the same refusal for every caller, signed in or not.
    request: async () => ({
      path: '/auth/registerEmployee',
      body: {
        firstName: 'E',
        lastName: 'X',
        email: uniqueEmail('re'),
        password: PASSWORD,
        zip: '10001',
        token: 'not-an-invitation-link',
      },
    }),
    expect: everyone(404),
  },
  inviteManager: {
    request: async () => ({ path: '/auth/inviteManager', body: { managerEmail: uniqueEmail('im') } }),
    expect: everyone('ok'),
  },
  signIn: {
    request: async ({ world }) => ({
      path: '/auth/signIn',
      body: { email: world.manager.email, password: PASSWORD },
    }),
    expect: everyone('ok'),
  },
  completeSocialSignIn: {
    // The second step without a waiting sign-in (no pending cookie): refused alike for everyone.
    request: async () => ({ path: '/auth/social', body: { code: '123456' } }),
    expect: everyone(401),
  },
  refreshSession: {
    // The session cookie is the proof, whoever's access token comes along.
    request: async ({ world }) => ({ path: '/auth/refresh', body: {}, cookie: world.manager.sessionCookie }),
    expect: everyone('ok'),
  },
  signOut: {
    // A cookie naming a token nobody holds: nothing to end, the same answer for everyone.
    request: async ({ world }) => ({
      path: '/auth/signOut',
      body: {},
      cookie: `${SESSION_COOKIE_NAME}=${world.manager.userId}:not-a-real-token`,
    }),
    expect: everyone('ok'),
  },
  stepUp: {
    // Nobody in the world has an authenticator app: the password is the fresh factor.
    request: async () => ({ path: '/auth/stepUp', body: { password: PASSWORD } }),
    expect: anySignedIn,
  },
  getSecondFactor: { request: async () => ({ path: '/me/secondFactor' }), expect: anySignedIn },
  // No password: signed-in callers are asked for one (400); nothing starts.
  startTotpEnrolment: {
    request: async () => ({ path: '/me/secondFactor/totp', body: {} }),
    expect: { ...everyone(400), visitor: 401, deleted: 401 },
  },
  sendIdentityCode: {
    request: async () => ({ path: '/me/identityCode', body: {} }),
    expect: anySignedIn,
  },
  // An empty code: signed-in callers reach the schema (400); nothing is turned on.
  confirmTotpEnrolment: {
    request: async () => ({ path: '/me/secondFactor/totp/confirm', body: { code: '' } }),
    expect: { ...everyone(400), visitor: 401, deleted: 401 },
  },
  regenerateRecoveryCodes: {
    request: async () => ({ path: '/me/secondFactor/recoveryCodes', body: { code: '' } }),
    expect: { ...everyone(400), visitor: 401, deleted: 401 },
  },
  changePassword: {
    request: async () => ({ path: '/auth/changePassword', body: { currentPassword: '' } }),
    expect: { ...everyone(400), visitor: 401, deleted: 401 },
  },
  turnOffSecondFactor: {
    request: async () => ({ path: '/auth/secondFactor/turnOff', body: { code: '' } }),
    expect: { ...everyone(400), visitor: 401, deleted: 401 },
  },
  verifyEmail: {
    request: async () => ({ path: '/auth/verifyEmail', body: { token: 'z'.repeat(43) } }),
    expect: everyone(404),
  },
  resendVerification: {
    request: async () => ({ path: '/auth/resendVerification', body: {} }),
    // Everyone in the world is verified already, so a signed-in caller is told so.
    expect: { ...anySignedIn, employee: 409, manager: 409, otherEmployee: 409, otherManager: 409 },
  },
  forgotPassword: {
    request: async () => ({ path: '/auth/forgotPassword', body: { email: uniqueEmail('fp') } }),
    expect: everyone('ok'),
  },
  resetPassword: {
    request: async () => ({
      path: '/auth/resetPassword',
      body: { token: 'z'.repeat(43), password: PASSWORD, confirmPassword: PASSWORD },
    }),
    expect: everyone(404),
  },
  getProfile: {
    request: async ({ world }) => ({ path: `/users/${world.employee.userId}` }),
    expect: teamAEmployeeResource,
  },
  updateProfile: {
    request: async ({ world }) => ({
      path: `/users/${world.employee.userId}`,
      body: { firstName: 'Still', lastName: 'Here' },
    }),
    expect: teamAEmployeeResource,
  },
  // Read-only: the budget would be the employee's; another team's person is not found, as for the save.
  previewBudgetChange: {
    request: async ({ world }) => ({
      path: `/users/${world.employee.userId}/budget/preview`,
      body: { budget: 30 },
    }),
    expect: { ...managersOnly('ok'), otherManager: 404 },
  },
  deleteAccount: {
    // Destructive: a new employee of team A each time, so every caller faces the same target.
    request: async ({ fresh }) => ({ path: `/users/${(await fresh()).userId}` }),
    expect: { ...teamAEmployeeResource, employee: 404 },
  },
  inviteEmployees: {
    request: async () => ({ path: '/invitations', body: { emails: uniqueEmail('inv'), budget: 25 } }),
    expect: {
      visitor: 401,
      employee: 403,
      manager: 'ok',
      otherEmployee: 403,
      otherManager: 'ok',
      deleted: 401,
    },
  },
  previewInvitations: {
    request: async () => ({ path: '/invitations/preview', body: { emails: uniqueEmail('inv'), budget: 25 } }),
    expect: managersOnly('ok'),
  },
  // Billing: the world's teams have not finished setup, so a manager reaches the service and is told
  // so (409), or is stopped by the missing Idempotency-Key (400); nobody else gets that far.
  finalizeSetup: {
    request: async () => ({
      path: '/billing/setup',
      body: {
        businessName: 'Co',
        token: 'tok_visa',
        billingAddress: { address1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' },
      },
    }),
    expect: managersOnly(400),
  },
  getCustomer: { request: async () => ({ path: '/billing/customer' }), expect: managersOnly(409) },
  addCard: {
    request: async () => ({ path: '/billing/cards', body: { token: 'tok_visa' } }),
    expect: managersOnly(400),
  },
  updateCustomer: {
    request: async () => ({ path: '/billing/customer', body: { defaultCardId: 'card_1' } }),
    expect: managersOnly(409),
  },
  deleteCard: { request: async () => ({ path: '/billing/cards/card_1' }), expect: managersOnly(409) },
  listEmployees: { request: async () => ({ path: '/employees' }), expect: managersOnly('ok') },
  updateSubscriptionStatus: {
    request: async ({ world }) => ({
      path: '/employees/pause',
      body: { userIds: [world.employee.userId], action: 'unpause' },
    }),
    expect: { ...managersOnly('ok'), otherManager: 404 },
  },
  setCardStatus: {
    request: async ({ world }) => ({
      path: '/employees/cardStatus',
      body: { userIds: [world.employee.userId], status: 'active' },
    }),
    expect: { ...managersOnly('ok'), otherManager: 404 },
  },
  withdrawInvitations: {
    // Another team's manager reaches the service and is told the address is not theirs to withdraw.
    request: async () => ({ path: '/invitations/withdraw', body: { emails: uniqueEmail('wd') } }),
    expect: managersOnly('ok'),
  },
  deleteEmployees: {
    request: async ({ fresh }) => ({
      path: '/employees/delete',
      body: { userIds: [(await fresh()).userId] },
    }),
    expect: { ...managersOnly('ok'), otherManager: 404 },
  },
  // Money-moving routes need an Idempotency-Key; the matrix sends none, so a manager gets 400.
  reallocateFunds: {
    request: async ({ world }) => ({
      path: '/funds/reallocate',
      body: { deletedUserIds: [world.deleted.userId], allEmployees: true },
    }),
    expect: managersOnly(400),
  },
  redeemFunds: {
    request: async ({ world }) => ({
      path: '/funds/redeem',
      body: { deletedUserIds: [world.deleted.userId] },
    }),
    expect: managersOnly(400),
  },
  // Read-only previews take no Idempotency-Key. The world's teams have no money, so
  // team A's manager is told there is nothing to move (422); another team's, 404.
  previewReallocation: {
    request: async ({ world }) => ({
      path: '/funds/reallocate/preview',
      body: { deletedUserIds: [world.deleted.userId], allEmployees: true },
    }),
    expect: { ...managersOnly(422), otherManager: 404 },
  },
  previewRedemption: {
    request: async ({ world }) => ({
      path: '/funds/redeem/preview',
      body: { deletedUserIds: [world.deleted.userId] },
    }),
    expect: { ...managersOnly(422), otherManager: 404 },
  },
  depositFunds: {
    request: async ({ world }) => ({
      path: '/funds/deposit',
      body: { userIds: [world.employee.userId], amount: 10 },
    }),
    expect: managersOnly(400),
  },
  // The world's teams have no billing: a deposit preview asks to finish setting up first.
  previewDeposit: {
    request: async ({ world }) => ({
      path: '/funds/deposit/preview',
      body: { userIds: [world.employee.userId], amount: 10 },
    }),
    expect: managersOnly(409),
  },
  // The world's teams never set up billing: there is nothing to suspend or resume yet (409).
  getSubscription: { request: async () => ({ path: '/subscription' }), expect: managersOnly('ok') },
  suspendSubscription: {
    request: async () => ({ path: '/subscription/suspend' }),
    expect: managersOnly(409),
  },
  resumeSubscription: { request: async () => ({ path: '/subscription/resume' }), expect: managersOnly(409) },
  closeSubscription: {
    request: async () => ({ path: '/subscription/close', body: { remaining: 'keep' } }),
    expect: managersOnly(400),
  },
  // The zone every team already has: each manager sets their own team's, and nothing changes.
  updateTeamTimeZone: {
    request: async () => ({ path: '/team/timeZone', body: { timeZone: 'America/New_York' } }),
    expect: managersOnly('ok'),
  },
  listInvoices: { request: async () => ({ path: '/invoices' }), expect: managersOnly('ok') },
  // Team A's invoice: its manager gets the PDF; the other team's manager is told no such invoice.
  getInvoicePdf: {
    request: async () => ({ path: `/invoices/${matrixInvoice}/pdf` }),
    expect: { ...managersOnly('ok'), otherManager: 404 },
  },
  // Accounting export (issue 26): each manager gets their own team's month (another team's
  // movements are never in it: accountingExport.test.ts).
  exportAccounting: {
    request: async () => ({ path: '/exports/accounting?month=2026-01&format=xero' }),
    expect: managersOnly('ok'),
  },
  // Insights (issue 26): a manager reads their own team's (another team's manager gets their own);
  // the employee their own spend; a purchase's skill area: its owner and their manager, nobody else (404).
  getInsights: {
    request: async () => ({ path: '/insights?from=2026-01&to=2026-03' }),
    expect: managersOnly('ok'),
  },
  getInsightsPeople: {
    request: async () => ({ path: '/insights/people?from=2026-01&to=2026-03' }),
    expect: managersOnly('ok'),
  },
  getInsightsPeopleList: {
    request: async () => ({ path: '/insights/people/all?from=2026-01&to=2026-03&list=quiet' }),
    expect: managersOnly('ok'),
  },
  getMySpend: { request: async () => ({ path: '/me/spend' }), expect: employeesOnly('ok') },
  setPurchaseSkill: {
    request: async () => ({
      path: `/purchases/${PURCHASE_AWAITING}/skill`,
      body: { skillArea: 'Leadership', media: 'book' },
    }),
    expect: teamAEmployeeResource,
  },
  // Monthly e-mails (issue 26, nudges): public, the link's token is the proof; an unknown one is 404 for all.
  unsubscribeEmail: {
    request: async () => ({ path: `/email/unsubscribe?token=${'z'.repeat(43)}`, body: {} }),
    expect: everyone(404),
  },
  // Fund requests (issue 27): team A's employee's one request, asked in beforeAll; their manager and they
  // see it, nobody else (404). The actions need an Idempotency-Key: sent without, refused before anything.
  listRequests: {
    request: async ({ world }) => ({ path: `/requests?requestId=${await matrixRequest(world.employee)}` }),
    expect: teamAEmployeeResource,
  },
  actOnRequest: {
    request: async ({ world }) => ({
      path: '/requests',
      body: { action: 'approve', approvals: [{ requestId: await matrixRequest(world.employee) }] },
    }),
    expect: { ...everyone(400), visitor: 401, deleted: 401 },
  },
  // Issue 28: roster import and offboarding dates.
  importRoster: {
    request: async () => ({
      path: '/roster/import',
      body: {
        rows: [{ line: 2, firstName: 'Rae', lastName: 'Roster', email: uniqueEmail('roster'), budget: '25' }],
      },
    }),
    expect: managersOnly('ok'),
  },
  setLastDay: {
    // Clearing a last day never set: the manager of team A reaches the service; another team's gets 404.
    request: async ({ world }) => ({
      path: `/users/${world.employee.userId}/lastDay`,
      body: { lastDay: null },
    }),
    expect: { ...managersOnly('ok'), otherManager: 404 },
  },
  // Provisioning (SCIM, issue 28): the manager's screen; the SCIM routes take a provisioning
  // token only, so every session token, a manager's too, is refused (test/integration/scim.test.ts).
  getProvisioning: { request: async () => ({ path: '/provisioning' }), expect: managersOnly('ok') },
  createProvisioningToken: {
    request: async () => ({ path: '/provisioning/tokens', body: { name: 'Matrix' } }),
    expect: managersOnly('ok'),
  },
  revokeProvisioningToken: {
    request: async () => ({ path: '/provisioning/tokens/01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
    expect: managersOnly(404),
  },
  updateProvisioningSettings: {
    request: async () => ({ path: '/provisioning/settings', body: { defaultBudget: 25 } }),
    expect: managersOnly('ok'),
  },
  scimServiceProviderConfig: {
    request: async () => ({ path: '/scim/v2/ServiceProviderConfig' }),
    expect: everyone(401),
  },
  scimResourceTypes: { request: async () => ({ path: '/scim/v2/ResourceTypes' }), expect: everyone(401) },
  scimSchemas: { request: async () => ({ path: '/scim/v2/Schemas' }), expect: everyone(401) },
  scimListUsers: { request: async () => ({ path: '/scim/v2/Users' }), expect: everyone(401) },
  scimGetUser: {
    request: async () => ({ path: '/scim/v2/Users/01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
    expect: everyone(401),
  },
  scimCreateUser: {
    request: async () => ({ path: '/scim/v2/Users', body: { userName: uniqueEmail('scim') } }),
    expect: everyone(401),
  },
  scimReplaceUser: {
    request: async () => ({
      path: '/scim/v2/Users/01JZZZZZZZZZZZZZZZZZZZZZZZ',
      body: { userName: uniqueEmail('scim'), active: false },
    }),
    expect: everyone(401),
  },
  scimPatchUser: {
    request: async () => ({
      path: '/scim/v2/Users/01JZZZZZZZZZZZZZZZZZZZZZZZ',
      body: { Operations: [{ op: 'replace', value: { active: false } }] },
    }),
    expect: everyone(401),
  },
  scimDeleteUser: {
    request: async () => ({ path: '/scim/v2/Users/01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
    expect: everyone(401),
  },
  getTeamAudit: { request: async () => ({ path: '/team/audit' }), expect: managersOnly('ok') },
  getTeamLedger: { request: async () => ({ path: '/team/ledger' }), expect: managersOnly('ok') },
  // Each manager gets their own team's file (another team's purchases are never in it: exportCsv.test.ts).
  exportTeamPurchases: {
    request: async () => ({ path: '/team/purchases.csv?from=2026-01&to=2026-03' }),
    expect: managersOnly('ok'),
  },
  getBalance: { request: async () => ({ path: '/me/balance' }), expect: employeesOnly('ok') },
  getStatement: { request: async () => ({ path: '/me/statement' }), expect: employeesOnly('ok') },
  // The world's teams never set up billing, so no employee has a card yet.
  getCardKey: { request: async () => ({ path: '/me/cardKey', body: {} }), expect: employeesOnly(404) },
  // No card yet (the world's teams never set up billing): an employee gets 404, a manager 403.
  checkPurchase: {
    request: async () => ({ path: '/me/purchaseCheck?amountCents=1000&merchantCategory=book_stores' }),
    expect: employeesOnly(404),
  },
  stripeWebhook: {
    // No Stripe signature: refused before anything is read, whoever is signed in.
    request: async () => ({ path: '/webhooks/stripe', body: { type: 'issuing_authorization.request' } }),
    expect: everyone(400),
  },
  // The same catalogue for every signed-in role; visitors and the deleted are out.
  getCatalogue: { request: async () => ({ path: '/catalogue' }), expect: anySignedIn },
  // Shop analytics: anyone signed in records their own view of an item in the catalogue.
  recordItemView: {
    request: async () => ({ path: `/catalogue/${MATRIX_ITEM_ID}/views`, body: {} }),
    expect: anySignedIn,
  },
  getMe: {
    request: async () => ({ path: '/me' }),
    expect: anySignedIn,
  },
  finishWalkthrough: { request: async () => ({ path: '/me/walkthrough', body: {} }), expect: anySignedIn },
  // Each caller sees their own purchases or their own team's.
  listPurchases: { request: async () => ({ path: '/purchases' }), expect: anySignedIn },
  createReceiptUpload: {
    request: async () => ({
      path: `/purchases/${PURCHASE_AWAITING}/receipt/upload`,
      body: { contentType: 'image/png', size: 1000, fileName: 'r.png' },
    }),
    expect: ownEmployeeOnly('ok'),
  },
  // Nothing was uploaded under this id: the purchase's employee hears so (422); nobody else gets that far.
  confirmReceipt: {
    request: async () => ({
      path: `/purchases/${PURCHASE_AWAITING}/receipt`,
      body: { uploadId: '01JZZZZZZZZZZZZZZZZZZZZZZZ', title: 'Book', fileName: 'r.png' },
    }),
    expect: ownEmployeeOnly(422),
  },
  getReceiptUrl: {
    request: async () => ({ path: `/purchases/${PURCHASE_WITH_RECEIPT}/receipt` }),
    expect: teamAEmployeeResource,
  },
};

/** A free-form request (`ask`). */
function matrixRequestBody() {
  return {
    action: 'ask',
    title: `Matrix course ${Math.random().toString(36).slice(2)}`,
    merchant: 'Matrix Books',
    amount: '12.50',
    why: 'For the matrix',
    skillArea: 'Leadership',
  };
}

async function newMatrixRequest(employee: SignedIn): Promise<string> {
  const res = await api(stack.apiUrl, 'POST', '/requests', {
    token: employee.accessToken,
    body: matrixRequestBody(),
    idempotencyKey: `matrix-${Math.random().toString(36).slice(2)}`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.request.requestId as string;
}

let sharedRequest: Promise<string> | undefined;
/** One pending request of team A's employee, made once. */
function matrixRequest(employee: SignedIn): Promise<string> {
  sharedRequest ??= newMatrixRequest(employee);
  return sharedRequest;
}

/** Team A's employee's purchases, written as the settlement writes them. */
const PURCHASE_AWAITING = `ipi_matrix_awaiting_${Date.now()}`;
const PURCHASE_WITH_RECEIPT = `ipi_matrix_receipt_${Date.now()}`;

async function putPurchase(purchaseId: string, employee: SignedIn, withReceipt: boolean) {
  const user = await stack.getItem(keys.user(employee.userId));
  const teamId = user?.teamId as string;
  const createdAt = new Date().toISOString();
  await stack.doc.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: purchaseItem({
        purchaseId,
        userId: employee.userId,
        teamId,
        cardId: 'ic_matrix',
        amountCents: 1234,
        merchant: 'Matrix Books',
        category: 'book_stores',
        createdAt,
        receiptStatus: withReceipt ? 'received' : 'awaiting',
        ...(withReceipt
          ? {
              title: 'A book',
              receipt: {
                key: `receipts/${teamId}/${purchaseId}/01JZZZZZZZZZZZZZZZZZZZZZZZ`,
                contentType: 'image/png',
                size: 100,
                uploadedAt: createdAt,
                uploadedBy: employee.userId,
              },
            }
          : {}),
      }),
    }),
  );
}

/** Team A's one invoice (stored as a billing run stores it), set in beforeAll. */
let matrixInvoice = '';

async function putInvoice(manager: SignedIn) {
  const user = await stack.getItem(keys.user(manager.userId));
  const { invoice } = await recordInvoice({
    teamId: user?.teamId as string,
    sourceId: 'ch_matrix',
    kind: 'invoice',
    issuedAt: new Date().toISOString(),
    billTo: { name: 'Matrix Co', attention: 'M. Manager', email: manager.email, addressLines: [] },
    lines: [{ description: 'First learning budget: M. Employee', amountCents: 5000 }],
    totalCents: 5000,
    chargeIds: ['ch_matrix'],
  });
  matrixInvoice = invoice.number;
}

let stack: IntegrationStack;
let world: World;
/** One catalogue item, imported in beforeAll, for routes about an item. */
const MATRIX_ITEM_ID = 'matrix-item';

beforeAll(async () => {
  stack = await startIntegrationStack();
  const { importCatalogue } = await import('../../lambdas/src/services/shop/catalogue');
  await importCatalogue([
    {
      id: MATRIX_ITEM_ID,
      name: 'Matrix Item',
      author: 'A. Author',
      category: 'Leadership',
      trait: 'Vision',
      media: 'book',
      rating: 0,
      totalReviews: 0,
      year: 2020,
      affiliateLinks: { amazon: 'https://www.amazon.com/s?k=matrix' },
    },
  ]);
  const manager = await registerManager(stack.apiUrl, stack.mailbox);
  const otherManager = await registerManager(stack.apiUrl, stack.mailbox);
  const [employee, otherEmployee, deleted] = await Promise.all([
    inviteAndRegisterEmployee(stack.apiUrl, manager),
    inviteAndRegisterEmployee(stack.apiUrl, otherManager),
    inviteAndRegisterEmployee(stack.apiUrl, manager),
  ]);
  // Employees verify too, so only roles and teams decide the answers below.
  for (const person of [employee, otherEmployee, deleted]) {
    const { linkToken } = await import('../support/accountFlows');
    const token = await linkToken(stack.mailbox, person.email, '/verify');
    expect((await api(stack.apiUrl, 'POST', '/auth/verifyEmail', { body: { token } })).status).toBe(200);
  }
  expect(
    (await api(stack.apiUrl, 'DELETE', `/users/${deleted.userId}`, { token: manager.accessToken })).status,
  ).toBe(200);
  world = { manager, employee, otherManager, otherEmployee, deleted };
  await putPurchase(PURCHASE_AWAITING, employee, false);
  await putPurchase(PURCHASE_WITH_RECEIPT, employee, true);
  await putInvoice(world.manager);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('access matrix', () => {
  it('has a row for every route in the route table, and no other', () => {
    expect(Object.keys(matrix).sort()).toEqual([...operationIds].sort());
  });

  const cases = operationIds.flatMap((op) => actorKinds.map((actor) => [op, actor] as const));
  it.each(cases)('%s called by %s', async (op, actor) => {
    const row = matrix[op];
    const { path, body, cookie } = await row.request({
      world,
      fresh: () => inviteAndRegisterEmployee(stack.apiUrl, world.manager),
    });
    const token = actor === 'visitor' ? undefined : world[actor].accessToken;
    const res = await api(stack.apiUrl, routes[op].method, path, { token, body, cookie });
    const expected = row.expect[actor];
    if (expected === 'ok') expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
    if (expected === 'ok') expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    else expect(res.status, JSON.stringify(res.body)).toBe(expected);
  });
});
