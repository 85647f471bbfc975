/**
 * Time travel, local only: the product's clock runs ahead of the machine's by
 * an offset this process holds. The handlers' `systemClock` is pointed at it
 * (AWS code never reads an offset: nothing there moves the clock), the Stripe
 * emulator is given the same clock, and moving forward fires every scheduled
 * job for each day passed, in time order, with that day's scheduled time, as
 * EventBridge would have. The offset is kept in the data folder so a restart
 * keeps the product's date.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type JobId, jobIds, jobs } from '@shared/api/schedules';
import { addMonths } from '@shared/domain/dormancy';
import { systemClock } from '../../lambdas/src/adapters/clock';
import { nextFireTime } from './scheduler';

type JobHandler = (event?: { time?: string }) => Promise<unknown>;

export interface LocalClock {
  now(): Date;
  nowMs(): number;
  offsetMs(): number;
  set(at: Date): void;
}

/** A clock `offset` ms ahead of the machine's, installed as the handlers' system clock. */
export function createLocalClock(file?: string): LocalClock {
  let offset = 0;
  if (file && existsSync(file)) offset = Number(JSON.parse(readFileSync(file, 'utf8')).offsetMs) || 0;
  const clock: LocalClock = {
    nowMs: () => Date.now() + offset,
    now: () => new Date(Date.now() + offset),
    offsetMs: () => offset,
    set: (at) => {
      // Only ever forward: records already written carry the later times.
      offset = Math.max(offset, at.getTime() - Date.now());
      if (file) writeFileSync(file, JSON.stringify({ offsetMs: offset }));
    },
  };
  systemClock.now = clock.now;
  return clock;
}

/** `+3d`, `+2w`, `+2m` (calendar months), `+12h`: the moment that far after `from`. */
export function parseTravel(by: string, from: Date): Date {
  const match = /^\+?(\d{1,3})\s*([hdwm])$/.exec(by.trim());
  if (!match) throw new Error(`"${by}" is not a step: use e.g. +3d, +2w, +2m or +12h`);
  const n = Number(match[1]);
  const unit = match[2];
  if (unit === 'm') return addMonths(from.toISOString(), n);
  const hours = { h: 1, d: 24, w: 24 * 7 }[unit as 'h' | 'd' | 'w'];
  return new Date(from.getTime() + n * hours * 60 * 60 * 1000);
}

export interface JobFiring {
  jobId: JobId;
  time: string;
}

/** Every scheduled firing after `from` up to and including `to`, in time order (ties: table order). */
export function firingsBetween(from: Date, to: Date): JobFiring[] {
  const firings: JobFiring[] = [];
  for (const jobId of jobIds) {
    let at = nextFireTime(jobs[jobId].cron, from);
    while (at <= to) {
      firings.push({ jobId, time: at.toISOString() });
      at = nextFireTime(jobs[jobId].cron, at);
    }
  }
  return firings.sort(
    (a, b) => a.time.localeCompare(b.time) || jobIds.indexOf(a.jobId) - jobIds.indexOf(b.jobId),
  );
}

export interface TravelResult {
  from: string;
  to: string;
  runs: { jobId: JobId; time: string; result: unknown }[];
}

/**
 * What the outside world does as time passes, e.g. the Stripe emulator
 * expiring holds nobody captured in 7 days. Resolves once the product has
 * heard of it (its webhooks answered).
 */
export type CatchUp = () => Promise<unknown>;

/**
 * Moves the clock to `to`, stopping at each scheduled firing on the way: the
 * clock reads that moment while the job runs, so whatever it writes carries it.
 * At each stop, and at the end, `catchUp` lets the outside world act first
 * (a hold Stripe released on day 7 is released before that day's jobs run).
 */
export async function travel(
  clock: LocalClock,
  handlers: Map<JobId, JobHandler>,
  to: Date,
  log: (line: string) => void = () => undefined,
  catchUp: CatchUp = async () => undefined,
): Promise<TravelResult> {
  const from = clock.now();
  if (to <= from) throw new Error('Time only moves forward.');
  const runs: TravelResult['runs'] = [];
  for (const firing of firingsBetween(from, to)) {
    clock.set(new Date(firing.time));
    await catchUp();
    const handler = handlers.get(firing.jobId);
    if (!handler) throw new Error(`unknown job ${firing.jobId}`);
    const result = await handler({ time: firing.time });
    log(`${firing.time} ${firing.jobId}: ${JSON.stringify(result)}`);
    runs.push({ ...firing, result });
  }
  clock.set(to);
  await catchUp();
  return { from: from.toISOString(), to: to.toISOString(), runs };
}
