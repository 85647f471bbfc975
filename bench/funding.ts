/**
 * The monthly funding job's work (lambdas/src/jobs/monthlyFunding.ts renews each
 * team with renewTeam, one after another): one Stripe charge per team (the
 * emulator), then one ledger credit, a profile update and a debt check per
 * employee. Measured for 1,000 and 10,000 employees spread over teams of 50
 * (the growth), and for one team of 5,000. The employees have no issued card,
 * so the per-employee card-limit call to Stripe (cardBackstop) is left out:
 * this times our side of the job.
 */
import { createLogger } from '../lambdas/src/platform/log';
import type { BenchTable } from './benchTable';
import { seedBenchTeams } from './benchTeams';

export interface FundingRun {
  employees: number;
  teams: number;
  seconds: number;
}

const MONTH = '2026-12';

export async function benchFunding(table: BenchTable, options: { quick: boolean }): Promise<FundingRun[]> {
  const { renewTeam } = await import('../lambdas/src/services/billing/renewals');
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
    const customers = await seedBenchTeams(table, teamIds, perTeam);
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
