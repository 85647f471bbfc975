/**
 * Scheduled jobs from shared/src/api/schedules.ts: one function and one
 * EventBridge rule each, on the same cron (UTC) the local scheduler uses.
 * Jobs claim their run per day, so a retried or late event does no work twice.
 */

import { type Cron, type JobId, jobFile, jobIds, jobs } from '@shared/api/schedules';
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { baseEnvironment, grantCapabilities, type SharedResources } from './capabilities';
import { type AppConfig, applyFeatureFlags } from './config';
import { AppFunction } from './constructs/appFunction';
import { DeadLetterQueue } from './constructs/operations';

export interface JobsStackProps extends StackProps {
  config: AppConfig;
  shared: SharedResources;
  /** See BuildAppProps.handlerEntry. */
  handlerEntry?: (file: string) => string;
}

/** A job walks every team due that day; give it room that an API call never needs. */
const JOB_TIMEOUT = Duration.minutes(5);
const JOB_MEMORY = 512;

/** The job's cron as EventBridge fields; absent fields mean "every". */
export function scheduleOf(cron: Cron): Schedule {
  return Schedule.cron({ minute: cron.minute, hour: cron.hour, day: cron.day ?? '*' });
}

export class JobsStack extends Stack {
  readonly functions: Record<JobId, AppFunction>;
  readonly rules: Record<JobId, Rule>;
  /** Events EventBridge could not deliver and runs that failed (constructs/operations.ts alarms on its depth). */
  readonly deadLetters: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    applyFeatureFlags(this.node);
    const { config, shared } = props;
    const handlerEntry = props.handlerEntry ?? ((file: string) => file);
    const environment = baseEnvironment(config, shared);

    this.deadLetters = new DeadLetterQueue(this, 'JobDeadLetters');
    const functions: Partial<Record<JobId, AppFunction>> = {};
    const rules: Partial<Record<JobId, Rule>> = {};
    for (const jobId of jobIds) {
      const job = jobs[jobId];
      const fn = new AppFunction(this, jobId, {
        entry: handlerEntry(jobFile(jobId)),
        description: job.summary,
        environment,
        timeout: JOB_TIMEOUT,
        memorySize: JOB_MEMORY,
      });
      grantCapabilities(fn, job.uses, shared, config);
      functions[jobId] = fn;

      rules[jobId] = new Rule(this, `${jobId}Schedule`, {
        description: `${jobId}: ${job.summary}`.slice(0, 512),
        schedule: scheduleOf(job.cron),
        targets: [
          new LambdaFunction(fn.function, {
            retryAttempts: 2,
            maxEventAge: Duration.hours(6),
            deadLetterQueue: this.deadLetters,
          }),
        ],
      });
    }
    this.functions = functions as Record<JobId, AppFunction>;
    this.rules = rules as Record<JobId, Rule>;
  }
}
