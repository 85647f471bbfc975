/**
 * Demo data for `npm start` and the browser tests: a verified manager whose
 * team has billing set up, a verified employee with a funded card, and a few
 * more people in every state a manager can meet (active, paused, frozen card,
 * invited, deleted with money left in the pool), so each bulk action can be
 * tried at once. All of it is made through the same services the API uses
 * (registration, setup, invitation, sign-up with its charge, card and ledger
 * credit, pause, freeze, delete, a roster row starting later, a last day),
 * never by writing records directly. Running
 * it again changes nothing. The catalogue is imported from
 * shared/data/catalogue.jsonl with the same import as `npm run catalogue:import`
 * (unchanged items are not rewritten, so a start with no edits costs a few reads).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dayIn } from '@shared/domain/calendar';
import { describeLineError } from '@shared/schemas/catalogue';
import { getEmailOwner, getInvitation, getTeamZone } from '../../lambdas/src/data/accounts';
import { issueEmailToken, issueInvitationToken } from '../../lambdas/src/data/emailTokens';
import { backfillInsights } from '../../lambdas/src/data/insightBackfill';
import { splitSharedAccounts } from '../../lambdas/src/data/ledgerMigrations';
import { indexAwaitingReceipts } from '../../lambdas/src/data/receiptIndexMigration';
import { listUserRequests } from '../../lambdas/src/data/requests';
import { getScheduledStart } from '../../lambdas/src/data/roster';
import { getUser } from '../../lambdas/src/data/users';
import { createLogger } from '../../lambdas/src/platform/log';
import { decidedEachRun } from '../../lambdas/src/platform/requestSteps';
import {
  registerEmployee,
  registerManager,
  updateProfile,
  verifyEmail,
} from '../../lambdas/src/services/accounts';
import {
  deleteEmployees,
  importRoster,
  inviteEmployees,
  setCardStatus,
  setLastDay,
  setPaused,
} from '../../lambdas/src/services/employees';
import { listPurchases } from '../../lambdas/src/services/purchases';
import { confirmReceipt, createReceiptUpload } from '../../lambdas/src/services/receipts';
import {
  approveRequests,
  cancelRequest,
  createRequest,
  declineRequest,
  expireRequests,
} from '../../lambdas/src/services/requests';
import { finalizeSetup } from '../../lambdas/src/services/setup';
import { importCatalogueText, recordItemView } from '../../lambdas/src/services/shop';
import type { LogSink } from './processes';
import { DEFAULT_AUTO_CAPTURE_DELAY_MS, type EmulatorAdmin } from './stripe';

export const CATALOGUE_FILE = 'shared/data/catalogue.jsonl';

export const DEMO_MANAGER = {
  email: 'manager@demo.test',
  password: 'demo-manager-pass',
  firstName: 'Maya',
  lastName: 'Patel',
  company: 'Northwind Learning',
};

export const DEMO_EMPLOYEE = {
  email: 'employee@demo.test',
  password: 'demo-employee-pass',
  firstName: 'Sam',
  lastName: 'Rivera',
  zip: '94110',
  budgetDollars: 25,
  /** Their monthly nudge (issue 26) picks from the areas an engineer gets most from. */
  jobRole: 'Engineering',
} as const;

async function verify(userId: string, now: Date) {
  // The same redemption the e-mailed link triggers; a member's joining (charge, card, funding) follows it.
  const token = await issueEmailToken('verifyEmail', userId, now);
  await verifyEmail(token, now, createLogger({ seed: true }));
}

/** A link for the person's pending invitation, as the invitation e-mail carries: sign-up needs one. */
async function invitationToken(email: string, now: Date): Promise<string> {
  const invitation = await getInvitation(email, true);
  if (!invitation) throw new Error(`demo invitation for ${email} missing`);
  return issueInvitationToken(invitation, now);
}

/** Everyone else on the demo team, one or more per state; they sign in with DEMO_EMPLOYEE's password. */
export const DEMO_TEAM = [
  { email: 'priya@demo.test', firstName: 'Priya', lastName: 'Shah', budgetDollars: 50, state: 'active' },
  { email: 'leo@demo.test', firstName: 'Leo', lastName: 'Martin', budgetDollars: 25, state: 'paused' },
  { email: 'ana@demo.test', firstName: 'Ana', lastName: 'Costa', budgetDollars: 40, state: 'frozen' },
  { email: 'omar@demo.test', firstName: 'Omar', lastName: 'Haddad', budgetDollars: 30, state: 'deleted' },
  { email: 'jordan@demo.test', firstName: 'Jordan', lastName: '', budgetDollars: 25, state: 'invited' },
  { email: 'kim@demo.test', firstName: 'Kim', lastName: '', budgetDollars: 25, state: 'invited' },
] as const;

