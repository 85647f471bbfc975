/**
 * Issue 26, the people of the Insights page at any team size: who has not
 * spent for 3 months and who is heading for dormancy are read from the team's
 * employees ordered by their dormancy clock (gsi4), never every member; a
 * removed person leaves that order in the removal's own write. Spend by person
 * is the people shards' sum. The upgrade lists employees whose clock started
 * before the index existed and copies spend kept before the shards.
 *
 * Clocks are moved years on (as the dormancy tests do), so "now" is chosen by
 * the test and the service is called as the route calls it.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inactiveFrom } from '@shared/domain/dormancy';
import { DORMANCY_HORIZON_DAYS, PEOPLE_LISTED } from '@shared/schemas/insights';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDormancyClock } from '../../lambdas/src/data/dormancy';
import { copyPeopleSpend, indexQuietPeople } from '../../lambdas/src/data/insightBackfill';
import { keys, PEOPLE_SHARDS, peopleShardOf } from '../../lambdas/src/data/keys';
import { teamInsightsPeople, teamPeopleList } from '../../lambdas/src/services/insights';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

/** Now, for the service: 20 January 2041, noon in New York (the team's zone). */
const NOW = new Date('2041-01-20T17:00:00.000Z');
const PERIOD = { from: '2041-01', to: '2041-01' };
const ZONE = 'America/New_York';

