/**
 * The monthly e-mails (issue 26, point 5) end to end on DynamoDB Local, the
 * SES stand-in and the Stripe emulator: real teams and employees through
 * sign-up and funding, the job fired with the time EventBridge would give it,
 * and the one-click unsubscribe called as a mail client calls it, signed out.
 */
import { readFileSync } from 'node:fs';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TIME_ZONE, dayIn } from '@shared/domain/calendar';
import { firstBusinessDay, pickCatalogueItems } from '@shared/domain/nudges';
import { parseCatalogueJsonl } from '@shared/schemas/catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobHandlers } from '../../infra/local/scheduler';
import { createLocalClock, travel } from '../../infra/local/timeTravel';
import { keys } from '../../lambdas/src/data/keys';
import { handler } from '../../lambdas/src/jobs/monthlyEmails';
import { createLogger } from '../../lambdas/src/platform/log';
import { teamInsights, teamInsightsPeople } from '../../lambdas/src/services/insights';
import { runMonthlyEmails } from '../../lambdas/src/services/nudges';
import { digestEmail } from '../../lambdas/src/services/nudges/nudgeEmails';
import { importCatalogueText } from '../../lambdas/src/services/shop';
import { api, type SignedIn } from '../support/accountFlows';
import { putAwaitingPurchase } from '../support/awaitingPurchase';
import {
  type IntegrationStack,
  newClientIp,
  type StoredEmail,
  startIntegrationStack,
  TEST_WEB_ORIGIN,
} from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
const catalogueText = readFileSync('shared/data/catalogue.jsonl', 'utf8');
beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true, authorizationTimeoutMs: 15_000 });
  expect((await importCatalogueText(catalogueText)).ok).toBe(true);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const log = createLogger({ test: 'nudges' });
const NUDGE = /to spend on learning$/;
const DIGEST = /^Your team's learning budget in /;

/** 16:00 UTC, the job's hour. 2026-12-01 is a Tuesday: December's first business day. */
const DECEMBER_FIRST = '2026-12-01T16:00:00.000Z';

async function nudges(address: string): Promise<StoredEmail[]> {
  return (await stack.mailbox.to(address)).filter((m) => NUDGE.test(m.subject));
}

async function digests(address: string): Promise<StoredEmail[]> {
  return (await stack.mailbox.to(address)).filter((m) => DIGEST.test(m.subject));
}

function headerOf(email: StoredEmail, name: string): string | undefined {
  return email.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
}

/** The one-click address of an e-mail's List-Unsubscribe header, and its token. */
function oneClick(email: StoredEmail): { url: URL; token: string } {
  const value = headerOf(email, 'List-Unsubscribe') ?? '';
  const url = new URL(/^<(.+)>$/.exec(value)?.[1] ?? 'http://missing');
  return { url, token: url.searchParams.get('token') ?? '' };
}

/** What a mail client sends for RFC 8058 one-click: a form POST, no session, no cookie. */
function postOneClick(token: string, method = 'POST') {
  return fetch(`${stack.apiUrl}/email/unsubscribe?token=${encodeURIComponent(token)}`, {
    method,
    headers: {
      'x-simulated-client-ip': newClientIp(),
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined,
  });
}

async function setUser(userId: string, update: string, values: Record<string, unknown>) {
  await stack.doc.send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: keys.user(userId),
      UpdateExpression: update,
      ExpressionAttributeValues: values,
    }),
  );
}

async function profile(user: SignedIn) {
  return (await sender(stack)('GET', `/users/${user.userId}`, user.accessToken)).body;
}

