/**
 * The wrapper every scheduled job goes through. A job runs at most once per
 * UTC day: the run is claimed with a conditional write, so EventBridge's
 * at-least-once delivery (or the local scheduler firing at start) never does
 * the work twice. Work inside a job must itself be idempotent too (per-team,
 * per-month keys), because a run that crashes half-way is retried by hand.
 *
 * A run knows how long it has left (`remainingMs`): Lambda's own count from
 * its context, or outside Lambda a budget from the run's start
 * (JOB_TIME_BUDGET_MS, by default the jobs' 5-minute Lambda timeout). A long
 * job stops starting work it could not finish, and the next day's run picks
 * that up (jobs/monthlyFunding.ts).
 */
import type { JobId } from '@shared/api/schedules';
import { systemClock } from '../adapters/clock';
import { claimJobRun, finishJobRun } from '../data/jobRuns';
import { jobConfig } from './config';
import { createLogger, errorFields, type Logger } from './log';
import { metrics, withMetrics } from './metrics';

export interface JobContext {
  now: Date;
  /** The UTC day this run is for, `yyyy-mm-dd`. */
  day: string;
  log: Logger;
  /** Milliseconds left before the run is cut off (Lambda's timeout, or the local budget). */
  remainingMs: () => number;
}

/** The part of Lambda's invocation context a job reads. */
export interface LambdaTimeContext {
  getRemainingTimeInMillis(): number;
}

/** The jobs' Lambda timeout (infra/lib/jobsStack.ts): the budget of a run outside Lambda unless configured. */
export const DEFAULT_JOB_TIME_BUDGET_MS = 5 * 60_000;

/** Milliseconds left of a run started at `startedAt` (performance.now()): from Lambda, else the budget. */
export function remainingTime(context: LambdaTimeContext | undefined, startedAt: number): () => number {
  if (typeof context?.getRemainingTimeInMillis === 'function')
    return () => context.getRemainingTimeInMillis();
  const budget = Number(jobConfig().JOB_TIME_BUDGET_MS ?? DEFAULT_JOB_TIME_BUDGET_MS);
  return () => budget - (performance.now() - startedAt);
}

/** What a job did, as counts, recorded on the run and logged. */
export type JobSummary = Record<string, number>;

export type JobResult = { status: 'done'; summary: JobSummary } | { status: 'skipped'; reason: string };

export function jobHandler(jobId: JobId, work: (ctx: JobContext) => Promise<JobSummary>) {
  const run = async (event?: { time?: string }, context?: LambdaTimeContext): Promise<JobResult> => {
    const started = performance.now();
    const remainingMs = remainingTime(context, started);
    // EventBridge passes the scheduled time; a manual run uses the clock.
    const now = event?.time ? new Date(event.time) : systemClock.now();
    const day = now.toISOString().slice(0, 10);
    const log = createLogger({ jobId, day });
    if (!(await claimJobRun(jobId, day, new Date().toISOString()))) {
      log.info('job already ran for this day; nothing to do');
      metrics.jobFinished(jobId, 'skipped');
      return { status: 'skipped', reason: 'already ran today' };
    }
    try {
      const summary = await work({ now, day, log, remainingMs });
      await finishJobRun(jobId, day, summary, new Date().toISOString());
      log.info('job finished', summary);
      // The missed-run alarm watches this one: no success in a day means the job did not run or failed.
      metrics.jobFinished(jobId, 'succeeded', performance.now() - started);
      return { status: 'done', summary };
    } catch (error) {
      log.error('job failed', errorFields(error));
      metrics.jobFinished(jobId, 'failed', performance.now() - started);
      throw error;
    }
  };
  return (event?: { time?: string }, context?: LambdaTimeContext) =>
    withMetrics(jobId, () => run(event, context));
}
