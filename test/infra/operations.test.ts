/**
 * Operations can see and be woken: alarms (to one SNS topic), dead-letter
 * queues for every asynchronous invocation, the dashboard, and the
 * authorization function's memory and warm instances.
 */

import { operationIds } from '@shared/api/routes';
import { jobIds } from '@shared/api/schedules';
import { METRICS_NAMESPACE, metricNames, serviceNameOf } from '@shared/observability';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../infra/lib/app';
import { resolveConfig } from '../../infra/lib/config';
import { ALARM_THRESHOLDS } from '../../infra/lib/constructs/operations';
import { buildTestApp, flat, logicalId, type Templates, templatesOf } from './helpers';

const ALARM_EMAIL = 'oncall@budget.example.org';
const SERVICE = serviceNameOf('test');

let built: BuiltApp;
let t: Templates;

beforeAll(() => {
  built = buildTestApp({ alarmEmail: ALARM_EMAIL });
  t = templatesOf(built);
});

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (template: Template) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>);
const alarms = (template: Template): Record<string, any>[] =>
  resources(template)
    .filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm')
    .map(([id, r]) => ({ id, ...r.Properties }));
/** Every metric an alarm reads, whether alone or inside metric math. */
const metricsOf = (
  alarm: Record<string, any>,
): { Namespace: string; MetricName: string; Dimensions?: any[] }[] =>
  alarm.MetricName
    ? [{ Namespace: alarm.Namespace, MetricName: alarm.MetricName, Dimensions: alarm.Dimensions }]
    : (alarm.Metrics ?? []).filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric);
const topicRef = () => {
  const [id] = resources(t.stateful).find(([, r]) => r.Type === 'AWS::SNS::Topic') ?? [];
  return id;
};
const customAlarm = (template: Template, metricName: string) =>
  alarms(template).filter((a) =>
    metricsOf(a).some((m) => m.Namespace === METRICS_NAMESPACE && m.MetricName === metricName),
  );
const dimensions = (alarm: Record<string, any>) =>
  Object.fromEntries((metricsOf(alarm)[0]?.Dimensions ?? []).map((d: any) => [d.Name, flat(d.Value)]));