describe('monthly nudges', () => {
  let manager: SignedIn;
  let teamId: string;
  const people: Record<string, SignedIn & { cardId: string }> = {};
  const who = (name: string) => {
    const person = people[name];
    if (!person) throw new Error(`no ${name} in the team`);
    return person;
  };

  beforeAll(async () => {
    ({ manager, teamId } = await setUpTeam(stack));
    for (const name of [
      'nudged',
      'spent',
      'paused',
      'removed',
      'unverified',
      'dormant',
      'optedOut',
      'frozen',
    ])
      people[name] = await joinTeam(stack, manager, 30);
    people.empty = await joinTeam(stack, manager, 0);
    const call = sender(stack);
    // The nudged one is an engineer who bought in Critical Thinking in November, and once uncategorised.
    await setUser(who('nudged').userId, 'SET jobRole = :role', { ':role': 'Engineering' });
    const november = await putAwaitingPurchase(stack, who('nudged'), teamId, {
      createdAt: '2026-11-20T15:00:00.000Z',
    });
    await stack.doc.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.purchase(november),
        UpdateExpression: 'SET skillArea = :area',
        ExpressionAttributeValues: { ':area': 'Critical Thinking' },
      }),
    );
    await putAwaitingPurchase(stack, who('nudged'), teamId, { createdAt: '2026-11-21T15:00:00.000Z' });
    // Bought something this month (in the team's calendar: 1 December, 9 am in New York).
    await putAwaitingPurchase(stack, who('spent'), teamId, { createdAt: '2026-12-01T14:00:00.000Z' });
    let res = await call('POST', '/employees/pause', manager.accessToken, {
      userIds: [who('paused').userId],
      action: 'pause',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await call('DELETE', `/users/${who('removed').userId}`, manager.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await call('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [who('frozen').userId],
      status: 'inactive',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await setUser(who('unverified').userId, 'SET emailVerified = :no', { ':no': false });
    await setUser(who('dormant').userId, 'SET dormancy = :d', {
      ':d': { deactivatedAt: '2026-11-02T15:00:00.000Z' },
    });
    res = await call('PUT', `/users/${who('optedOut').userId}`, who('optedOut').accessToken, {
      userId: who('optedOut').userId,
      firstName: 'Opted',
      lastName: 'Out',
      monthlyEmails: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.monthlyEmails).toBe(false);
  }, 600_000);

  it('nothing before the first business day of the team’s month', async () => {
    // 30 November, and 1 December 3 am UTC: still 30 November in New York.
    await runMonthlyEmails(new Date('2026-11-30T16:00:00.000Z'), log);
    await runMonthlyEmails(new Date('2026-12-01T03:00:00.000Z'), log);
    expect(await nudges(who('nudged').email)).toHaveLength(0);
  });

  it('goes to the employee with money and no purchase this month, with the balance and three picks; nobody else', async () => {
    expect((await handler({ time: DECEMBER_FIRST })).status).toBe('done');
    const [nudge, ...more] = await nudges(who('nudged').email);
    expect(more).toHaveLength(0);
    expect(nudge?.subject).toBe('You have $30.00 to spend on learning');
    expect(nudge?.body.text).toContain('You have $30.00 on your learning card');
    // The same picks the rule gives: untouched areas first (Critical Thinking was bought), the role's first.
    const parsed = parseCatalogueJsonl(catalogueText);
    if (!parsed.ok) throw new Error('catalogue');
    const picks = pickCatalogueItems(parsed.items, {
      seed: who('nudged').userId,
      month: '2026-12',
      jobRole: 'Engineering',
      touchedAreas: ['Critical Thinking', 'Uncategorised'],
      balanceCents: 3000,
    });
    expect(picks.map((p) => p.category)).toEqual(['Execution', 'Communication', 'Leadership']);
    for (const pick of picks) expect(nudge?.body.text).toContain(`${TEST_WEB_ORIGIN}/shop?item=${pick.id}`);
    // One-click unsubscribe (RFC 8058): both headers, and a page link in the body.
    expect(headerOf(nudge as StoredEmail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const { url, token } = oneClick(nudge as StoredEmail);
    expect(`${url.origin}${url.pathname}`).toBe(`${TEST_WEB_ORIGIN}/api/email/unsubscribe`);
    expect(nudge?.body.text).toContain(`${TEST_WEB_ORIGIN}/unsubscribe?token=${token}`);

    for (const name of [
      'spent',
      'paused',
      'removed',
      'unverified',
      'dormant',
      'optedOut',
      'frozen',
      'empty',
    ]) {
      expect(await nudges(who(name).email), name).toHaveLength(0);
    }
  });

  it('the manager gets a digest of last month, its text the insights’ figures, with its own one-click unsubscribe', async () => {
    const [digest, ...more] = await digests(manager.email);
    expect(more).toHaveLength(0);
    expect(digest?.subject).toBe("Your team's learning budget in November 2026");
    expect(headerOf(digest as StoredEmail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const { token } = oneClick(digest as StoredEmail);
    // The e-mail says what Insights says for November, as of the job's run.
    const period = { from: '2026-11', to: '2026-11' };
    const at = new Date(DECEMBER_FIRST);
    const [insights, people] = await Promise.all([
      teamInsights(teamId, period, at),
      teamInsightsPeople(teamId, period, at),
    ]);
    const { firstName } = await profile(manager);
    expect(digest?.body.text).toBe(
      digestEmail({ firstName, insights, people, unsubscribeToken: token }).text,
    );
    expect(digest?.body.text).toContain('Budget used: ');
    expect(digest?.body.text).toContain(`${TEST_WEB_ORIGIN}/unsubscribe?token=${token}`);
    expect(digest?.body.text).toContain('turn off "Monthly digest" on your profile');
  });

  it('a second run, the same day or later in the month, sends nothing twice', async () => {
    expect((await handler({ time: DECEMBER_FIRST })).status).toBe('skipped');
    expect(await runMonthlyEmails(new Date(DECEMBER_FIRST), log)).toMatchObject({ nudges: 0, failed: 0 });
    expect(await runMonthlyEmails(new Date('2026-12-07T16:00:00.000Z'), log)).toMatchObject({ nudges: 0 });
    expect(await nudges(who('nudged').email)).toHaveLength(1);
  });

  it('two runs at once send each nudge once: the claim per person and month decides', async () => {
    // January's first business day is Monday the 4th (the 1st is a holiday).
    const january = new Date('2027-01-04T16:00:00.000Z');
    const [a, b] = await Promise.all([runMonthlyEmails(january, log), runMonthlyEmails(january, log)]);
    expect((a?.nudges ?? 0) + (b?.nudges ?? 0)).toBeGreaterThanOrEqual(1);
    const sent = await nudges(who('nudged').email);
    expect(sent).toHaveLength(2);
    // `spent` bought in December, not January: nudged now.
    expect(await nudges(who('spent').email)).toHaveLength(1);
  });

  it('the digest’s one-click unsubscribe stops the digest, and only it', async () => {
    const sent = await digests(manager.email);
    expect(sent.map((m) => m.subject)).toEqual([
      "Your team's learning budget in November 2026",
      "Your team's learning budget in December 2026",
    ]);
    const res = await postOneClick(oneClick(sent[0] as StoredEmail).token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ kind: 'digest', setting: 'Monthly digest' });
    expect((await profile(manager)).monthlyEmails).toBe(false);
    expect((await profile(who('nudged'))).monthlyEmails).toBe(true);
  });

  it('one-click unsubscribe works signed out; a GET changes nothing; a forged token is refused', async () => {
    const [first] = await nudges(who('nudged').email);
    const { token } = oneClick(first as StoredEmail);
    // A mail scanner opening the link: no state change.
    const scanned = await postOneClick(token, 'GET');
    expect(scanned.status).toBeGreaterThanOrEqual(400);
    expect((await profile(who('nudged'))).monthlyEmails).toBe(true);

    const forged = await postOneClick('x'.repeat(43));
    expect(forged.status).toBe(404);
    expect((await profile(who('nudged'))).monthlyEmails).toBe(true);

    const res = await postOneClick(token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ kind: 'nudge', setting: 'Monthly nudges' });
    expect((await profile(who('nudged'))).monthlyEmails).toBe(false);
    // Twice is still unsubscribed; the page's button sends JSON.
    const again = await api(stack.apiUrl, 'POST', '/email/unsubscribe', { body: { token } });
    expect(again.status).toBe(200);

    // February: nothing for them any more.
    await runMonthlyEmails(new Date('2027-02-01T16:00:00.000Z'), log);
    expect(await nudges(who('nudged').email)).toHaveLength(2);
  });

  it('the profile setting turns it back on; only the person themselves may change it', async () => {
    const nudged = who('nudged');
    const byManager = await sender(stack)('PUT', `/users/${nudged.userId}`, manager.accessToken, {
      userId: nudged.userId,
      firstName: 'Eddie',
      lastName: 'Employee',
      monthlyEmails: true,
    });
    expect(byManager.status).toBe(403);
    // A manager looking at an employee's profile does not see it either.
    expect((await profile({ ...manager, userId: nudged.userId })).monthlyEmails).toBeUndefined();
    const own = await sender(stack)('PUT', `/users/${nudged.userId}`, nudged.accessToken, {
      userId: nudged.userId,
      firstName: 'Eddie',
      lastName: 'Employee',
      monthlyEmails: true,
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.monthlyEmails).toBe(true);
    await runMonthlyEmails(new Date('2027-03-01T16:00:00.000Z'), log);
    expect(await nudges(nudged.email)).toHaveLength(3);
    // The manager unsubscribed from the digest in January: none in February or March.
    expect(await digests(manager.email)).toHaveLength(2);
  });
});

// Last in the file: it moves the product's clock (forward only) for what follows.
describe('time travel (the local stack)', () => {
  it('moving past the first business day of next month fires the job: the nudge arrives once', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 20);
    const clock = createLocalClock();
    const today = dayIn(clock.now(), DEFAULT_TIME_ZONE);
    const next = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const due = firstBusinessDay(next.toISOString().slice(0, 7));
    // The earlier tests fired the job for December's first business day themselves: forgotten here.
    await stack.doc.send(
      new DeleteCommand({ TableName: stack.tableName, Key: keys.jobRun('monthlyEmails', due) }),
    );
    const result = await travel(clock, await loadJobHandlers(), new Date(`${due}T20:00:00.000Z`));
    const runs = result.runs.filter((r) => r.jobId === 'monthlyEmails');
    expect(runs.at(-1)).toMatchObject({ time: `${due}T16:00:00.000Z`, result: { status: 'done' } });
    const sent = await nudges(employee.email);
    expect(sent.map((m) => m.subject)).toEqual(['You have $20.00 to spend on learning']);
    expect(await digests(manager.email)).toHaveLength(1);
  }, 600_000);
});
