/**
 * Issue 28, parts 2 and 3, on DynamoDB Local, the SES mailbox and the Stripe
 * emulator: the roster import (a file with a bad row is refused whole, with
 * its messages per line, and nothing happens; the same file twice changes
 * nothing; the file's budgets count against the daily limit), scheduled starts
 * invited by the daily job on their day in the team's calendar, and last days:
 * the job removes the person on the day as a manager's delete does (card
 * cancelled, money kept for the pool), and a cleared last day removes nobody.
 * The job is fired with the times EventBridge would give it.
 */
import { type Day, dayIn } from '@shared/domain/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInvitation, setTeamFields } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { getScheduledStart } from '../../lambdas/src/data/roster';
import { handler } from '../../lambdas/src/jobs/peopleSchedule';
import { uniqueEmail } from '../support/accountFlows';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const ZONE = 'America/New_York';

function addDays(day: Day, n: number): Day {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

/** MM/DD/YYYY, as a roster file writes dates. */
const us = (day: Day) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
/** The job's hour (10:00 UTC) on `day`: that morning in New York. */
const jobAt = (day: Day) => `${day}T10:00:00.000Z`;
const today = () => dayIn(new Date(), ZONE);

interface Row {
  line: number;
  firstName: string;
  lastName: string;
  email: string;
  budget: string;
  startDate?: string;
}
const row = (line: number, email: string, budget = '40', startDate = ''): Row => ({
  line,
  firstName: 'Rae',
  lastName: `Row${line}`,
  email,
  budget,
  startDate,
});

async function results(token: string, rows: Row[]) {
  const res = await send('POST', '/roster/import', token, { rows });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.results as { line: number; result: string }[]).map((r) => [r.line, r.result]);
}