describe('quiet people and dormancy, from the clock order', () => {
  let manager: SignedIn;
  let teamId: string;
  let recent: SignedIn;
  let quiet: SignedIn;
  let nearPool: SignedIn;
  let leaving: SignedIn;

  beforeAll(async () => {
    ({ manager, teamId } = await setUpTeam(stack));
    [recent, quiet, nearPool, leaving] = await Promise.all([
      joinTeam(stack, manager, 20),
      joinTeam(stack, manager, 20),
      joinTeam(stack, manager, 20),
      joinTeam(stack, manager, 20),
    ]);
    const clock = (person: SignedIn, at: string) => startDormancyClock({ userId: person.userId, teamId }, at);
    // A purchase last month; a card untouched since August; untouched since January 2040 (the money
    // goes to the pool in February 2041, within 90 days); and one as quiet who is then removed.
    expect(await clock(recent, '2040-12-05T15:00:00.000Z')).toBe(true);
    expect(await clock(quiet, '2040-08-01T15:00:00.000Z')).toBe(true);
    expect(await clock(nearPool, '2040-01-05T15:00:00.000Z')).toBe(true);
    expect(await clock(leaving, '2040-01-02T15:00:00.000Z')).toBe(true);
  }, 240_000);

  it('counts and lists the quiet longest first, and who is heading for the pool soonest first', async () => {
    const before = await teamInsightsPeople(teamId, PERIOD, NOW);
    expect(before.quiet.count).toBe(3);
    expect(before.quiet.people.map((p) => p.userId)).toEqual([leaving.userId, nearPool.userId, quiet.userId]);
    // The day the dormancy notices name (13 months on, at the job's run after the last notice).
    const nearDay = inactiveFrom('2040-01-05T15:00:00.000Z', ZONE);
    expect(nearDay.startsWith('2041-02-')).toBe(true);
    expect(before.headingForDormancy.people.map((p) => [p.userId, p.dormancyDay])).toEqual([
      [leaving.userId, inactiveFrom('2040-01-02T15:00:00.000Z', ZONE)],
      [nearPool.userId, nearDay],
    ]);
    expect(before.headingForDormancy.count).toBe(2);
    expect(before.quiet.people[1]).toMatchObject({
      email: nearPool.email,
      status: 'active',
      lastSpentMonth: null,
      dormancyDay: nearDay,
    });

    // Removed: out of both lists at once, by the removal's own write.
    const removed = await sender(stack)('POST', '/employees/delete', manager.accessToken, {
      userIds: [leaving.userId],
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const after = await teamInsightsPeople(teamId, PERIOD, NOW);
    expect(after.quiet.count).toBe(2);
    expect(after.quiet.people.map((p) => p.userId)).toEqual([nearPool.userId, quiet.userId]);
    expect(after.headingForDormancy).toMatchObject({ count: 1, people: [{ userId: nearPool.userId }] });
    // The CSV's list is the same people, in full.
    const list = await teamPeopleList(teamId, { ...PERIOD, list: 'quiet' }, NOW);
    expect(list.people).toEqual(after.quiet.people);

    // The quiet one's day (September 2041) comes within the 90 days in June, not in May; a day
    // passed without the job having run yet stays listed (their money is about to move).
    expect(DORMANCY_HORIZON_DAYS).toBe(90);
    const quietDay = inactiveFrom('2040-08-01T15:00:00.000Z', ZONE);
    const may = await teamInsightsPeople(teamId, PERIOD, new Date('2041-05-20T17:00:00.000Z'));
    expect(may.headingForDormancy.people.map((p) => [p.userId, p.dormancyDay])).toEqual([
      [nearPool.userId, nearDay],
    ]);
    const june = await teamInsightsPeople(teamId, PERIOD, new Date('2041-06-10T17:00:00.000Z'));
    expect(june.headingForDormancy.people.map((p) => [p.userId, p.dormancyDay])).toEqual([
      [nearPool.userId, nearDay],
      [quiet.userId, quietDay],
    ]);
  });

  it('a purchase takes a quiet person out of the quiet list', async () => {
    // A purchase in January 2041 restarts the clock as the settlement does.
    expect(await startDormancyClock({ userId: quiet.userId, teamId }, '2041-01-15T15:00:00.000Z')).toBe(true);
    const people = await teamInsightsPeople(teamId, PERIOD, NOW);
    expect(people.quiet.people.map((p) => p.userId)).toEqual([nearPool.userId]);
    expect(people.quiet.count).toBe(1);
  });

  it('lists at most PEOPLE_LISTED and counts them all', async () => {
    const { manager: boss, teamId: bigTeam } = await setUpTeam(stack);
    const many = await Promise.all(
      Array.from({ length: PEOPLE_LISTED + 2 }, () => joinTeam(stack, boss, 10)),
    );
    for (const [i, person] of many.entries())
      await startDormancyClock(
        { userId: person.userId, teamId: bigTeam },
        `2040-03-${String(i + 1).padStart(2, '0')}T12:00:00.000Z`,
      );
    const people = await teamInsightsPeople(bigTeam, PERIOD, NOW);
    expect(people.quiet.count).toBe(PEOPLE_LISTED + 2);
    expect(people.quiet.people.map((p) => p.userId)).toEqual(
      many.slice(0, PEOPLE_LISTED).map((p) => p.userId),
    );
  }, 240_000);
});

describe('spend by person and the upgrade of data kept before', () => {
  it('sums the people shards, and the upgrade lists old clocks and copies old spend once', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const [big, small] = await Promise.all([joinTeam(stack, manager, 60), joinTeam(stack, manager, 60)]);
    for (const [card, cents] of [
      [big.cardId, 2500],
      [small.cardId, 900],
      [big.cardId, 1100],
    ] as const) {
      const outcome = await payWithCard(stack, card, cents, { name: 'Udemy', category: 'book_stores' });
      expect(outcome?.approved).toBe(true);
    }
    await stack.stripe?.admin.idle();
    // Every month at once (the team's month of a purchase can differ from UTC's near midnight).
    const all = await teamInsightsPeople(teamId, { from: '2000-01', to: '2099-12' });
    expect(all.topSpenders.map((p) => [p.userId, p.spentCents])).toEqual([
      [big.userId, 3600],
      [small.userId, 900],
    ]);
    expect(all.spenderCount).toBe(2);

    // As before the shards and gsi4 existed: the shard attributes and the index keys removed.
    const shards = await stack.doc.send(
      new QueryCommand({
        TableName: stack.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.insightsNow(teamId).pk, ':p': 'PEOPLE' },
      }),
    );
    // Month and quarter shards, each person on the one their id hashes to.
    expect(shards.Items?.length).toBeGreaterThan(1);
    for (const shard of shards.Items ?? [])
      for (const id of [big.userId, small.userId])
        await stack.doc.send(
          new UpdateCommand({
            TableName: stack.tableName,
            Key: { pk: shard.pk, sk: shard.sk },
            UpdateExpression: 'REMOVE #s',
            ExpressionAttributeNames: { '#s': `s:${id}` },
          }),
        );
    for (const id of [big.userId, small.userId])
      await stack.doc.send(
        new UpdateCommand({
          TableName: stack.tableName,
          Key: keys.user(id),
          UpdateExpression: 'REMOVE gsi4pk, gsi4sk',
        }),
      );
    expect((await teamInsightsPeople(teamId, { from: '2000-01', to: '2099-12' })).spenderCount).toBe(0);
    expect((await teamInsightsPeople(teamId, PERIOD, NOW)).quiet.count).toBe(0);

    // Two runs at once, then another: each copied or listed once, the figures as before.
    const copied = await Promise.all([copyPeopleSpend(teamId), copyPeopleSpend(teamId)]);
    expect(copied[0] + copied[1]).toBeGreaterThanOrEqual(2);
    expect(await copyPeopleSpend(teamId)).toBe(0);
    const listed = await Promise.all([indexQuietPeople(teamId), indexQuietPeople(teamId)]);
    expect(listed[0] + listed[1]).toBeGreaterThanOrEqual(2);
    expect(await indexQuietPeople(teamId)).toBe(0);
    const restored = await teamInsightsPeople(teamId, { from: '2000-01', to: '2099-12' });
    expect(restored.topSpenders.map((p) => [p.userId, p.spentCents])).toEqual([
      [big.userId, 3600],
      [small.userId, 900],
    ]);
    // Their clocks started this year: quiet by 2041 (both listed again), the manager never.
    expect((await teamInsightsPeople(teamId, PERIOD, NOW)).quiet.count).toBe(2);
    // Each person's spend is on one of the shards, the one their id hashes to.
    expect(peopleShardOf(big.userId)).toBeLessThan(PEOPLE_SHARDS);
  }, 240_000);
});
