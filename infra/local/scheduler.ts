/**
 * The local stand-in for EventBridge schedules: fires the same job handlers on
 * the same cron (UTC). Jobs are idempotent per day, so a restart never repeats
 * work. Any job can also be run at once through the gateway's /_local/jobs.
 */
import { type Cron, type JobId, jobFile, jobIds, jobs } from '@shared/api/schedules';
import { lazyHandlers } from './handlerModules';
import type { LogSink } from './processes';

type JobHandler = (event?: { time?: string }) => Promise<unknown>;

function fieldMatches(field: string | undefined, value: number): boolean {
  if (field === undefined || field === '*' || field === '?') return true;
  return field.split(',').some((part) => Number(part) === value);
}

/** The first whole minute after `from` that matches the cron, UTC. */
export function nextFireTime(cron: Cron, from: Date): Date {
  const t = new Date(from);
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  for (let i = 0; i < 60 * 24 * 62; i++) {
    if (
      fieldMatches(cron.minute, t.getUTCMinutes()) &&
      fieldMatches(cron.hour, t.getUTCHours()) &&
      fieldMatches(cron.day, t.getUTCDate())
    ) {
      return t;
    }
    t.setUTCMinutes(t.getUTCMinutes() + 1);
  }
  throw new Error(`cron ${JSON.stringify(cron)} never fires`);
}

/** Every scheduled job's handler, each imported on its first run (handlerModules.ts). */
export async function loadJobHandlers(root = process.cwd()): Promise<Map<JobId, JobHandler>> {
  return lazyHandlers<JobId, JobHandler>(jobIds, jobFile, root);
}

export async function startScheduler(options: {
  log: LogSink;
  /** The product's clock (time travel moves it ahead of the machine's). */
  now?: () => Date;
  handlers?: Map<JobId, JobHandler>;
  /**
   * Fire jobs at their scheduled times (default true). Tests say false: a job
   * firing by the machine's clock in the middle of a test (the receipt check
   * at 14:00 UTC) would change what the test set up; they run jobs themselves.
   */
  armed?: boolean;
}) {
  const now = options.now ?? (() => new Date());
  const handlers = options.handlers ?? (await loadJobHandlers());
  const timers = new Map<JobId, NodeJS.Timeout>();
  let stopped = false;

  const run = async (id: JobId, time: Date) => {
    const handler = handlers.get(id);
    if (!handler) throw new Error(`unknown job ${id}`);
    options.log(`running ${id}`);
    const result = await handler({ time: time.toISOString() });
    options.log(`${id}: ${JSON.stringify(result)}`);
    return result;
  };

  const arm = (id: JobId) => {
    if (stopped || options.armed === false) return;
    clearTimeout(timers.get(id));
    const at = nextFireTime(jobs[id].cron, now());
    // setTimeout caps at ~24.8 days; re-arm in steps for anything further.
    const delay = Math.min(at.getTime() - now().getTime(), 2 ** 31 - 1);
    timers.set(
      id,
      setTimeout(() => {
        if (now().getTime() + 1000 < at.getTime()) return arm(id);
        run(id, at)
          .catch((error) => options.log(`${id} failed: ${(error as Error).message}`))
          .finally(() => arm(id));
      }, delay),
    );
    options.log(`${id} next at ${at.toISOString()}`);
  };
  for (const id of jobIds) arm(id);

  return {
    run: (id: JobId) => run(id, now()),
    /** After the clock jumped: every job waits for its next time on the new clock. */
    rearm: () => {
      for (const id of jobIds) arm(id);
    },
    isJob: (id: string): id is JobId => (jobIds as string[]).includes(id),
    stop: async () => {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
    },
  };
}
