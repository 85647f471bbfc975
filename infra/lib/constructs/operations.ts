/**
 * What wakes operations: CloudWatch alarms to one SNS topic (e-mailed to the
 * deployment's `alarmEmail`), a dashboard, and a dead-letter queue for every
 * asynchronous invocation. The custom metrics are the EMF lines the handlers
 * write (lambdas/src/platform/metrics.ts) under the names of
 * shared/src/observability.ts, so an alarm cannot watch a metric nobody emits.
 *
 * Added to the stacks from outside (`watchApp`, called by app.ts), so the
 * stacks themselves stay about what they serve; alarms sit in the stack of
 * the resource they watch (no cross-stack reference to a function name, which
 * would pin the function), and only the topic's ARN crosses stacks.
 */

import type { Cron } from '@shared/api/schedules';
import { METRICS_NAMESPACE, metricNames, serviceNameOf } from '@shared/observability';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AppFunction } from './appFunction';

/** Where the alarms fire; one per alarm kind so an operator can tune them in one place. */
export const ALARM_THRESHOLDS = {
  /** Stripe waits 2 s for an authorization answer; at 1 s p99 there is still time to act. */
  authorizationP99Ms: 1000,
  /** Our own webhook failures (500, Stripe retries) in 5 minutes. */
  webhookFailures: 3,
  /** Refused signatures in 5 minutes: a few are scanners; many are a rotated secret or an attack. */
  webhookSignatureFailures: 10,
  /** API Gateway 5xx answers (any route) in 5 minutes. */
  api5xx: 5,
  /** Lambda errors plus throttles of one function in 5 minutes. */
  functionErrorsOrThrottles: 1,
  /** DynamoDB read plus write throttle events in 5 minutes. */
  tableThrottles: 5,
  /** Messages waiting in a dead-letter queue. */
  deadLetters: 1,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

/** The topic every alarm notifies; subscribed by e-mail when the deployment names an address. */
export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: { stage: string; email?: string }) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: `Learning budget alarms (${props.stage})`,
      enforceSSL: true,
    });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry alarm names and metric values only, no customer data; CloudWatch cannot ' +
        'publish to a topic under the AWS-managed SNS key, and a customer key would cost more than it protects.',
    });
  }
}

/** An encrypted, SSL-only queue that keeps failed asynchronous events for 14 days. */
export class DeadLetterQueue extends Queue {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue (of EventBridge targets and asynchronous invocations).',
    });
  }
}

export interface OperationsProps {
  topic: ITopic;
  /** The `service` dimension of this stage's custom metrics (serviceNameOf(stage)). */
  service: string;
}