describe('roster import', () => {
  it('refuses a file with bad rows whole, naming each line and what is wrong; nothing is invited or scheduled', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    const member = await joinTeam(stack, team.manager, 25);
    const good = uniqueEmail('good');
    const later = uniqueEmail('later');
    const rows = [
      row(2, good),
      row(3, 'not-an-address'),
      row(4, uniqueEmail('rich'), '20000'),
      row(5, good.toUpperCase()),
      row(6, uniqueEmail('past'), '25', us(addDays(today(), -2))),
      row(7, uniqueEmail('when'), '25', 'next monday'),
      row(8, later, '25', us(addDays(today(), 10))),
      row(9, member.email),
    ];
    const res = await send('POST', '/roster/import', token, { rows });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.message).toBe('5 rows need a fix; nothing was imported.');
    expect(res.body.error.fields).toEqual({
      'line 3': 'Not a valid email address',
      'line 4': 'Budget must be at most $10,000',
      'line 5': 'Same email as line 2',
      'line 6': `Start date ${us(addDays(today(), -2))} is in the past`,
      'line 7': 'Start date must be a date written MM/DD/YYYY',
    });
    expect(await getInvitation(good, true)).toBeUndefined();
    expect(await getScheduledStart(team.teamId, later, true)).toBeUndefined();
    expect(await stack.mailbox.to(good)).toEqual([]);

    // Fixed, the same file goes through; the member already on the team is left as they are.
    const fixed = rows.filter((r) => ![3, 4, 5, 6, 7].includes(r.line));
    expect(await results(token, fixed)).toEqual([
      [2, 'invited'],
      [8, 'scheduled'],
      [9, 'alreadyThere'],
    ]);
    expect((await getInvitation(good, true))?.budgetCents).toBe(4000);
    expect(await getScheduledStart(team.teamId, later, true)).toMatchObject({
      startDay: addDays(today(), 10),
      budgetCents: 2500,
    });
    expect(await stack.mailbox.to(good)).toHaveLength(1);
    expect(await stack.mailbox.to(later)).toEqual([]);
  });

  it('a second upload of the same file changes nothing: every row is already there, nobody is e-mailed twice', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    // $200 a day: the first upload's $120 fits once; counted again it would not.
    await setTeamFields(team.teamId, { dailyDepositLimitCents: 20_000 });
    const now = uniqueEmail('now');
    const soon = uniqueEmail('soon');
    const file = [row(2, now, '60'), row(3, soon, '60', us(addDays(today(), 3)))];
    expect(await results(token, file)).toEqual([
      [2, 'invited'],
      [3, 'scheduled'],
    ]);
    expect(await results(token, file)).toEqual([
      [2, 'alreadyThere'],
      [3, 'alreadyThere'],
    ]);
    expect(await stack.mailbox.to(now)).toHaveLength(1);
    const list = await send('GET', '/employees', token);
    expect(list.body.scheduled).toEqual([
      { email: soon, firstName: 'Rae', lastName: 'Row3', budgetCents: 6000, startDay: addDays(today(), 3) },
    ]);
  });

  it('counts the whole file against the daily limit before anything is stored, scheduled rows included', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    // $100 a day: two $40 rows fit; a third, even starting later, is committed today too and does not.
    await setTeamFields(team.teamId, { dailyDepositLimitCents: 10_000 });
    const rows = [
      row(2, uniqueEmail('a'), '40'),
      row(3, uniqueEmail('b'), '40'),
      row(4, uniqueEmail('c'), '40', us(addDays(today(), 5))),
    ];
    const res = await send('POST', '/roster/import', token, { rows });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.code).toBe('LIMIT_EXCEEDED');
    for (const r of rows) expect(await getInvitation(r.email, true)).toBeUndefined();
    expect(await getScheduledStart(team.teamId, rows[2]?.email as string, true)).toBeUndefined();
    expect(await results(token, rows.slice(0, 2))).toEqual([
      [2, 'invited'],
      [3, 'invited'],
    ]);
  });

  it('past the step-up threshold the preview says so before sending, and the import is refused until a factor is proven', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    await forgetStepUps(team.manager.userId);
    const small = [row(2, uniqueEmail('small'), '25')];
    const large = [
      row(2, uniqueEmail('big'), '300'),
      row(3, uniqueEmail('big'), '300', us(addDays(today(), 4))),
    ];
    const preview = async (rows: Row[]) =>
      (await send('POST', '/roster/import', token, { rows, preview: true })).body;
    expect(await preview(small)).toEqual({ results: [], needsFreshFactor: false });
    // Nothing stored by a preview: the small file's address is not invited.
    expect(await getInvitation(small[0]?.email as string, true)).toBeUndefined();
    expect(await preview(large)).toEqual({ results: [], needsFreshFactor: true });
    const refused = await send('POST', '/roster/import', token, { rows: large });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('STEP_UP_REQUIRED');
    for (const r of large) expect(await getInvitation(r.email, true)).toBeUndefined();
    expect(await getScheduledStart(team.teamId, large[1]?.email as string, true)).toBeUndefined();
  });

  it('the daily job invites a scheduled start on its day in the team’s calendar, once; a cancelled one never', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    const startDay = addDays(today(), 20);
    const starter = uniqueEmail('starter');
    const cancelled = uniqueEmail('cancelled');
    expect(
      await results(token, [row(2, starter, '35', us(startDay)), row(3, cancelled, '35', us(startDay))]),
    ).toEqual([
      [2, 'scheduled'],
      [3, 'scheduled'],
    ]);
    // Withdrawn as an invitation is.
    const cancel = await send('POST', '/invitations/withdraw', token, { emails: [cancelled] });
    expect(cancel.body.results).toEqual([{ email: cancelled, result: 'withdrawn' }]);

    // The day before: nothing.
    expect((await handler({ time: jobAt(addDays(startDay, -1)) })).status).toBe('done');
    expect(await getInvitation(starter, true)).toBeUndefined();

    const run = await handler({ time: jobAt(startDay) });
    expect(run).toMatchObject({ status: 'done', summary: { failed: 0 } });
    expect(await getInvitation(starter, true)).toMatchObject({ teamId: team.teamId, budgetCents: 3500 });
    expect(await getScheduledStart(team.teamId, starter, true)).toBeUndefined();
    expect(await stack.mailbox.to(starter)).toHaveLength(1);
    expect(await getInvitation(cancelled, true)).toBeUndefined();
    expect(await stack.mailbox.to(cancelled)).toEqual([]);

    // Uploading the file again after the day: the invitation is pending, so nothing changes.
    expect(await results(token, [row(2, starter, '35')])).toEqual([[2, 'alreadyThere']]);
    const log = await send('GET', '/team/audit?limit=100', token);
    const actions = (log.body.events as { action: string; actorId: string }[]).map((e) => [
      e.action,
      e.actorId,
    ]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['invitation.scheduled', team.manager.userId],
        ['invitation.scheduleCancelled', team.manager.userId],
        ['employees.invited', 'system'],
      ]),
    );
  });
});

