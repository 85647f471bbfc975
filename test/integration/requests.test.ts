/**
 * Fund requests (issue 27), over real HTTP on DynamoDB Local and the Stripe
 * emulator: an employee asks, the manager approves (an extra deposit charged
 * to the team's card) or declines. Approving is idempotent (the same key twice,
 * two tabs at once), refused for paused, removed and dormant people, and a
 * declined card leaves the request pending with nothing charged. Nobody sees
 * or acts on another's requests; the team's rule approves within its monthly
 * room; 14 days unanswered expire. The team's books keep every ledger
 * invariant throughout (test/support/ledgerInvariants.ts).
 */
import { randomUUID } from 'node:crypto';
import { jobFile } from '@shared/api/schedules';
import { cardAccount } from '@shared/domain/ledger';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUserFields } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf } from '../../lambdas/src/data/ledger';
import type { SignedIn } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { holdClock, releaseClock } from '../support/productClock';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;
const ITEM_ID = 'requests-leadership-course';

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  send = sender(stack);
  const { importCatalogue } = await import('../../lambdas/src/services/shop/catalogue');
  await importCatalogue([
    {
      id: ITEM_ID,
      name: 'Leading Teams: the course',
      author: 'A. Author',
      category: 'Leadership',
      trait: 'Vision',
      media: 'course',
      priceCents: 29900,
      rating: 4.5,
      totalReviews: 10,
      year: 2024,
      affiliateLinks: { udemy: 'https://www.udemy.com/course/leading-teams' },
    },
  ]);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});
afterEach(() => releaseClock());

/** A team with billing, one employee with a $25 budget, and its books' invariant checker. */
async function team() {
  const t = await setUpTeam(stack);
  const employee = await joinTeam(stack, t.manager, 25);
  const books = new LedgerInvariants(stack, t.teamId);
  return { ...t, employee, books };
}

/** POST /requests: one action, with its Idempotency-Key. */
function act(user: SignedIn, body: Record<string, unknown>, key = randomUUID()) {
  return send('POST', '/requests', user.accessToken, body, key);
}

/** GET /requests?requestId=: that one request, as the caller may see it. */
async function one(user: SignedIn, requestId: string) {
  return send('GET', `/requests?requestId=${requestId}`, user.accessToken);
}

function ask(employee: SignedIn, body: Record<string, unknown> = {}) {
  return act(employee, {
    action: 'ask',
    title: `Negotiation workshop ${randomUUID().slice(0, 8)}`,
    merchant: 'Coursera',
    amount: '60.00',
    why: 'Our renewals need it',
    skillArea: 'Communication',
    ...body,
  });
}