/** The demo team pays with Stripe's always-succeeding test card, tokenized by the emulator. */
export const DEMO_BILLING = {
  businessName: 'Northwind Learning Inc.',
  token: 'tok_visa',
  billingAddress: { address1: '500 Howard St', city: 'San Francisco', state: 'CA', zip: '94105' },
};

/** Makes the local table's catalogue equal to the file; refuses (and says why) if the file is invalid. */
export async function seedCatalogue(log: LogSink, file = resolve(CATALOGUE_FILE)): Promise<void> {
  const result = await importCatalogueText(readFileSync(file, 'utf8'));
  if (!result.ok) {
    const shown = result.errors.slice(0, 10).map(describeLineError).join('; ');
    throw new Error(`${file} is invalid (${result.errors.length} problems): ${shown}`);
  }
  if (result.added + result.updated + result.removed > 0) {
    log(`catalogue: ${result.added} added, ${result.updated} updated, ${result.removed} removed`);
  }
}

/**
 * Brings data kept in `.local-data/` from an earlier version up to this one,
 * before anything reads it. Each step is idempotent, so every start runs them all.
 */
export async function upgradeData(log: LogSink): Promise<void> {
  // Issue 12: the shared network and revenue accounts became per-team accounts.
  const split = await splitSharedAccounts();
  if (split.posted > 0)
    log(
      `ledger: moved ${split.posted} shared network/revenue balances to ${split.teams} teams' own accounts`,
    );
  // Purchases awaiting a receipt are listed in the sparse gsi3 (ensureTable adds the index to an old table).
  const receipts = await indexAwaitingReceipts();
  if (receipts.indexed + receipts.unlisted > 0)
    log(
      `receipts: listed ${receipts.indexed} purchases awaiting a receipt in gsi3, took out ${receipts.unlisted} received`,
    );
  // Issue 26: the insights aggregates of money that moved before they were kept.
  const insights = await backfillInsights();
  if (insights.added + insights.listed + insights.copied > 0)
    log(
      `insights: added the aggregates of ${insights.added} earlier ledger entries, listed ${insights.listed} people by their dormancy clock, copied ${insights.copied} person-months to the people shards (${insights.teams} teams)`,
    );
}

export async function seedDemo(log: LogSink): Promise<void> {
  await upgradeData(log);
  await seedCatalogue(log);
  const now = new Date();
  const lambdaLog = createLogger({ seed: true });
  let managerId = await getEmailOwner(DEMO_MANAGER.email);
  if (!managerId) {
    ({ userId: managerId } = await registerManager(DEMO_MANAGER, now));
    await verify(managerId, now);
    const manager = await getUser(managerId);
    if (!manager) throw new Error('demo manager record missing');
    await finalizeSetup({ ...manager, emailVerified: true }, DEMO_BILLING, now, lambdaLog, decidedEachRun);
    log(`demo manager ${DEMO_MANAGER.email} created, billing set up`);
  }
  if (!(await getEmailOwner(DEMO_EMPLOYEE.email))) {
    const manager = await getUser(managerId);
    if (!manager) throw new Error('demo manager record missing');
    await inviteEmployees(
      { ...manager, emailVerified: true },
      { emails: [DEMO_EMPLOYEE.email], budget: DEMO_EMPLOYEE.budgetDollars * 100 },
      now,
    );
    // Verifying (below) charges the budget, issues the card and credits it through the ledger.
    const token = await invitationToken(DEMO_EMPLOYEE.email, now);
    const { userId } = await registerEmployee({ ...DEMO_EMPLOYEE, token }, now, lambdaLog);
    await verify(userId, now);
    const employee = await getUser(userId);
    if (employee) {
      const { firstName, lastName, jobRole } = DEMO_EMPLOYEE;
      await updateProfile(
        { ...employee, emailVerified: true },
        { userId, firstName, lastName, jobRole },
        now,
      );
    }
    log(`demo employee ${DEMO_EMPLOYEE.email} created with a funded card`);
  }
  await seedTeamStates(managerId, now, log);
  await seedDemoRequests(managerId, now, log);
  await seedPeopleSchedule(managerId, now, log);
}

/**
 * The demo employee's fund requests, one in each state a person meets
 * (waiting, approved, declined, cancelled, expired), made and decided through
 * the requests service as the screens do: the approval is a real extra
 * deposit, charged to the demo team's card. Skipped once they have any.
 */
