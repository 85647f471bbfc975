/**
 * Teams for the job benchmarks: each with a Stripe customer (the emulator),
 * billing day 1 and `perTeam` active employees with a $25 budget, written
 * straight to the table (setup is not what is measured).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type BenchTable, batchPut } from './benchTable';

/** Seeds the teams; answers each team's Stripe customer id. */
export async function seedBenchTeams(
  table: BenchTable,
  teamIds: readonly string[],
  perTeam: number,
): Promise<Map<string, string>> {
  // Imported here: handler modules read the environment startBenchTable sets.
  const { keys } = await import('../lambdas/src/data/keys');
  const { teamCycleIndex } = await import('../lambdas/src/data/accounts');
  const { createCustomer } = await import('../lambdas/src/adapters/stripe');
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
  await batchPut(table, users);

  return customers;
}