async function asked(employee: SignedIn, body: Record<string, unknown> = {}) {
  const res = await ask(employee, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.request as { requestId: string; title: string; state: string };
}

function approve(manager: SignedIn, approvals: { requestId: string; amount?: string }[], key = randomUUID()) {
  return act(manager, { action: 'approve', approvals }, key);
}

async function succeededCharges(customerId: string) {
  const charges = (await stripe.charges.list({ customer: customerId, limit: 100 })).data;
  return charges.filter((c) => c.status === 'succeeded');
}

async function stateOf(requestId: string) {
  return (await stack.getItem(keys.request(requestId)))?.state;
}

describe('asking', () => {
  it('e-mails the manager a link that opens the request, and only one request per item is open', async () => {
    const { manager, employee } = await team();
    const request = await asked(employee, { itemId: ITEM_ID, amount: '299.00' });
    expect(request).toMatchObject({ state: 'pending', title: 'Leading Teams: the course' });
    const mail = (await stack.mailbox.to(manager.email)).find((m) => m.subject.includes('asks for $299.00'));
    expect(mail?.body.text).toContain(`/dashboard/requests/${request.requestId}`);
    expect(mail?.body.text).toContain('Why: Our renewals need it');

    const again = await ask(employee, { itemId: ITEM_ID, amount: '299.00' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(
      'You already have an open request for this item: see it on your Requests page.',
    );
    // Cancelled, it may be asked again.
    const cancel = await act(employee, { action: 'cancel', requestId: request.requestId });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.request.state).toBe('cancelled');
    expect((await ask(employee, { itemId: ITEM_ID, amount: '299.00' })).status).toBe(200);
    const mine = await send('GET', '/requests', employee.accessToken);
    expect(mine.body.requests.map((r: { state: string }) => r.state)).toEqual(['pending', 'cancelled']);
  });
});

describe('approving', () => {
  it('credits the employee once, labelled with the request in both statements, however often it is approved', async () => {
    const { manager, employee, customerId, books } = await team();
    await books.check('joined', [employee.userId]);
    const request = await asked(employee, { title: 'Negotiation Masterclass' });
    const before = (await succeededCharges(customerId)).length;

    const key = randomUUID();
    const first = await approve(manager, [{ requestId: request.requestId }], key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.results[0]).toMatchObject({ status: 'approved', request: { state: 'approved' } });
    // The same click again (a retry), and again from another tab (a new key).
    const retry = await approve(manager, [{ requestId: request.requestId }], key);
    expect(retry.body).toEqual(first.body);
    const otherTab = await approve(manager, [{ requestId: request.requestId }]);
    expect(otherTab.body.results[0]).toMatchObject({ status: 'approved' });

    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500 + 6000);
    const charges = await succeededCharges(customerId);
    expect(charges.length - before).toBe(1);
    expect(charges[0]?.description).toContain('Negotiation Masterclass');
    const statement = await send('GET', '/me/statement', employee.accessToken);
    expect(JSON.stringify(statement.body)).toContain('Extra deposit: Negotiation Masterclass');
    const ledger = await send('GET', '/team/ledger', manager.accessToken);
    expect(JSON.stringify(ledger.body)).toContain('Negotiation Masterclass');
    const employeeMail = await stack.mailbox.to(employee.email);
    expect(
      employeeMail.filter((m) => m.subject === 'Approved: $60.00 for Negotiation Masterclass'),
    ).toHaveLength(1);
    const audit = await send('GET', '/team/audit', manager.accessToken);
    const actions = JSON.stringify(audit.body);
    expect(actions).toContain('request.created');
    expect(actions).toContain('request.approved');
    await books.check('approved', [employee.userId], { everyStatement: true });
  });

  it('two approvals at once charge and credit once', async () => {
    const { manager, employee, customerId, books } = await team();
    const request = await asked(employee);
    const before = (await succeededCharges(customerId)).length;
    const answers = await Promise.all([
      approve(manager, [{ requestId: request.requestId }]),
      approve(manager, [{ requestId: request.requestId }]),
    ]);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(answers.some((a) => a.body.results[0].status === 'approved')).toBe(true);
    expect((await succeededCharges(customerId)).length - before).toBe(1);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500 + 6000);
    expect(await stateOf(request.requestId)).toBe('approved');
    await books.check('raced', [employee.userId], { everyStatement: true });
  });

  it('approves a smaller amount, never a larger one, and several at once', async () => {
    const { manager, employee } = await team();
    const a = await asked(employee);
    const b = await asked(employee, { amount: '15' });
    const more = await approve(manager, [{ requestId: a.requestId, amount: '61' }]);
    expect(more.body.results[0]).toMatchObject({
      status: 'refused',
      message: 'Approve at most the $60.00 asked.',
    });
    const both = await approve(manager, [
      { requestId: a.requestId, amount: '40.50' },
      { requestId: b.requestId },
    ]);
    expect(both.body.results.map((r: { status: string }) => r.status)).toEqual(['approved', 'approved']);
    expect(both.body.results[0].request.approvedCents).toBe(4050);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500 + 4050 + 1500);
  });

  it('is refused for paused, removed and dormant people, nothing charged, the request still pending', async () => {
    const { manager, employee, customerId } = await team();
    const dormant = await joinTeam(stack, manager, 25);
    const removed = await joinTeam(stack, manager, 25);
    const pausedRequest = await asked(employee);
    const dormantRequest = await asked(dormant);
    const removedRequest = await asked(removed);
    const pause = await send('POST', '/employees/pause', manager.accessToken, {
      userIds: [employee.userId],
      action: 'pause',
    });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    // As the dormancy job leaves a person a year without purchases: paused, the card inactive.
    await setUserFields(dormant.userId, {
      status: 'paused',
      dormancy: { deactivatedAt: new Date().toISOString() },
    });
    expect((await send('DELETE', `/users/${removed.userId}`, manager.accessToken)).status).toBe(200);
    const before = (await succeededCharges(customerId)).length;

    const res = await approve(manager, [
      { requestId: pausedRequest.requestId },
      { requestId: dormantRequest.requestId },
      { requestId: removedRequest.requestId },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.map((r: { status: string; message: string }) => [r.status, r.message])).toEqual([
      ['refused', 'They are paused: unpause them on the Employees page first. Nothing was charged.'],
      [
        'refused',
        'Their card is inactive after a year without purchases: reactivate them on the Employees page first. Nothing was charged.',
      ],
      ['refused', 'They are no longer on your team, so nothing was charged.'],
    ]);
    expect((await succeededCharges(customerId)).length).toBe(before);
    for (const r of [pausedRequest, dormantRequest, removedRequest])
      expect(await stateOf(r.requestId)).toBe('pending');
  });

  it('a declined card leaves the request pending with the reason and nothing charged; the next approval charges', async () => {
    const { manager, employee, books } = await team();
    const token = manager.accessToken;
    const request = await asked(employee);
    const url = new URL(stack.stripe?.url as string);
    const browser = new Stripe('pk_test_requests', { host: url.hostname, port: url.port, protocol: 'http' });
    const card = await browser.tokens.create({
      card: { number: '4000000000000341', exp_month: '12', exp_year: '2031', cvc: '123' },
    } as Stripe.TokenCreateParams);
    const added = await send('POST', '/billing/cards', token, { token: card.id }, `card-${card.id}`);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const good = added.body.defaultCardId as string;
    const declining = added.body.cards.find((c: { id: string }) => c.id !== good);
    expect((await send('PUT', '/billing/customer', token, { defaultCardId: declining.id })).status).toBe(200);

    const declined = await approve(manager, [{ requestId: request.requestId }]);
    expect(declined.body.results[0]).toMatchObject({
      status: 'cardDeclined',
      request: { state: 'pending', cardDecline: expect.any(String) },
    });
    expect(declined.body.results[0].message).toMatch(
      /^The team's card was declined, so nothing was charged: /,
    );
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500);
    expect(await stateOf(request.requestId)).toBe('pending');
    await books.check('declined', [employee.userId]);

    expect((await send('PUT', '/billing/customer', token, { defaultCardId: good })).status).toBe(200);
    const approved = await approve(manager, [{ requestId: request.requestId }]);
    expect(approved.body.results[0]).toMatchObject({ status: 'approved' });
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500 + 6000);
    await books.check('approved after decline', [employee.userId], { everyStatement: true });
  });
});

