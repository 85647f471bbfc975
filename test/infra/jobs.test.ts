import { jobIds, jobs } from '@shared/api/schedules';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../infra/lib/app';
import { STOP_STARTING_WITHIN_MS } from '../../lambdas/src/jobs/monthlyFunding';
import { DEFAULT_JOB_TIME_BUDGET_MS } from '../../lambdas/src/platform/job';
import { buildTestApp, flat, logicalId, type Templates, templatesOf } from './helpers';

let built: BuiltApp;
let t: Templates;

beforeAll(() => {
  built = buildTestApp();
  t = templatesOf(built);
});

describe('scheduled jobs', () => {
  it('one EventBridge rule per job', () => {
    t.jobs.resourceCountIs('AWS::Events::Rule', jobIds.length);
  });

  it.each(jobIds)('%s runs on its cron (UTC) and targets its own function', (jobId) => {
    const { minute, hour } = jobs[jobId].cron;
    const day = 'day' in jobs[jobId].cron ? (jobs[jobId].cron as { day?: string }).day : undefined;
    const expression = `cron(${minute} ${hour} ${day ?? '*'} * ? *)`;
    const rules = Object.values(t.jobs.findResources('AWS::Events::Rule')).filter(
      (r) => r.Properties.ScheduleExpression === expression,
    );
    const { functionId } = logicalId(built.jobs, built.jobs.functions[jobId]);
    const target = rules
      .flatMap((r) => r.Properties.Targets as { Arn: unknown; RetryPolicy?: unknown }[])
      .find((x) => flat(x.Arn) === `<${functionId}.Arn>`);
    expect(target, `${jobId} ${expression}`).toBeDefined();
    expect(rules.find((r) => r.Properties.Targets.includes(target))?.Properties.State).toBe('ENABLED');
    expect(target?.RetryPolicy).toMatchObject({ MaximumRetryAttempts: 2 });
  });

  it.each(jobIds)('%s may be invoked by EventBridge (and only by its rule)', (jobId) => {
    const { functionId } = logicalId(built.jobs, built.jobs.functions[jobId]);
    const permissions = Object.values(t.jobs.findResources('AWS::Lambda::Permission')).filter(
      (p) => flat(p.Properties.FunctionName) === `<${functionId}.Arn>`,
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]?.Properties.Principal).toBe('events.amazonaws.com');
    expect(flat(permissions[0]?.Properties.SourceArn)).toMatch(/Schedule.*\.Arn>$/);
  });

  it.each(jobIds)(
    '%s times out where a run outside Lambda is budgeted to, with room for funding’s reserve',
    (jobId) => {
      const { functionId } = logicalId(built.jobs, built.jobs.functions[jobId]);
      const fn = t.jobs.findResources('AWS::Lambda::Function')[functionId];
      expect(fn?.Properties.Timeout).toBe(DEFAULT_JOB_TIME_BUDGET_MS / 1000);
      expect(DEFAULT_JOB_TIME_BUDGET_MS).toBeGreaterThan(2 * STOP_STARTING_WITHIN_MS);
    },
  );
});