/** The alarms of one stack, each notifying the topic. */
export class Operations extends Construct {
  readonly alarms: Alarm[] = [];
  private readonly props: OperationsProps;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.props = props;
  }

  /** One of our custom metrics, with this stage's service dimension. */
  custom(
    metricName: string,
    statistic: string,
    dimensions: Record<string, string> = {},
    period = FIVE_MINUTES,
  ) {
    return customMetric(this.props.service, metricName, statistic, dimensions, period);
  }

  private alarm(id: string, description: string, metric: IMetric, options: AlarmShape): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold: options.threshold,
      comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: options.missing ?? TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.props.topic));
    this.alarms.push(alarm);
    return alarm;
  }

  /** Names the `service` dimension of the metrics a function writes (platform/metrics.ts reads it). */
  nameService(fn: AppFunction): void {
    fn.function.addEnvironment('POWERTOOLS_SERVICE_NAME', this.props.service);
  }

  /** Errors or throttles of one function. */
  watchFunction(name: string, fn: AppFunction): void {
    const errors = fn.function.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
    const throttles = fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.alarm(
      `${name}ErrorsOrThrottles`,
      `${name}: the function failed (uncaught error or timeout) or was throttled.`,
      new MathExpression({
        expression: 'errors + throttles',
        usingMetrics: { errors, throttles },
        label: `${name} errors + throttles`,
        period: FIVE_MINUTES,
      }),
      { threshold: ALARM_THRESHOLDS.functionErrorsOrThrottles },
    );
  }

  /** The card-authorization webhook: decision latency, our failures, refused signatures. */
  watchAuthorization(): void {
    this.alarm(
      'AuthorizationLatencyP99',
      `Card authorization decisions took more than ${ALARM_THRESHOLDS.authorizationP99Ms} ms at p99; ` +
        'Stripe declines what is not answered in 2 s.',
      this.custom(metricNames.authorizationLatency, 'p99'),
      {
        threshold: ALARM_THRESHOLDS.authorizationP99Ms,
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      },
    );
    this.alarm(
      'WebhookFailures',
      'Stripe webhooks failed on our side (500s; Stripe retries them, authorizations fall back to its default).',
      this.custom(metricNames.webhookFailure, 'Sum'),
      { threshold: ALARM_THRESHOLDS.webhookFailures },
    );
    this.alarm(
      'WebhookSignatureFailures',
      'Many webhooks were refused for their signature: a rotated webhook secret, or someone posing as Stripe.',
      this.custom(metricNames.webhookSignatureFailure, 'Sum'),
      { threshold: ALARM_THRESHOLDS.webhookSignatureFailures },
    );
  }

  /** Differences between our ledger and Stripe, once the reconciliation job reports them (metrics.reconciliationDifferences). */
  watchReconciliation(): void {
    this.alarm(
      'ReconciliationDifferences',
      'Reconciliation found differences between the ledger and Stripe; every one needs a look.',
      this.custom(metricNames.reconciliationDifferences, 'Sum', {}, Duration.hours(1)),
      { threshold: 1 },
    );
  }

  /** 5xx answers of the whole HTTP API. */
  watchApi(api: HttpApi, stage: HttpStage): void {
    this.alarm(
      'Api5xx',
      'The API answered with server errors (any route).',
      api.metricServerError({
        period: FIVE_MINUTES,
        statistic: 'Sum',
        dimensionsMap: apiDimensions(api, stage),
      }),
      { threshold: ALARM_THRESHOLDS.api5xx },
    );
  }

  /**
   * A scheduled job: any failure, a day without a successful run (missed or
   * failed; no data counts as missed), and a dead-letter queue for its
   * asynchronous invocation. Lambda does not retry a failed run: the next
   * firing the same day would only find the day claimed (platform/job.ts), so
   * the event goes to the queue at once, for a rerun by hand.
   */
  watchJob(jobId: string, fn: AppFunction, cron: Cron, deadLetters: IQueue): void {
    this.nameService(fn);
    this.watchFunction(jobId, fn);
    fn.function.configureAsyncInvoke({
      onFailure: new SqsDestination(deadLetters),
      retryAttempts: 0,
      maxEventAge: Duration.hours(6),
    });
    this.alarm(
      `${jobId}Failed`,
      `The scheduled job ${jobId} failed; see its log, then rerun it (docs/local.md, docs/deploy.md).`,
      this.custom(metricNames.jobFailed, 'Sum', { job: jobId }),
      { threshold: 1 },
    );
    // A job that runs on given days of the month cannot be checked day by day (alarm periods stop at a day).
    if (cron.day === undefined || cron.day === '*') {
      this.alarm(
        `${jobId}MissedRun`,
        `The daily job ${jobId} has not finished a run in the last 24 hours.`,
        this.custom(metricNames.jobSucceeded, 'Sum', { job: jobId }, Duration.days(1)),
        {
          threshold: 1,
          comparison: ComparisonOperator.LESS_THAN_THRESHOLD,
          missing: TreatMissingData.BREACHING,
        },
      );
    }
  }

  /** Messages in a dead-letter queue: something asynchronous failed for good. */
  watchQueue(name: string, queue: IQueue): void {
    this.alarm(
      `${name}Depth`,
      `${name} holds failed events: read them, fix the cause, then replay or rerun by hand.`,
      queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      { threshold: ALARM_THRESHOLDS.deadLetters },
    );
  }

  /** Read and write throttling of the table (on-demand tables throttle past their instant capacity). */
  watchTable(table: ITable): void {
    const dims = { TableName: table.tableName };
    const throttle = (metricName: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: dims,
        statistic: 'Sum',
        period: FIVE_MINUTES,
      });
    this.alarm(
      'TableThrottles',
      'DynamoDB throttled reads or writes of the table.',
      new MathExpression({
        expression: 'reads + writes',
        usingMetrics: { reads: throttle('ReadThrottleEvents'), writes: throttle('WriteThrottleEvents') },
        label: 'table throttle events',
        period: FIVE_MINUTES,
      }),
      { threshold: ALARM_THRESHOLDS.tableThrottles },
    );
  }
}

interface AlarmShape {
  threshold: number;
  comparison?: ComparisonOperator;
  missing?: TreatMissingData;
}

function customMetric(
  service: string,
  metricName: string,
  statistic: string,
  dimensions: Record<string, string> = {},
  period = FIVE_MINUTES,
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service, ...dimensions },
    statistic,
    period,
  });
}

function apiDimensions(api: HttpApi, stage: HttpStage): Record<string, string> {
  return { ApiId: api.apiId, Stage: stage.stageName };
}

export interface DashboardProps {
  service: string;
  api: HttpApi;
  stage: HttpStage;
  table: ITable;
  jobIds: readonly string[];
  /** Stack names whose functions' errors and throttles are graphed (found by search, no references). */
  functionStacks: string[];
}

