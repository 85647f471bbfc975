/**
 * The monthly funding job's work (lambdas/src/jobs/monthlyFunding.ts renews each
 * team with renewTeam, one after another): one Stripe charge per team (the
 * emulator), then one ledger credit, a profile update and a debt check per
 * employee. Measured for 1,000 and 10,000 employees spread over teams of 50
 * (the growth), and for one team of 5,000. The employees have no issued card,
 * so the per-employee card-limit call to Stripe (cardBackstop) is left out:
 * this times our side of the job.
 */
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createLogger } from '../lambdas/src/platform/log';
import type { BenchTable } from './benchTable';
import { runConcurrent } from './benchTable';

export interface FundingRun {
  employees: number;
  teams: number;
  seconds: number;
}

const MONTH = '2026-12';

export async function benchFunding(table: BenchTable, options: { quick: boolean }): Promise<FundingRun[]> {
  const { keys } = await import('../lambdas/src/data/keys');
  const { teamCycleIndex } = await import('../lambdas/src/data/accounts');
  const { createCustomer } = await import('../lambdas/src/adapters/stripe');
  const { renewTeam } = await import('../lambdas/src/services/renewals');
  const log = createLogger({ bench: 'funding' });
  const scale = options.quick ? 5 : 1;
  const shapes = [
    { name: 'a', employees: 1000 / scale, teams: 20 / scale },
    { name: 'b', employees: 10_000 / scale, teams: 200 / scale },
    { name: 'c', employees: 5000 / scale, teams: 1 },
  ];
  const runs: FundingRun[] = [];
  for (const shape of shapes) {
    const perTeam = shape.employees / shape.teams;
    const teamIds = Array.from({ length: shape.teams }, (_, t) => `fund-${shape.name}-t${t}`);
    const customers = new Map<string, string>();
    for (const teamId of teamIds) {
      const customerId = await createCustomer(
        { teamId, email: 'm@example.com', name: teamId, token: 'tok_visa' },
        `BENCH#${teamId}`,
      );
      customers.set(teamId, customerId);
      await table.doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.team(teamId),
            ...teamCycleIndex(1, teamId),
            entity: 'Team',
            teamId,
            stripeCustomerId: customerId,
            cycleDay: 1,
            setupMonth: '2026-01',
            status: 'active',
          },
        }),
      );
    }
    const users = teamIds.flatMap((teamId) =>
      Array.from({ length: perTeam }, (_, u) => ({
        ...keys.user(`${teamId}-u${u}`),
        gsi1pk: `TEAM#${teamId}`,
        gsi1sk: `USER#${teamId}-u${u}`,
        entity: 'User',
        userId: `${teamId}-u${u}`,
        teamId,
        role: 'employee',
        status: 'active',
        email: 'e@example.com',
        budgetCents: 2500,
      })),
    );
    await runConcurrent(Math.ceil(users.length / 25), 8, async (i) => {
      let batch: Record<string, unknown>[] = users
        .slice(i * 25, i * 25 + 25)
        .map((Item) => ({ PutRequest: { Item } }));
      while (batch.length > 0) {
        const result = await table.doc.send(
          new BatchWriteCommand({ RequestItems: { [table.tableName]: batch as never } }),
        );
        batch = (result.UnprocessedItems?.[table.tableName] as Record<string, unknown>[] | undefined) ?? [];
      }
    });
    const started = performance.now();
    // As the job does: one team after another.
    for (const teamId of teamIds) {
      const outcome = await renewTeam(
        { teamId, stripeCustomerId: customers.get(teamId), setupMonth: '2026-01' } as Parameters<
          typeof renewTeam
        >[0],
        MONTH,
        new Date(),
        log,
      );
      if (outcome !== 'funded') throw new Error(`${teamId}: ${outcome}`);
    }
    runs.push({
      employees: shape.employees,
      teams: shape.teams,
      seconds: (performance.now() - started) / 1000,
    });
  }
  return runs;
}

export function printFunding(runs: FundingRun[]) {
  console.log('\nMonthly funding job (renewTeam per team, in turn; Stripe emulator; no card-limit calls)');
  console.log('  employees   teams   seconds   employees/s');
  for (const run of runs) {
    console.log(
      `  ${String(run.employees).padStart(9)}   ${String(run.teams).padStart(5)}   ${run.seconds.toFixed(1).padStart(7)}   ${(run.employees / run.seconds).toFixed(0).padStart(11)}`,
    );
  }
  const [small, large] = runs;
  if (small && large)
    console.log(
      `  growth ${small.employees} -> ${large.employees} employees: time x${(large.seconds / small.seconds).toFixed(1)} for x${large.employees / small.employees} the work`,
    );
}