describe('access', () => {
  it('nobody sees or acts on requests that are not theirs or their team’s', async () => {
    const a = await team();
    const b = await team();
    const colleague = await joinTeam(stack, a.manager, 25);
    const request = await asked(a.employee);
    const id = request.requestId;
    // Another team's employee and manager: no such request.
    expect((await one(b.employee, id)).status).toBe(404);
    expect((await act(b.employee, { action: 'cancel', requestId: id })).status).toBe(404);
    expect((await one(b.manager, id)).status).toBe(404);
    expect((await approve(b.manager, [{ requestId: id }])).status).toBe(404);
    expect((await act(b.manager, { action: 'decline', requestId: id, reason: 'no' })).status).toBe(404);
    const theirList = await send('GET', '/requests', b.manager.accessToken);
    expect(theirList.body.requests).toEqual([]);
    // A colleague on the same team: neither sees nor cancels it.
    expect((await one(colleague, id)).status).toBe(404);
    expect((await act(colleague, { action: 'cancel', requestId: id })).status).toBe(404);
    expect((await send('GET', '/requests', colleague.accessToken)).body.requests).toEqual([]);
    // The employee cannot approve (their own or any): managers only. A manager cannot ask.
    expect((await approve(a.employee, [{ requestId: id }])).status).toBe(403);
    expect((await ask(a.manager)).status).toBe(403);
    expect(await stateOf(id)).toBe('pending');
    // Their own manager sees it and declines it with a reason; the employee is told.
    const list = await send('GET', '/requests?state=pending', a.manager.accessToken);
    expect(list.body.requests.map((r: { requestId: string }) => r.requestId)).toEqual([id]);
    const declined = await act(a.manager, { action: 'decline', requestId: id, reason: 'Not this quarter' });
    expect(declined.body.request).toMatchObject({ state: 'declined', declineReason: 'Not this quarter' });
    const mail = (await stack.mailbox.to(a.employee.email)).find((m) => m.subject.startsWith('Declined:'));
    expect(mail?.body.text).toContain('Reason: Not this quarter');
    // Decided, it cannot be approved or cancelled.
    expect((await approve(a.manager, [{ requestId: id }])).body.results[0]).toMatchObject({
      status: 'refused',
      message: 'This request is declined.',
    });
    expect((await act(a.employee, { action: 'cancel', requestId: id })).status).toBe(409);
  });
});