/** One screen for the on-call person: the card path first, then the API, jobs and the table. */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const { service } = props;
    const custom = (name: string, statistic: string, dims: Record<string, string> = {}, label?: string) => {
      const metric = customMetric(service, name, statistic, dims);
      return label ? metric.with({ label }) : metric;
    };
    const search = (expression: string, label: string) =>
      new MathExpression({ expression, label, period: FIVE_MINUTES, usingMetrics: {} });
    const decisions = search(
      `SEARCH('{${METRICS_NAMESPACE},service,outcome,reason} MetricName="${metricNames.authorizationDecision}" service="${service}"', 'Sum', 300)`,
      'decisions',
    );
    const lambdaSearch = (metricName: string) =>
      props.functionStacks.map((stackName) =>
        search(
          `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" "${stackName}"', 'Sum', 300)`,
          `${metricName} ${stackName}`,
        ),
      );
    const graph = (title: string, left: IMetric[], width = 8) =>
      new GraphWidget({ title, left, width, height: 6 });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${Stack.of(this).stackName}-operations`,
      defaultInterval: Duration.hours(6),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          `# Learning budget (${service})\nAlarms and what to do: docs/deploy.md "Alarms". ` +
          `Card authorizations must be answered within Stripe's 2 s.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('Authorization decisions (outcome, reason)', [decisions]),
      graph('Authorization latency (ms)', [
        custom(metricNames.authorizationLatency, 'p50', {}, 'p50'),
        custom(metricNames.authorizationLatency, 'p99', {}, 'p99'),
      ]),
      graph('Webhook failures', [
        custom(metricNames.webhookFailure, 'Sum', {}, '500s'),
        custom(metricNames.webhookSignatureFailure, 'Sum', {}, 'bad signatures'),
      ]),
    );
    const dims = apiDimensions(props.api, props.stage);
    this.dashboard.addWidgets(
      graph('API answers', [
        props.api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', dimensionsMap: dims }),
        props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', dimensionsMap: dims }),
      ]),
      graph('Lambda errors', lambdaSearch('Errors')),
      graph('Lambda throttles', lambdaSearch('Throttles')),
    );
    this.dashboard.addWidgets(
      graph(
        'Jobs: runs and failures',
        props.jobIds.flatMap((job) => [
          custom(metricNames.jobSucceeded, 'Sum', { job }, `${job} ok`),
          custom(metricNames.jobFailed, 'Sum', { job }, `${job} failed`),
        ]),
      ),
      graph('Ledger and reconciliation', [
        custom(metricNames.transactionConflictRetry, 'Sum', {}, 'transaction conflict retries'),
        custom(metricNames.reconciliationDifferences, 'Sum', {}, 'reconciliation differences'),
      ]),
      graph('DynamoDB throttles', [
        props.table.metric('ReadThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
        props.table.metric('WriteThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
      ]),
    );
  }
}

/** The stacks watchApp looks after (BuiltApp's, without importing app.ts). */
export interface WatchedApp {
  config: { stage: string; alarmEmail?: string };
  stateful: Stack & { table: ITable; preSignUp?: AppFunction };
  api: Stack & { api: HttpApi; stage: HttpStage; functions: Record<string, AppFunction> };
  jobs: Stack & { functions: Record<string, AppFunction>; deadLetters: IQueue };
  /** The job definitions (shared/src/api/schedules.ts), for each job's cron. */
  schedules: Record<string, { cron: Cron }>;
}

/** Alarms for every function, the API, the webhook, the jobs, the queues and the table; the dashboard. */
export function watchApp(app: WatchedApp): { topic: Topic; dashboard: OperationsDashboard } {
  const { config, stateful, api, jobs } = app;
  const service = serviceNameOf(config.stage);
  // The topic lives with the other long-lived resources; the stateless stacks only name it.
  const { topic } = new AlarmTopic(stateful, 'Alarms', { stage: config.stage, email: config.alarmEmail });
  const watch = (stack: Stack) => new Operations(stack, 'Operations', { topic, service });

  const statefulOps = watch(stateful);
  statefulOps.watchTable(stateful.table);
  if (stateful.preSignUp) statefulOps.watchFunction('preSignUp', stateful.preSignUp);

  const apiOps = watch(api);
  // A function's alarm lives in the function's own stack (the API's routes are in nested
  // stacks, infra/lib/apiStack.ts routeGroup), so it names the function without an output.
  const opsOf = new Map<Stack, Operations>([[api, apiOps]]);
  for (const [op, fn] of Object.entries(api.functions)) {
    const home = Stack.of(fn.function);
    let ops = opsOf.get(home);
    if (!ops) {
      ops = watch(home);
      opsOf.set(home, ops);
    }
    ops.nameService(fn);
    ops.watchFunction(op, fn);
  }
  apiOps.watchApi(api.api, api.stage);
  apiOps.watchAuthorization();
  apiOps.watchReconciliation();

  const jobOps = watch(jobs);
  for (const [jobId, fn] of Object.entries(jobs.functions)) {
    const cron = app.schedules[jobId]?.cron;
    if (cron) jobOps.watchJob(jobId, fn, cron, jobs.deadLetters);
  }
  jobOps.watchQueue('JobDeadLetters', jobs.deadLetters);

  const dashboard = new OperationsDashboard(api, 'Dashboard', {
    service,
    api: api.api,
    stage: api.stage,
    table: stateful.table,
    jobIds: Object.keys(jobs.functions),
    functionStacks: [api.stackName, jobs.stackName],
  });
  return { topic, dashboard };
}