describe('last day', () => {
  it('the job removes a person on their last day as a manager’s delete does; a cleared last day removes nobody', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    const leaving = await joinTeam(stack, team.manager, 30);
    const staying = await joinTeam(stack, team.manager, 30);
    const books = new LedgerInvariants(stack, team.teamId);
    const people = [leaving.userId, staying.userId];
    await books.check('before', people);
    const lastDay = addDays(today(), 30);

    const past = await send('PUT', `/users/${leaving.userId}/lastDay`, token, {
      lastDay: us(addDays(today(), -1)),
    });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe('The last day cannot be in the past.');
    for (const person of [leaving, staying]) {
      const set = await send('PUT', `/users/${person.userId}/lastDay`, token, { lastDay: us(lastDay) });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toEqual({ userId: person.userId, lastDay });
    }
    const cleared = await send('PUT', `/users/${staying.userId}/lastDay`, token, { lastDay: null });
    expect(cleared.body).toEqual({ userId: staying.userId, lastDay: null });
    const shown = await send('GET', '/employees', token);
    const rowOf = (body: any, userId: string) =>
      (body.employees as { userId: string; lastDay?: string | null; status: string }[]).find(
        (e) => e.userId === userId,
      );
    expect(rowOf(shown.body, leaving.userId)?.lastDay).toBe(lastDay);
    expect(rowOf(shown.body, staying.userId)?.lastDay).toBeNull();

    // The day before: nobody is removed.
    await handler({ time: jobAt(addDays(lastDay, -1)) });
    expect((await stack.getItem(keys.user(leaving.userId)))?.status).toBe('active');

    const run = await handler({ time: jobAt(lastDay) });
    expect(run).toMatchObject({ status: 'done', summary: { removed: 1, failed: 0 } });
    const after = await send('GET', '/employees', token);
    expect(rowOf(after.body, leaving.userId)).toMatchObject({
      status: 'deleted',
      cardStatus: 'canceled',
      // The $30 left on the card waits in the team pool for the manager.
      remainingBudgetCents: 3000,
    });
    expect(rowOf(after.body, staying.userId)?.status).toBe('active');
    expect((await emulatorClient(stack).issuing.cards.retrieve(leaving.cardId)).status).toBe('canceled');
    const mail = await stack.mailbox.to(team.manager.email);
    expect(mail.filter((m) => m.subject.endsWith('was removed on their last day'))).toHaveLength(1);
    // Signed out: the token the person held is refused.
    expect((await send('GET', '/me/balance', leaving.accessToken)).status).toBe(401);
    // Billing stops: the removed person is in the pool for reallocation like any deleted one.
    const preview = await send('POST', '/funds/reallocate/preview', token, {
      deletedUserIds: [leaving.userId],
      allEmployees: true,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.amountCents).toBe(3000);
    await books.check('after the last day', people);

    const log = await send('GET', '/team/audit?limit=100', token);
    const entries = (log.body.events as { action: string; actorId: string; targetId?: string }[]).filter(
      (e) => e.targetId === leaving.userId || e.targetId === staying.userId,
    );
    expect(entries.map((e) => [e.action, e.actorId])).toEqual(
      expect.arrayContaining([
        ['employee.lastDaySet', team.manager.userId],
        ['employee.lastDayCleared', team.manager.userId],
        ['employee.offboarded', 'system'],
      ]),
    );

    // Once removed, the day cannot be set again.
    const again = await send('PUT', `/users/${leaving.userId}/lastDay`, token, { lastDay: null });
    expect(again.status).toBe(409);
  });
});
