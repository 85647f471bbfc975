/**
 * Time travel as the local stack does it (infra/local/timeTravel.ts): the
 * handlers' clock and the Stripe emulator's move together, and every scheduled
 * job runs for each day passed, in order. A purchase made through the card
 * network "today" has its receipt overdue ten days on; after thirteen months
 * and a day without another purchase the employee is dormant, each notice sent
 * once, on its day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobHandlers } from '../../infra/local/scheduler';
import { createLocalClock, type LocalClock, travel } from '../../infra/local/timeTravel';
import { keys } from '../../lambdas/src/data/keys';
import {
  api,
  PASSWORD,
  registerManager,
  type SignedIn,
  signIn,
  withSessionCookie,
} from '../support/accountFlows';
import { codeFor, enrolAuthenticator } from '../support/authenticator';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, setUpTeam } from '../support/teams';

let clock: LocalClock;
let stack: IntegrationStack;
beforeAll(async () => {
  clock = createLocalClock();
  stack = await startIntegrationStack({
    stripe: true,
    authorizationTimeoutMs: 15_000,
    stripeClock: () => clock.nowMs(),
  });
});
afterAll(async () => {
  await stack?.stop();
});

async function subjects(address: string): Promise<string[]> {
  return (await stack.mailbox.to(address)).map((m) => m.subject);
}

const pay = (employee: SignedIn & { cardId: string }, cents: number) =>
  payWithCard(stack, employee.cardId, cents);

describe('time travel', () => {
  it('moves the product and the emulator forward, running each day’s jobs: a receipt becomes overdue, then the employee goes dormant', async () => {
    const handlers = await loadJobHandlers();
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    expect((await pay(employee, 1250))?.authorization?.approved).toBe(true);
    const purchase = (await stack.queryIndex('gsi2', `USER#${employee.userId}`)).find(
      (i) => i.entity === 'Purchase',
    );
    const boughtAt = new Date(purchase?.createdAt as string);

    const tenDays = await travel(clock, handlers, new Date(clock.nowMs() + 10 * 24 * 60 * 60 * 1000));
    // Every job, every day, in time order.
    expect(tenDays.runs.length).toBeGreaterThanOrEqual(27);
    expect(tenDays.runs.map((r) => r.time)).toEqual([...tenDays.runs.map((r) => r.time)].sort());
    expect(tenDays.runs.every((r) => (r.result as { status: string }).status === 'done')).toBe(true);
    const card = await stack.getItem(keys.card(employee.cardId));
    expect(card?.freeze).toEqual({ missingReceipt: true });
    expect((await subjects(employee.email)).filter((s) => s.includes('receipts missing'))).toHaveLength(1);
    // The emulator's clock moved with it.
    const issuerCard = await stack.stripe?.admin.cardDetails(employee.cardId);
    expect(issuerCard).toBeTruthy();

    // Thirteen months and two days after the purchase: warned, noticed three times, dormant.
    const end = new Date(boughtAt);
    end.setUTCMonth(end.getUTCMonth() + 13);
    end.setUTCDate(end.getUTCDate() + 2);
    await travel(clock, handlers, end);
    const employeeMail = await subjects(employee.email);
    for (const words of ['12 months', 'twelve and a half months', 'inactive tomorrow'])
      expect(employeeMail.filter((s) => s.includes(words))).toHaveLength(1);
    expect((await subjects(manager.email)).filter((s) => s.includes('11 months'))).toHaveLength(1);
    const user = await stack.getItem(keys.user(employee.userId));
    expect(user?.status).toBe('paused');
    // Each notice on its day (the job's 15:00 UTC run).
    for (const sentAt of Object.values(user?.dormancy as Record<string, string>))
      expect(sentAt).toMatch(/T15:00:00\.000Z$/);
    expect((await stack.getItem(keys.card(employee.cardId)))?.freeze).toEqual({
      missingReceipt: true,
      dormant: true,
    });
  }, 600_000); // about 1,200 job runs on DynamoDB Local

  it('a sign-out after moving forward does not lock the account out: the next sign-in works', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    // Two days on (the session still live), without running the jobs: only the date matters here.
    clock.set(new Date(clock.nowMs() + 2 * 24 * 60 * 60 * 1000));
    expect((await withSessionCookie(stack.apiUrl, '/auth/signOut', manager.sessionCookie)).status).toBe(200);
    // The user pool stamps new tokens by the real clock; the sign-out's cut-off must not lie ahead of it.
    const again = await signIn(stack.apiUrl, manager.email);
    expect(again.status).toBe(200);
    expect((await api(stack.apiUrl, 'GET', '/me', { token: again.body.accessToken })).status).toBe(200);
  });

  it("after moving a month forward a phone's authenticator code still works (checked by the real clock), once", async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    clock.set(new Date(clock.nowMs() + 31 * 24 * 60 * 60 * 1000));
    // The phone makes its codes by the real clock; the product's date is a month ahead.
    const { secret } = await enrolAuthenticator(stack.apiUrl, manager);
    const signInWithCode = (code: string) =>
      api(stack.apiUrl, 'POST', '/auth/signIn', { body: { email: manager.email, password: PASSWORD, code } });
    const code = codeFor(secret, 1);
    const signedIn = await signInWithCode(code);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    // Still good once only: its step was spent by the same real clock.
    expect((await signInWithCode(code)).status).not.toBe(200);
  });
});