describe('the alarm topic', () => {
  it('lives in the stateful stack, requires SSL, and e-mails the deployment setting', () => {
    t.stateful.resourceCountIs('AWS::SNS::Topic', 1);
    t.stateful.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: ALARM_EMAIL });
    t.stateful.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('has no subscription when no alarmEmail is set', () => {
    const plain = templatesOf(buildTestApp());
    plain.stateful.resourceCountIs('AWS::SNS::Topic', 1);
    plain.stateful.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('is the action of every alarm in every stack', () => {
    const all = [t.stateful, t.api, t.jobs].flatMap(alarms);
    expect(all.length).toBeGreaterThan(operationIds.length + jobIds.length * 3);
    for (const alarm of all) {
      expect(alarm.AlarmActions, alarm.id).toHaveLength(1);
      expect(flat(alarm.AlarmActions[0]), alarm.id).toContain(topicRef());
      expect(alarm.AlarmDescription, alarm.id).toBeTruthy();
    }
  });

  it('every custom metric an alarm reads is one the handlers emit, under this stage’s service', () => {
    const emitted = new Set<string>(Object.values(metricNames));
    for (const alarm of [t.stateful, t.api, t.jobs].flatMap(alarms)) {
      for (const m of metricsOf(alarm).filter((x) => x.Namespace === METRICS_NAMESPACE)) {
        expect(emitted.has(m.MetricName), m.MetricName).toBe(true);
        expect(dimensions({ MetricName: m.MetricName, Dimensions: m.Dimensions }).service).toBe(SERVICE);
      }
    }
  });
});

describe('functions', () => {
  it.each([...operationIds.map((op) => ['api', op] as const), ...jobIds.map((j) => ['jobs', j] as const)])(
    '%s %s: alarmed on errors or throttles, and names its metrics service',
    (stackName, name) => {
      const stack = stackName === 'api' ? built.api : built.jobs;
      const fn =
        stackName === 'api' ? built.api.functions[name as never] : built.jobs.functions[name as never];
      const template = stackName === 'api' ? t.api : t.jobs;
      const { functionId } = logicalId(stack, fn);
      const watching = alarms(template).filter((a) =>
        metricsOf(a).some((m) => m.Dimensions?.some((d: any) => flat(d.Value) === `<${functionId}>`)),
      );
      const watched = watching.flatMap(metricsOf).map((m) => m.MetricName);
      expect(watched).toEqual(expect.arrayContaining(['Errors', 'Throttles']));
      const fnResource = template.toJSON().Resources[functionId];
      expect(fnResource.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe(SERVICE);
    },
  );

  it('the authorization function has more memory and warm instances behind its alias', () => {
    const { functionId } = logicalId(built.api, built.api.functions.stripeWebhook);
    expect(t.api.toJSON().Resources[functionId].Properties.MemorySize).toBe(1024);
    t.api.hasResourceProperties('AWS::Lambda::Alias', {
      Name: 'live',
      FunctionName: { Ref: functionId },
      ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 2 },
    });
  });

  it('a stage without warm instances serves the function itself', () => {
    const cold = templatesOf(buildTestApp({ authorizationWarmInstances: '0' }));
    cold.api.resourceCountIs('AWS::Lambda::Alias', 0);
  });
});

describe('the authorization path and the API', () => {
  it('alarms when decisions take over 1 s at p99', () => {
    const [alarm] = customAlarm(t.api, metricNames.authorizationLatency);
    expect(alarm).toMatchObject({
      ExtendedStatistic: 'p99',
      Threshold: ALARM_THRESHOLDS.authorizationP99Ms,
      ComparisonOperator: 'GreaterThanThreshold',
      Period: 300,
    });
    expect(ALARM_THRESHOLDS.authorizationP99Ms).toBe(1000);
  });

  it.each([
    [metricNames.webhookFailure, ALARM_THRESHOLDS.webhookFailures],
    [metricNames.webhookSignatureFailure, ALARM_THRESHOLDS.webhookSignatureFailures],
    [metricNames.reconciliationDifferences, 1],
  ])('alarms on %s at %d', (metric, threshold) => {
    const [alarm] = customAlarm(t.api, metric);
    expect(alarm).toMatchObject({ Statistic: 'Sum', Threshold: threshold, TreatMissingData: 'notBreaching' });
  });

  it('alarms on API 5xx answers of its own API and stage', () => {
    const [alarm] = alarms(t.api).filter((a) => a.MetricName === '5xx');
    expect(alarm).toMatchObject({ Namespace: 'AWS/ApiGateway', Threshold: ALARM_THRESHOLDS.api5xx });
    const apiId = resources(t.api).find(([, r]) => r.Type === 'AWS::ApiGatewayV2::Api')?.[0];
    expect(dimensions(alarm as Record<string, any>)).toEqual({ ApiId: `<${apiId}>`, Stage: '$default' });
  });

  it('has one dashboard, in the API stack', () => {
    t.api.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(t.api.findResources('AWS::CloudWatch::Dashboard'));
    for (const name of [
      metricNames.authorizationDecision,
      metricNames.authorizationLatency,
      metricNames.jobFailed,
    ]) {
      expect(body).toContain(name);
    }
  });
});

describe('scheduled jobs', () => {
  const queueId = () => resources(t.jobs).find(([, r]) => r.Type === 'AWS::SQS::Queue')?.[0];

  it('one dead-letter queue, encrypted, SSL only, kept 14 days, alarmed on depth', () => {
    t.jobs.resourceCountIs('AWS::SQS::Queue', 1);
    t.jobs.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    const depth = alarms(t.jobs).filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(depth).toHaveLength(1);
    expect(depth[0]).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1 });
    expect(Object.values(dimensions(depth[0] as Record<string, any>))[0]).toBe(`<${queueId()}.QueueName>`);
  });

  it('every EventBridge target sends what it cannot deliver to the queue', () => {
    const targets = Object.values(t.jobs.findResources('AWS::Events::Rule')).flatMap(
      (r) => r.Properties.Targets as { DeadLetterConfig?: { Arn: unknown } }[],
    );
    expect(targets).toHaveLength(jobIds.length);
    for (const target of targets) expect(flat(target.DeadLetterConfig?.Arn)).toBe(`<${queueId()}.Arn>`);
  });

  it.each(jobIds)(
    '%s: a failed run goes to the queue at once, and failures and missed days alarm',
    (jobId) => {
      const { functionId } = logicalId(built.jobs, built.jobs.functions[jobId]);
      const config = Object.values(t.jobs.findResources('AWS::Lambda::EventInvokeConfig')).find(
        (c) => flat(c.Properties.FunctionName) === `<${functionId}>`,
      );
      expect(config?.Properties.MaximumRetryAttempts).toBe(0);
      expect(flat(config?.Properties.DestinationConfig.OnFailure.Destination)).toBe(`<${queueId()}.Arn>`);

      const failed = customAlarm(t.jobs, metricNames.jobFailed).filter((a) => dimensions(a).job === jobId);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const missed = customAlarm(t.jobs, metricNames.jobSucceeded).filter((a) => dimensions(a).job === jobId);
      expect(missed).toHaveLength(1);
      expect(missed[0]).toMatchObject({
        Period: 86400,
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      });
    },
  );
});

describe('the table', () => {
  it('alarms on read and write throttling', () => {
    const [alarm] = alarms(t.stateful).filter((a) =>
      metricsOf(a).some((m) => m.Namespace === 'AWS/DynamoDB'),
    );
    expect(
      metricsOf(alarm as Record<string, any>)
        .map((m) => m.MetricName)
        .sort(),
    ).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
    expect(alarm?.Threshold).toBe(ALARM_THRESHOLDS.tableThrottles);
  });
});

describe('deployment settings', () => {
  it('checks the alarm e-mail and the warm instances', () => {
    expect(() => resolveConfig({ alarmEmail: 'not an address' })).toThrow(/alarmEmail/);
    expect(() => resolveConfig({ authorizationWarmInstances: 'two' })).toThrow(/authorizationWarmInstances/);
    expect(resolveConfig({ authorizationWarmInstances: '4' }).authorizationWarmInstances).toBe(4);
    expect(resolveConfig({}).authorizationWarmInstances).toBe(2);
  });
});