async function seedDemoRequests(managerId: string, now: Date, log: LogSink) {
  const lambdaLog = createLogger({ seed: true });
  const employeeId = await getEmailOwner(DEMO_EMPLOYEE.email);
  const [manager, employee] = await Promise.all([
    getUser(managerId),
    employeeId ? getUser(employeeId) : undefined,
  ]);
  if (!manager || !employee?.cardId || (await listUserRequests(employee.userId)).length > 0) return;
  const boss = { ...manager, emailVerified: true };
  const asker = { ...employee, emailVerified: true };
  const freeForm = (title: string, merchant: string, amount: string, why: string) => ({
    title,
    merchant,
    amount: Math.round(Number(amount) * 100),
    why,
    skillArea: 'Communication' as const,
  });
  // Expired: asked 15 days ago, never answered; the daily job marks it.
  const longAgo = new Date(now.getTime() - 15 * 24 * 3600 * 1000);
  await createRequest(
    asker,
    freeForm('Storytelling for Leaders', 'Udemy', '39.99', 'Our demos need a story.'),
    longAgo,
    lambdaLog,
  );
  await expireRequests(now, lambdaLog);
  const approved = await createRequest(
    asker,
    { itemId: 'managing-as-a-coach-coursera', amount: 4900, why: 'Coaching is half of my new role.' },
    now,
    lambdaLog,
  );
  await approveRequests(
    boss,
    { approvals: [{ requestId: approved.request.requestId }] },
    `seed-approve-${approved.request.requestId}`,
    now,
    lambdaLog,
    decidedEachRun,
  );
  const declined = await createRequest(
    asker,
    freeForm('LeadDev London ticket', 'LeadDev', '450', 'Two days of talks on leading engineers.'),
    now,
    lambdaLog,
  );
  await declineRequest(boss, declined.request.requestId, 'Not this quarter: ask again in January.', now);
  const cancelled = await createRequest(
    asker,
    freeForm('Public Speaking Bootcamp', 'Coursera', '79', 'To present at the all-hands.'),
    now,
    lambdaLog,
  );
  await cancelRequest(asker, cancelled.request.requestId, now);
  await createRequest(
    asker,
    {
      ...freeForm('Negotiation Masterclass', 'MasterClass', '180', 'Our renewals need it.'),
      link: 'https://www.masterclass.com/classes/negotiation',
    },
    now,
    lambdaLog,
  );
  log('demo requests: waiting, approved, declined, cancelled, expired');
}

/** A roster row starting in two weeks (scheduled, invited by the daily job then). */
export const DEMO_SCHEDULED_START = {
  email: 'noor@demo.test',
  firstName: 'Noor',
  lastName: 'Ali',
  budgetDollars: 35,
  inDays: 14,
};
/** Priya's last day, a month ahead: shown in the Employees table, removed by the daily job on it. */
const DEMO_LAST_DAY_IN_DAYS = 30;

