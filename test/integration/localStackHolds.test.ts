/**
 * `npm start`'s own time travel (infra/local/stack.ts) and the demo's pending
 * hold (infra/local/seed.ts: $2.50 at Udemy, never captured): a week on, the
 * Stripe emulator has expired it, as Stripe does, and the product released
 * it through the ledger before the week's jobs ran, so the card, the
 * statement and Purchase History agree (customer walk: the hold sat on the
 * card a month later with nothing to explain it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardAccount, holdAccount } from '@shared/domain/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMPLOYEE } from '../../infra/local/seed';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { freeLocalPorts } from '../support/ports';

let dataDir: string;
let stack: LocalStack | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lb-holds-'));
  const ports = await freeLocalPorts();
  // Vite's dev server: no production build needed for what this test reads.
  stack = await startLocalStack({
    ports,
    dataDir,
    inMemoryDatabase: true,
    quiet: true,
    dev: true,
    scheduledJobs: false,
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the demo's pending hold as time passes", () => {
  it('is released a week on: back on the card, explained on the statement, gone from the pending list', async () => {
    // Read in-process, as the handlers do: the stack has pointed the environment at its table.
    const { getEmailOwner } = await import('../../lambdas/src/data/accounts');
    const { balanceOf, statement } = await import('../../lambdas/src/data/ledger');
    const { listPurchases } = await import('../../lambdas/src/services/purchases/purchases');
    const { getUser } = await import('../../lambdas/src/data/users');
    const { systemClock } = await import('../../lambdas/src/adapters/clock');
    const userId = (await getEmailOwner(DEMO_EMPLOYEE.email)) as string;
    const user = await getUser(userId);
    const actor = { ...user, emailVerified: true } as Parameters<typeof listPurchases>[0];
    const pending = async () =>
      (await listPurchases(actor, { limit: 10 }, systemClock.now())).purchases.filter(
        (p) => p.status === 'pending',
      );

    expect(await balanceOf(holdAccount(userId))).toBe(250);
    const spendable = await balanceOf(cardAccount(userId));
    expect((await pending()).map((p) => [p.vendor, p.amountCents])).toEqual([['Udemy', 250]]);
    // The demo's course above the balance: listed, declined, taken from nothing.
    const declined = (await listPurchases(actor, { limit: 10 }, systemClock.now())).purchases.filter(
      (p) => p.status === 'declined',
    );
    expect(declined.map((p) => [p.vendor, p.amountCents])).toEqual([['Coursera', 12000]]);

    await stack?.travel('+8d');
    expect(await balanceOf(holdAccount(userId))).toBe(0);
    expect(await balanceOf(cardAccount(userId))).toBe(spendable + 250);
    expect(await pending()).toEqual([]);
    expect((await statement(cardAccount(userId))).map((l) => [l.description, l.amountCents])).toContainEqual([
      'Hold expired',
      250,
    ]);
  }, 300_000);
});