describe('rules', () => {
  it('approves automatically within a person’s monthly room, and refuses requests above the largest allowed', async () => {
    const { manager, employee, books } = await team();
    const rules = await act(manager, { action: 'setRules', autoApproveMonthly: '50', maxRequest: '100' });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    expect(rules.body.rules).toEqual({ autoApproveMonthlyCents: 5000, maxRequestCents: 10000 });

    const first = await asked(employee, { amount: '30' });
    expect(first).toMatchObject({ state: 'approved' });
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2500 + 3000);
    const managerMail = await stack.mailbox.to(manager.email);
    expect(managerMail.some((m) => m.subject.startsWith('Approved automatically:'))).toBe(true);
    // $30 + $30 is past the $50 a month: this one waits for the manager.
    const second = await asked(employee, { amount: '30' });
    expect(second).toMatchObject({ state: 'pending' });
    const tooBig = await ask(employee, { amount: '150' });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.message).toBe("Your team's requests can be at most $100.00 each.");
    await books.check('rules', [employee.userId], { everyStatement: true });
  });

  it('is off by default', async () => {
    const { manager, employee } = await team();
    expect((await send('GET', '/requests', manager.accessToken)).body.rules).toEqual({
      autoApproveMonthlyCents: null,
      maxRequestCents: null,
    });
    expect(await asked(employee, { amount: '1' })).toMatchObject({ state: 'pending' });
  });
});

describe('expiry', () => {
  it('a request unanswered for 14 days expires: shown so at once, marked by the daily job, never approved', async () => {
    const { manager, employee, customerId } = await team();
    const request = await asked(employee);
    const created = Date.parse((await stack.getItem(keys.request(request.requestId)))?.createdAt as string);
    const justBefore = new Date(created + 14 * 24 * 3600 * 1000 - 60_000);
    const after = new Date(created + 14 * 24 * 3600 * 1000 + 60_000);

    holdClock(justBefore);
    expect((await one(employee, request.requestId)).body.requests[0].state).toBe('pending');
    holdClock(after);
    expect((await one(employee, request.requestId)).body.requests[0].state).toBe('expired');
    const { handler } = (await import(`../../${jobFile('requestExpiry')}`)) as {
      handler: (event: { time: string }) => Promise<{ status: string; summary?: Record<string, number> }>;
    };
    const run = await handler({ time: after.toISOString() });
    expect(run.status).toBe('done');
    expect(await stateOf(request.requestId)).toBe('expired');
    expect((await stack.mailbox.to(employee.email)).some((m) => m.subject.startsWith('Expired:'))).toBe(true);
    const before = (await succeededCharges(customerId)).length;
    expect((await approve(manager, [{ requestId: request.requestId }])).body.results[0]).toMatchObject({
      status: 'refused',
    });
    expect((await succeededCharges(customerId)).length).toBe(before);
  });
});