function daysAhead(now: Date, zone: string, n: number): string {
  const t = new Date(`${dayIn(now, zone)}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

/**
 * Issue 28's demo: one scheduled start (imported as a roster file's row is)
 * and a last day on Priya, each only once (the import is idempotent itself).
 */
async function seedPeopleSchedule(managerId: string, now: Date, log: LogSink) {
  const manager = await getUser(managerId);
  if (!manager) throw new Error('demo manager record missing');
  const actor = { ...manager, emailVerified: true };
  const zone = await getTeamZone(manager.teamId);
  const start = DEMO_SCHEDULED_START;
  if (!(await getScheduledStart(manager.teamId, start.email)) && !(await getEmailOwner(start.email))) {
    const startDate = daysAhead(now, zone, start.inDays);
    await importRoster(
      actor,
      {
        preview: false,
        rows: [
          {
            line: 2,
            firstName: start.firstName,
            lastName: start.lastName,
            email: start.email,
            budget: String(start.budgetDollars),
            startDate,
          },
        ],
      },
      now,
    );
    log(`demo scheduled start: ${start.email} on ${startDate}`);
  }
  const priyaId = await getEmailOwner('priya@demo.test');
  const priya = priyaId ? await getUser(priyaId) : undefined;
  if (priya && !priya.lastDay && priya.status !== 'deleted') {
    const lastDay = daysAhead(now, zone, DEMO_LAST_DAY_IN_DAYS);
    await setLastDay(actor, { userId: priya.userId, lastDay }, now);
    log(`demo last day: ${priya.email} on ${lastDay}`);
  }
}

/** Invites and signs up DEMO_TEAM, then moves each into its state, as the manager would. */
async function seedTeamStates(managerId: string, now: Date, log: LogSink) {
  const lambdaLog = createLogger({ seed: true });
  const manager = await getUser(managerId);
  if (!manager) throw new Error('demo manager record missing');
  const actor = { ...manager, emailVerified: true };
  const missing = [];
  for (const person of DEMO_TEAM) {
    if (!(await getEmailOwner(person.email)) && !(await getInvitation(person.email))) missing.push(person);
  }
  if (missing.length === 0) return;
  for (const person of missing) {
    await inviteEmployees(actor, { emails: [person.email], budget: person.budgetDollars * 100 }, now);
    if (person.state === 'invited') continue;
    const { userId } = await registerEmployee(
      {
        email: person.email,
        password: DEMO_EMPLOYEE.password,
        firstName: person.firstName,
        lastName: person.lastName,
        zip: '94110',
        token: await invitationToken(person.email, now),
      },
      now,
      lambdaLog,
    );
    await verify(userId, now);
    if (person.state === 'paused') await setPaused(actor, [userId], 'pause', now);
    if (person.state === 'frozen') await setCardStatus(actor, [userId], 'inactive', now);
    // Deleting moves the person's funded budget into the team pool, ready to reallocate or redeem.
    if (person.state === 'deleted') await deleteEmployees(actor, [userId], now);
  }
  log(`demo team: ${missing.map((p) => `${p.firstName} (${p.state})`).join(', ')}`);
}

/**
 * The demo's receipt: a picture of a real-looking receipt for the Audible purchase (21 KB,
 * well under the 150,000-byte limit), so the receipt dialog shows what a customer would upload.
 */
const DEMO_RECEIPT_PNG = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'demo-receipt.png'));

/**
 * Purchases for the demo (after the gateway is up: the card network asks it to
 * decide each one). The demo employee pays at two merchants with their card
 * through the emulator's network, and sends the receipt of one the way the
 * browser does (presigned POST to the bucket, then the confirm call), so both
 * 'Awaiting Receipt' and a viewable receipt are there to try; then a hold not
 * yet captured and a course above the balance, declined.
 */
export async function seedDemoPurchases(network: EmulatorAdmin, log: LogSink): Promise<void> {
  const userId = await getEmailOwner(DEMO_EMPLOYEE.email);
  const employee = userId ? await getUser(userId) : undefined;
  if (!employee?.cardId) return;
  const actor = { ...employee, emailVerified: true };
  const now = new Date();
  if ((await listPurchases(actor, { limit: 1 }, now)).purchases.length > 0) return;

  const details = network.cardDetails(employee.cardId);
  const pay = (amount: number, name: string, category: string) =>
    network.authorize({
      number: details.number,
      expMonth: details.exp_month,
      expYear: details.exp_year,
      cvc: details.cvc,
      amount,
      merchant: { name, category },
    });
  // The employee opened the audiobook in the shop first: the Audible purchase gets its skill area
  // (Execution, audiobook) inferred (issue 26); the bookshop's stays Uncategorised.
  await recordItemView(actor, 'atomic-habits-audiobook', new Date(now.getTime() - 60_000));
  // Small amounts: most of the $25 budget stays to try the checkout and the shop with.
  await pay(399, 'Audible', 'digital_goods_media');
  await pay(649, 'Powell’s Books', 'book_stores');
  await network.idle();

  const { purchases } = await listPurchases(actor, { limit: 10 }, new Date());
  const audible = purchases.find((p) => p.vendor === 'Audible');
  if (audible) {
    const fileName = 'audible-receipt.png';
    const upload = await createReceiptUpload(
      actor,
      { purchaseId: audible.purchaseId, contentType: 'image/png', size: DEMO_RECEIPT_PNG.length, fileName },
      new Date(),
    );
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(DEMO_RECEIPT_PNG)], { type: 'image/png' }), fileName);
    const stored = await fetch(upload.url, { method: 'POST', body: form });
    if (!stored.ok) throw new Error(`demo receipt upload answered ${stored.status}`);
    await confirmReceipt(
      actor,
      {
        purchaseId: audible.purchaseId,
        uploadId: upload.uploadId,
        title: 'Atomic Habits (audiobook)',
        fileName,
      },
      new Date(),
    );
  }
  // One hold the merchant has not captured yet: purchase history shows it as pending.
  network.setAutoCapture(false);
  try {
    await pay(250, 'Udemy', 'digital_goods_media');
    await network.idle();
  } finally {
    network.setAutoCapture(DEFAULT_AUTO_CAPTURE_DELAY_MS);
  }
  // One course above the balance: declined, and listed as such in Purchase History and the Statement.
  await pay(12000, 'Coursera', 'digital_goods_media');
  await network.idle();
  log(
    `demo purchases: ${purchases.length} (one with its receipt, one awaiting it), one pending and one declined`,
  );
}
