/**
 * The reconciliation job's work (lambdas/src/services/reconciliation/run.ts)
 * for 10,000 employees in 200 teams of 50 on DynamoDB Local and the Stripe
 * emulator: every team renewed for the month (one charge, 50 credits each),
 * then 10 teams' next renewal charged with its credits cut off. The first run
 * checks 200 charges against 10,000 credits and finishes the 10 renewals; the
 * second finds everything in place. Setup is not timed.
 */
import { createLogger } from '../lambdas/src/platform/log';
import type { BenchTable } from './benchTable';
import { runConcurrent } from './benchTable';
import { seedBenchTeams } from './benchTeams';

export interface ReconcileRun {
  label: string;
  employees: number;
  teams: number;
  seconds: number;
  summary: Record<string, number>;
}

const MONTH = '2026-12';
const NEXT = '2027-01';
const CUT_OFF_TEAMS = 10;

export async function benchReconcile(
  table: BenchTable,
  options: { quick: boolean },
): Promise<ReconcileRun[]> {
  const { setTeamFields } = await import('../lambdas/src/data/accounts');
  const { charge } = await import('../lambdas/src/adapters/stripe');
  const { renewTeam } = await import('../lambdas/src/services/billing/renewals');
  const { runReconciliation } = await import('../lambdas/src/services/reconciliation/run');
  const log = createLogger({ bench: 'reconcile' });
  const scale = options.quick ? 5 : 1;
  const teams = 200 / scale;
  const perTeam = 50;
  const teamIds = Array.from({ length: teams }, (_, t) => `recon-t${t}`);
  const customers = await seedBenchTeams(table, teamIds, perTeam);
  await runConcurrent(teamIds.length, 4, async (i) => {
    const teamId = teamIds[i] as string;
    const team = { teamId, stripeCustomerId: customers.get(teamId), setupMonth: '2026-01' };
    if ((await renewTeam(team as Parameters<typeof renewTeam>[0], MONTH, new Date(), log)) !== 'funded')
      throw new Error(`${teamId}: not funded`);
  });
  // The next renewal of a few teams: plan stored and charged, credits never posted.
  for (const teamId of teamIds.slice(0, CUT_OFF_TEAMS)) {
    const members = Array.from({ length: perTeam }, (_, u) => ({ userId: `${teamId}-u${u}`, cents: 2500 }));
    const plan = {
      month: NEXT,
      purpose: `CYCLE#${teamId}#${NEXT}`,
      n: 1,
      key: `CYCLE#${teamId}#${NEXT}#1`,
      status: 'pending',
      members,
      totalCents: 2500 * perTeam,
    };
    await setTeamFields(teamId, { cycleAttempt: plan });
    await charge(
      {
        customerId: customers.get(teamId) as string,
        amountCents: plan.totalCents,
        description: 'bench',
        purpose: plan.purpose,
        metadata: { teamId, cycle: NEXT },
      },
      plan.key,
    );
  }
  const runs: ReconcileRun[] = [];
  for (const label of ['first run (finishes 10 renewals)', 'second run (nothing to do)']) {
    const started = performance.now();
    const summary = await runReconciliation(new Date(Date.now() + 3_600_000), log);
    runs.push({
      label,
      employees: teams * perTeam,
      teams,
      seconds: (performance.now() - started) / 1000,
      summary,
    });
  }
  return runs;
}

export function printReconcile(runs: ReconcileRun[]) {
  console.log('\nReconciliation job (Stripe emulator lists, paged; DynamoDB Local)');
  for (const run of runs) {
    const s = run.summary;
    console.log(
      `  ${run.employees} employees, ${run.teams} teams, ${run.label}: ${run.seconds.toFixed(1)} s (examined ${s.examined}, posted ${s.posted}, matched ${s.matched}, differences ${s.differences}, failed ${s.failed})`,
    );
  }
}
