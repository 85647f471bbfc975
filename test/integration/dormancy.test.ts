/**
 * Dormancy end to end on DynamoDB Local, the SES mailbox and the Stripe
 * emulator: the job is fired with the times EventBridge would give it, months
 * after the card was issued. A purchase is made through the emulator's card
 * network with the emulator's clock moved, as the real network would date it.
 */

import { auditDetails, SYSTEM_ACTOR_NAME } from '@shared/domain/auditLog';
import { addMonths, inactiveFrom } from '@shared/domain/dormancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDormancyClock } from '../../lambdas/src/data/dormancy';
import { keys } from '../../lambdas/src/data/keys';
import { handler } from '../../lambdas/src/jobs/dormancyNotices';
import { createLogger } from '../../lambdas/src/platform/log';
import { runDormancy } from '../../lambdas/src/services/dormancy';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stripeOffsetMs = 0;
let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack({
    stripe: true,
    authorizationTimeoutMs: 15_000,
    stripeClock: () => Date.now() + stripeOffsetMs,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const log = createLogger({ test: 'dormancy' });
const DAY = 24 * 60 * 60 * 1000;

/** 15:00 UTC (the job's hour) on the day `months` (and `days`) after `from`. */
function jobTime(from: string, months: number, days = 0): string {
  const t = addMonths(from, months);
  t.setUTCDate(t.getUTCDate() + days);
  t.setUTCHours(15, 0, 0, 0);
  // The clock started later in the day than 15:00: the notice falls due the next day's run.
  return (
    t.getTime() < addMonths(from, months).getTime() + days * DAY ? new Date(t.getTime() + DAY) : t
  ).toISOString();
}

async function subjects(address: string): Promise<string[]> {
  return (await stack.mailbox.to(address)).map((m) => m.subject);
}

async function person(userId: string) {
  return (await stack.getItem(keys.user(userId))) as Record<string, any>;
}

async function card(cardId: string) {
  const ours = await stack.getItem(keys.card(cardId));
  const issuer = await emulatorClient(stack).issuing.cards.retrieve(cardId);
  return { status: ours?.status, freeze: ours?.freeze, issuerStatus: issuer.status };
}

async function team(): Promise<{ manager: SignedIn; employee: SignedIn & { cardId: string }; name: string }> {
  const { manager } = await setUpTeam(stack);
  const employee = await joinTeam(stack, manager, 30);
  const record = await person(employee.userId);
  return { manager, employee, name: `${record.firstName} ${record.lastName}`.trim() };
}

/** The system's entries in the manager's Activity Log (GET /team/audit), with their details in words. */
async function systemLog(manager: SignedIn) {
  const res = await sender(stack)('GET', '/team/audit?limit=100', manager.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (
    res.body.events as { eventId: string; actorId: string; action: string; after?: Record<string, unknown> }[]
  )
    .filter((e) => e.actorId === 'system' && !e.action.startsWith('money.'))
    .map((e) => ({ ...e, details: auditDetails(e) }));
}

async function balance(employee: SignedIn) {
  return (await sender(stack)('GET', '/me/balance', employee.accessToken)).body;
}

describe('dormancy', () => {
  it('warns the manager at 11 months, tells both at 12, 12.5 and 13 (a missed day catches up), then deactivates; each notice once', async () => {
    const { manager, employee, name } = await team();
    const quietSince = (await person(employee.userId)).quietSince as string;
    expect(quietSince).toBeTruthy();
    const money = await balance(employee);

    // The day before the 11-month mark: nothing.
    await runDormancy(new Date(jobTime(quietSince, 11, -1)), log);
    expect((await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes(name))).toHaveLength(0);

    const eleven = jobTime(quietSince, 11);
    expect((await handler({ time: eleven })).status).toBe('done');
    const warning = (await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes('11 months'));
    expect(warning).toHaveLength(1);
    expect(warning[0]?.body.text).toContain(name);
    expect(await subjects(employee.email)).not.toContainEqual(expect.stringContaining('has not been used'));
    // Fired twice the same day, and a retried run by hand: nothing sent twice.
    expect((await handler({ time: eleven })).status).toBe('skipped');
    expect(await runDormancy(new Date(eleven), log)).toMatchObject({ warnings: 0, notices: 0 });
    expect((await subjects(manager.email)).filter((s) => s.includes('11 months'))).toHaveLength(1);
    expect((await person(employee.userId)).dormancy.warning11).toBe(eleven);

    await handler({ time: jobTime(quietSince, 12) });
    expect((await subjects(employee.email)).filter((s) => s.includes('12 months'))).toHaveLength(1);
    expect((await subjects(manager.email)).filter((s) => s.includes('12 months'))).toHaveLength(1);

    // The 12.5-month day is missed; two days later the notice still goes, once.
    const late = jobTime(quietSince, 12, 17);
    await handler({ time: late });
    expect((await subjects(employee.email)).filter((s) => s.includes('twelve and a half'))).toHaveLength(1);
    expect((await person(employee.userId)).dormancy.notice12half).toBe(late);

    const thirteen = jobTime(quietSince, 13);
    await handler({ time: thirteen });
    expect((await subjects(employee.email)).filter((s) => s.includes('inactive tomorrow'))).toHaveLength(1);
    expect((await subjects(manager.email)).filter((s) => s.includes('inactive tomorrow'))).toHaveLength(1);
    // Told today, inactive only once the notice counts as received (24 hours).
    expect((await card(employee.cardId)).status).toBe('active');

    const after = new Date(new Date(thirteen).getTime() + DAY).toISOString();
    expect((await handler({ time: after })).status).toBe('done');
    expect(await card(employee.cardId)).toEqual({
      status: 'inactive',
      freeze: { dormant: true },
      issuerStatus: 'inactive',
    });
    const record = await person(employee.userId);
    expect(record.status).toBe('paused');
    expect(record.dormancy.deactivatedAt).toBe(after);
    expect(record.gsi2pk).toBeUndefined();
    // The money stays.
    expect(await balance(employee)).toMatchObject({
      availableCents: money.availableCents,
      cardStatus: 'inactive',
      freezeReason: 'dormant',
    });

    // The manager's log says who did it, to whom, when and why.
    const last4 = (await stack.getItem(keys.card(employee.cardId)))?.last4 as string;
    const logged = await systemLog(manager);
    expect(logged).toEqual([
      expect.objectContaining({
        actorName: SYSTEM_ACTOR_NAME,
        action: 'card.dormant',
        targetId: employee.userId,
        targetName: name,
        at: after,
        before: { status: 'active' },
        after: expect.objectContaining({ cardId: employee.cardId, status: 'paused', cardStatus: 'inactive' }),
        details: `Card ending in ${last4}: no purchase for 13 months`,
      }),
    ]);

    // Nothing more, however many days pass, nor from a run by hand the same day.
    expect(await runDormancy(new Date(after), log)).toMatchObject({ deactivated: 0 });
    await runDormancy(new Date(new Date(after).getTime() + 10 * DAY), log);
    expect((await subjects(employee.email)).filter((s) => s.includes('inactive tomorrow'))).toHaveLength(1);
    expect((await systemLog(manager)).map((e) => e.eventId)).toEqual(logged.map((e) => e.eventId));

    // The manager reactivates them: active card, clock restarted, no notices left.
    const unpause = await sender(stack)('POST', '/employees/pause', manager.accessToken, {
      userIds: [employee.userId],
      action: 'unpause',
    });
    expect(unpause.status).toBe(200);
    expect(await card(employee.cardId)).toEqual({ status: 'active', freeze: {}, issuerStatus: 'active' });
    const reactivated = await person(employee.userId);
    expect(reactivated.status).toBe('active');
    expect(reactivated.dormancy).toEqual({});
    expect(reactivated.quietSince > quietSince).toBe(true);
  }, 180_000);

  it('a purchase restarts the clock: no notice at 12 months, the next warning 11 months after the purchase', async () => {
    const { manager, employee, name } = await team();
    const quietSince = (await person(employee.userId)).quietSince as string;
    await runDormancy(new Date(jobTime(quietSince, 11)), log);
    expect((await subjects(manager.email)).filter((s) => s.includes(name))).toHaveLength(1);

    // The card network dates the purchase 11 months and 5 days on.
    stripeOffsetMs = addMonths(quietSince, 11).getTime() + 5 * DAY - Date.now();
    try {
      const outcome = await payWithCard(stack, employee.cardId, 500);
      expect(outcome?.authorization?.approved).toBe(true);
    } finally {
      stripeOffsetMs = 0;
    }
    const restarted = await person(employee.userId);
    expect(restarted.quietSince > addMonths(quietSince, 11).toISOString()).toBe(true);
    expect(restarted.dormancy).toEqual({});

    await runDormancy(new Date(jobTime(quietSince, 12)), log);
    await runDormancy(new Date(jobTime(quietSince, 13, 2)), log);
    expect((await subjects(employee.email)).filter((s) => s.includes('has not been used'))).toHaveLength(0);
    expect((await subjects(manager.email)).filter((s) => s.includes(name))).toHaveLength(1);
    expect((await card(employee.cardId)).status).toBe('active');

    await runDormancy(new Date(jobTime(restarted.quietSince, 11)), log);
    expect((await subjects(manager.email)).filter((s) => s.includes(name))).toHaveLength(2);
  }, 180_000);

  it('stops the card on the day the notices named; activating it ends only a pause dormancy made, and logs it', async () => {
    const { manager } = await setUpTeam(stack);
    const pausedBefore = await joinTeam(stack, manager, 30);
    const quiet = await joinTeam(stack, manager, 20);
    const send = sender(stack);
    const pause = await send('POST', '/employees/pause', manager.accessToken, {
      userIds: [pausedBefore.userId],
      action: 'pause',
    });
    expect(pause.status).toBe(200);
    // Both clocks restarted years on, away from the other tests' job runs; one after the job's hour.
    const quietSince = '2033-03-01T10:00:00.000Z';
    const lateSince = '2033-03-01T16:00:00.000Z';
    expect(
      await startDormancyClock({ userId: pausedBefore.userId, teamId: manager.teamId as string }, quietSince),
    ).toBe(true);
    expect(
      await startDormancyClock({ userId: quiet.userId, teamId: manager.teamId as string }, lateSince),
    ).toBe(true);

    // The 11-month warnings (the run looks back at most 45 days for people listed under a day).
    expect(await runDormancy(new Date(jobTime(lateSince, 11)), log)).toMatchObject({ warnings: 2 });
    // Each daily run, from the 13-month mark on: the card stops at the run of the day the notices named.
    const stopped = new Map<string, string>();
    for (let day = 0; day < 4; day++) {
      const at = new Date(jobTime(quietSince, 13, day));
      await runDormancy(at, log);
      for (const who of [pausedBefore, quiet])
        if (!stopped.has(who.userId) && (await card(who.cardId)).status === 'inactive')
          stopped.set(who.userId, at.toISOString().slice(0, 10));
    }
    expect(stopped.get(pausedBefore.userId)).toBe(inactiveFrom(quietSince, 'UTC'));
    expect(stopped.get(quiet.userId)).toBe(inactiveFrom(lateSince, 'UTC'));
    expect(inactiveFrom(lateSince, 'UTC')).not.toBe(inactiveFrom(quietSince, 'UTC'));

    const before = await person(pausedBefore.userId);
    expect(before.status).toBe('paused');
    expect(before.dormancy.keptManagerPause).toBe(before.dormancy.deactivatedAt);
    const dormant = await person(quiet.userId);
    expect(dormant.status).toBe('paused');
    expect(dormant.dormancy.deactivatedAt).toBeTruthy();
    expect(dormant.dormancy).not.toHaveProperty('keptManagerPause');

    const activate = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [pausedBefore.userId, quiet.userId],
      status: 'active',
    });
    expect(activate.status, JSON.stringify(activate.body)).toBe(200);
    expect((await card(pausedBefore.cardId)).status).toBe('active');
    expect((await card(quiet.cardId)).status).toBe('active');
    // The manager's own pause stays (no billing restarts behind their back); dormancy's ends.
    expect((await person(pausedBefore.userId)).status).toBe('paused');
    expect((await person(quiet.userId)).status).toBe('active');
    const audit = await send('GET', '/team/audit?limit=100', manager.accessToken);
    const unpaused = (audit.body.events as { action: string; targetId?: string; actorId: string }[]).filter(
      (e) => e.action === 'employee.unpaused',
    );
    expect(unpaused.map((e) => [e.targetId, e.actorId])).toEqual([[quiet.userId, manager.userId]]);
  }, 180_000);

  it('a dormant person’s money is reallocated to the team without deleting them; an active person’s is not', async () => {
    const { manager } = await setUpTeam(stack);
    const quiet = await joinTeam(stack, manager, 30);
    const busy = await joinTeam(stack, manager, 20);
    const send = sender(stack);
    const refused = await send('POST', '/funds/reallocate/preview', manager.accessToken, {
      deletedUserIds: [quiet.userId],
      receiverIds: [busy.userId],
    });
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe(
      'Only removed or dormant employees of your team can be reallocated.',
    );

    // Their clock restarted years on (a purchase then), away from the other tests' job runs.
    const quietSince = '2031-01-01T10:00:00.000Z';
    expect(
      await startDormancyClock({ userId: quiet.userId, teamId: manager.teamId as string }, quietSince),
    ).toBe(true);
    expect(await runDormancy(new Date(jobTime(quietSince, 11, 3)), log)).toMatchObject({ warnings: 1 });
    // Days missed: one run a day after 13 months catches every notice up; the card stops a day later.
    const caughtUp = await runDormancy(new Date(jobTime(quietSince, 13, 1)), log);
    expect(caughtUp).toMatchObject({ warnings: 0, notices: 3, deactivated: 0 });
    await runDormancy(new Date(new Date(jobTime(quietSince, 13, 1)).getTime() + DAY), log);
    expect((await person(quiet.userId)).status).toBe('paused');

    const preview = await send('POST', '/funds/reallocate/preview', manager.accessToken, {
      deletedUserIds: [quiet.userId],
      receiverIds: [busy.userId],
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toEqual({
      amountCents: 3000,
      shares: [{ userId: busy.userId, amountCents: 3000 }],
      needsFreshFactor: false,
    });
    const moved = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [quiet.userId], receiverIds: [busy.userId] },
      `x-${crypto.randomUUID()}`,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await balance(busy)).availableCents).toBe(5000);
    expect((await balance(quiet)).availableCents).toBe(0);
    // Still on the team, still dormant: nothing was deleted, and their statement does not call them removed.
    expect((await person(quiet.userId)).status).toBe('paused');
    const statement = await send('GET', '/me/statement', quiet.accessToken);
    const words = JSON.stringify(statement.body);
    expect(words).toContain('Balance of a dormant employee moved to the team pool');
    expect(words).not.toContain('removed employee');
  }, 180_000);
});
