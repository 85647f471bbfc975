/**
 * The card dialog's "Last declined purchase" (GET /me/balance `lastDecline`)
 * stays only while it explains the card as it is: until an approved purchase,
 * until money comes onto the card (its reason quotes the balance of then), or
 * for 7 days (docs/decisions.md, "Virtual card, declines").
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalClock, type LocalClock } from '../../infra/local/timeTravel';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

const DAY_MS = 86_400_000;
let clock: LocalClock;
let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  clock = createLocalClock();
  stack = await startIntegrationStack({
    stripe: true,
    authorizationTimeoutMs: 15_000,
    stripeClock: () => clock.nowMs(),
  });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

type Balance = { availableCents: number; lastDecline: { amountCents: number; reason: string } | null };
const balance = async (who: SignedIn) => (await send('GET', '/me/balance', who.accessToken)).body as Balance;

async function declined(employee: SignedIn & { cardId: string }, cents: number) {
  expect((await payWithCard(stack, employee.cardId, cents)).approved).toBe(false);
  const { lastDecline } = await balance(employee);
  expect(lastDecline).toMatchObject({ amountCents: cents });
  expect(lastDecline?.reason).toMatch(/balance/);
}

describe('the last decline', () => {
  it('goes once money comes onto the card: the balance its reason quoted is gone', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    await declined(employee, 3500);
    const deposit = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [employee.userId], amount: 10 },
      `decline-${randomUUID()}`,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    expect(await balance(employee)).toMatchObject({ availableCents: 4000, lastDecline: null });
    // A new decline shows again.
    await declined(employee, 4500);
  });

  it('goes with the next approved purchase', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    await declined(employee, 3100);
    expect((await payWithCard(stack, employee.cardId, 500)).approved).toBe(true);
    expect((await balance(employee)).lastDecline).toBeNull();
  });

  it('stays for 7 days when nothing else happens, then goes', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    await declined(employee, 3300);
    const declinedAt = clock.nowMs();
    clock.set(new Date(declinedAt + 6 * DAY_MS));
    expect((await balance(employee)).lastDecline).toMatchObject({ amountCents: 3300 });
    clock.set(new Date(declinedAt + 7 * DAY_MS + 1000));
    expect((await balance(employee)).lastDecline).toBeNull();
  });
});
