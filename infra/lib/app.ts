/**
 * Builds the whole app: stateful resources first, then the stateless stacks
 * that use them. infra/bin/app.ts calls this with CDK context; tests call it
 * with props (and bundling turned off) to assert on the templates.
 */

import { jobs as jobDefs } from '@shared/api/schedules';
import { App, Tags, Validations } from 'aws-cdk-lib';
import { ApiStack } from './apiStack';
import {
  type AppConfig,
  type ConfigInput,
  configFromContext,
  oauthRedirectUrl,
  resolveConfig,
} from './config';
import { watchApp } from './constructs/operations';
import { JobsStack } from './jobsStack';
import { AppNagChecks } from './nag';
import { StatefulStack } from './statefulStack';
import { WebStack } from './webStack';

export interface BuildAppProps extends ConfigInput {
  /** The app to add stacks to; a new one (with `context`) when absent. */
  app?: App;
  /** Context for a new app, e.g. `{ 'aws:cdk:bundling-stacks': [] }` to skip bundling. */
  context?: Record<string, unknown>;
  /** Run cdk-nag's AwsSolutions pack on synth (default true). Violations fail the synth. */
  nag?: boolean;
  /**
   * Maps a handler file (repository-relative) to the entry actually used. Tests
   * use it to stand in for handlers still being written, so the infra checks
   * run while `test/infra` reports the missing file on its own. Default: as is.
   */
  handlerEntry?: (file: string) => string;
}

export interface BuiltApp {
  app: App;
  config: AppConfig;
  stateful: StatefulStack;
  api: ApiStack;
  jobs: JobsStack;
  web: WebStack;
}

export function buildApp(props: BuildAppProps = {}): BuiltApp {
  const { app: given, context, nag = true, handlerEntry = (file: string) => file, ...input } = props;
  const app = given ?? new App({ context });
  // Props win over context, so tests are not affected by a developer's cdk.context.json.
  const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as ConfigInput;
  const config = resolveConfig({ ...configFromContext(app.node), ...defined });
  const env = { account: config.account, region: config.region };
  const name = (part: string) => `${config.stage}-${part}`;

  const stateful = new StatefulStack(app, name('Stateful'), {
    env,
    config,
    handlerEntry,
    description: 'Learning budget: table, receipts bucket, user pool (retained)',
    terminationProtection: true,
  });
  const shared = {
    table: stateful.table,
    receiptsBucket: stateful.receiptsBucket,
    userPool: stateful.userPool,
    userPoolClient: stateful.userPoolClient,
    serverClient: stateful.serverClient,
    factorKey: stateful.factorKey,
    ...(stateful.social
      ? {
          socialSignIn: {
            oauthUrl: `https://${stateful.social.authDomainHost}`,
            redirectUrl: oauthRedirectUrl(config),
          },
        }
      : {}),
  };
  const api = new ApiStack(app, name('Api'), {
    env,
    config,
    shared,
    handlerEntry,
    description: 'Learning budget: HTTP API, one Lambda per route',
  });
  const jobs = new JobsStack(app, name('Jobs'), {
    env,
    config,
    shared,
    handlerEntry,
    description: 'Learning budget: scheduled jobs',
  });
  const web = new WebStack(app, name('Web'), {
    env,
    config,
    apiEndpoint: api.apiEndpoint,
    userPoolId: stateful.userPool.userPoolId,
    userPoolClientId: stateful.userPoolClient.userPoolClientId,
    receiptsBucket: stateful.receiptsBucket,
    social: stateful.social,
    description: 'Learning budget: web app on S3 + CloudFront',
  });

  // Alarms, dead-letter queues and the dashboard (constructs/operations.ts).
  watchApp({ config, stateful, api, jobs, schedules: jobDefs });

  Tags.of(app).add('app', 'learning-budget');
  Tags.of(app).add('stage', config.stage);
  if (nag) Validations.of(app).addPlugins(new AppNagChecks(app));

  return { app, config, stateful, api, jobs, web };
}
