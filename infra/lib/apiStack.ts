/**
 * The HTTP API: one route and one Lambda per entry of the route table
 * (shared/src/api/routes.ts), the same table the local gateway serves.
 * Signed-in routes sit behind Cognito's JWT authorizer (the handler checks the
 * token and the caller's role again); public and Stripe routes have none and
 * prove themselves in the handler (rate limits, webhook signatures).
 */

import {
  type Access,
  corsPolicy,
  handlerFile,
  type OperationId,
  operationIds,
  type RouteDef,
  routes,
} from '@shared/api/routes';
import { CfnOutput, Duration, NestedStack, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRoute,
  HttpRouteKey,
  type HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alias, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { baseEnvironment, grantCapabilities, type SharedResources } from './capabilities';
import { type AppConfig, applyFeatureFlags } from './config';
import { AppFunction } from './constructs/appFunction';
import { UserPoolWebAcl } from './constructs/webAcl';

export interface ApiStackProps extends StackProps {
  config: AppConfig;
  shared: SharedResources;
  /** See BuildAppProps.handlerEntry. */
  handlerEntry?: (file: string) => string;
}

/** The Secrets Manager name of the edge's proof (see ApiStack.edgeOriginSecret). */
export function edgeOriginSecretName(config: AppConfig): string {
  return `${config.stage}/api/edge-origin`;
}

/** Stage default for every route without a budget of its own below (signed-in routes). */
export const API_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

/**
 * Each route's own budget at API Gateway (requests per second, steady and burst),
 * so a flood on one cannot use up another's: above all, sign-up floods cannot
 * starve the card authorization webhook, which Stripe needs answered within 2 s.
 * Per-client limits (the route table's rateLimit) and the edge's per-IP rate
 * rules (constructs/webAcl.ts) come on top.
 */
export const ROUTE_THROTTLES = {
  /** Card authorizations and settlements: the product's busiest legitimate caller. */
  webhook: { rateLimit: 200, burstLimit: 400 },
  /** Sign-in (password or social), session refresh and sign-out: every signed-in page load refreshes once. */
  session: { rateLimit: 25, burstLimit: 50 },
  /** Forms anyone can post (waitlist, contact, sign-up, e-mail links): people type, bots flood. */
  publicForm: { rateLimit: 5, burstLimit: 10 },
} as const;

const SESSION_ROUTES: readonly OperationId[] = [
  'signIn',
  'completeSocialSignIn',
  'refreshSession',
  'signOut',
];

/** The budget of a route that has its own, or undefined for the stage default. */
export function routeThrottle(
  op: OperationId,
  route: RouteDef,
): { rateLimit: number; burstLimit: number } | undefined {
  if (route.access.kind === 'stripeSignature') return ROUTE_THROTTLES.webhook;
  if (route.access.kind !== 'public') return undefined;
  return SESSION_ROUTES.includes(op) ? ROUTE_THROTTLES.session : ROUTE_THROTTLES.publicForm;
}

/** Stripe retries webhooks and the authorization webhook must answer within 2 s; fail fast. */
const WEBHOOK_TIMEOUT = Duration.seconds(5);

/**
 * The authorization webhook gets more memory than other routes: Lambda gives CPU
 * in proportion, which shortens cold starts (module load is CPU bound) and the
 * signature check. docs/deploy.md has the figures and what it costs.
 */
const WEBHOOK_MEMORY_MB = 1024;

/**
 * The webhook is served through an alias with warm instances (provisioned
 * concurrency needs a version), so a burst of purchases meets no cold start.
 * Without warm instances (`authorizationWarmInstances=0`) the function is used as is.
 */
function webhookTarget(fn: AppFunction, warmInstances: number): IFunction {
  if (warmInstances === 0) return fn.function;
  return new Alias(fn, 'Live', {
    aliasName: 'live',
    version: fn.function.currentVersion,
    provisionedConcurrentExecutions: warmInstances,
  });
}

/**
 * The nested stack a route's function, integration, route and permission live
 * in. A stack holds at most 500 resources and each route costs 7, so one
 * stack held about 70 routes; the API itself (its stage, authorizer, access
 * logs, secret and WAF) stays in the parent, and each group of routes is a
 * nested stack (one resource in the parent). Grouped by the first segment of
 * the path, so a route's group is stable and each group stays far below the
 * limit; a new first segment lands in `more` until it earns a group.
 */
const ROUTE_GROUPS: Record<string, string> = {
  auth: 'Accounts',
  me: 'Accounts',
  users: 'Accounts',
  waitlist: 'Site',
  messages: 'Site',
  catalogue: 'Site',
  billing: 'Billing',
  subscription: 'Billing',
  invoices: 'Billing',
  funds: 'Money',
  employees: 'Team',
  invitations: 'Team',
  team: 'Team',
  purchases: 'Purchases',
  requests: 'Requests',
  roster: 'Team',
  scim: 'Provisioning',
  provisioning: 'Provisioning',
  webhooks: 'Webhooks',
};

export function routeGroup(route: Pick<RouteDef, 'path'>): string {
  const first = route.path.split('/').find((part) => part.length > 0) ?? '';
  return ROUTE_GROUPS[first] ?? 'More';
}

/** Why a route without an authorizer is fine, for cdk-nag's APIG4. */
function publicReason(op: OperationId, route: RouteDef): string {
  if (route.access.kind === 'stripeSignature') {
    return `${op} is called by Stripe, which cannot send a JWT; the handler verifies the Stripe-Signature header.`;
  }
  if (route.access.kind === 'scimToken') {
    return `${op} is called by a team's identity provider (SCIM), which sends a provisioning token, not a Cognito JWT; the handler checks the token's hash on every call and allows ${route.access.rateLimit.limit} calls per ${route.access.rateLimit.windowSeconds} s per token.`;
  }
  const limit = route.access.kind === 'public' ? route.access.rateLimit : undefined;
  return (
    `${op} is public by design (route table access "public", e.g. sign-up, sign-in or a public form)` +
    (limit ? `; the handler allows ${limit.limit} calls per ${limit.windowSeconds} s per client.` : '.')
  );
}

export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** `https://<id>.execute-api.<region>.amazonaws.com`, no trailing slash. */
  readonly apiEndpoint: string;
  readonly functions: Record<OperationId, AppFunction>;
  /** The nested stacks holding the routes, by group (routeGroup). */
  readonly routeStacks: Record<string, NestedStack>;
  /** The value CloudFront sends with every API request (see lambdas/src/platform/edge.ts). */
  readonly edgeOriginSecret: Secret;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    applyFeatureFlags(this.node);
    const { config, shared } = props;
    const handlerEntry = props.handlerEntry ?? ((file: string) => file);

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `${config.stage}-learning-budget`,
      description: `Learning budget API (${config.stage})`,
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [config.webOrigin],
        allowHeaders: [...corsPolicy.allowHeaders],
        exposeHeaders: [...corsPolicy.exposeHeaders],
        allowMethods: corsPolicy.allowMethods.map((m) => CorsHttpMethod[m]),
        maxAge: Duration.seconds(corsPolicy.maxAgeSeconds),
      },
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // JSON lines, no bodies and no tokens; the request id ties a line to the Lambda's log.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
    this.apiEndpoint = this.api.apiEndpoint;

    const authorizer = new HttpUserPoolAuthorizer('Cognito', shared.userPool, {
      userPoolClients: [shared.serverClient, shared.userPoolClient],
    });
    const noAuthorizer = new HttpNoneAuthorizer();
    const environment = baseEnvironment(config, shared);

    // CloudFront sends this value with every /api/* request and the handlers refuse requests
    // without it (lambdas/src/platform/edge.ts), so no one skips the WAF by calling execute-api.
    // CloudFormation resolves it into the distribution and the functions at deploy time.
    this.edgeOriginSecret = new Secret(this, 'EdgeOriginSecret', {
      secretName: edgeOriginSecretName(config),
      description: 'Sent by CloudFront to the API to prove a request passed its WAF (not a credential)',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    Validations.of(this.edgeOriginSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Read by CloudFormation only, at deploy time, into the distribution and the functions: a rotation would ' +
        'not reach them. It proves a request came through the WAF and grants no access; rotate by replacing it ' +
        'and deploying (docs/deploy.md).',
    });

    const stageResource = this.stage.node.defaultChild as CfnStage;
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const functions: Partial<Record<OperationId, AppFunction>> = {};
    const routeStacks: Record<string, NestedStack> = {};
    const routeStack = (group: string) => {
      routeStacks[group] ??= new NestedStack(this, `${group}Routes`, {
        description: `Learning budget API routes: ${group} (${config.stage})`,
      });
      return routeStacks[group];
    };
    for (const op of operationIds) {
      // Widened to the route table's types, so a kind not used today is still handled.
      const route: RouteDef = routes[op];
      const access: Access['kind'] = route.access.kind;
      const scope = routeStack(routeGroup(route));
      const fn = new AppFunction(scope, op, {
        entry: handlerEntry(handlerFile(op)),
        description: `${route.method} ${route.path} - ${route.summary}`,
        // The webhook proves itself by Stripe's signature and needs no edge proof.
        environment:
          access === 'stripeSignature'
            ? environment
            : { ...environment, EDGE_ORIGIN_SECRET: this.edgeOriginSecret.secretValue.unsafeUnwrap() },
        ...(access === 'stripeSignature'
          ? { timeout: WEBHOOK_TIMEOUT, memorySize: WEBHOOK_MEMORY_MB, tracing: true }
          : {}),
      });
      grantCapabilities(fn, route.uses, shared, config);
      functions[op] = fn;

      // In the group's stack (as addRoutes would, but there): the route, its integration and the
      // function's permission for it. The authorizer is the API's own, made once in the parent.
      const httpRoute = new HttpRoute(scope, `${op}Route`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(
          `${op}Integration`,
          access === 'stripeSignature' ? webhookTarget(fn, config.authorizationWarmInstances) : fn.function,
        ),
        authorizer: access === 'signedIn' ? authorizer : noAuthorizer,
      });
      const throttle = routeThrottle(op, route);
      if (throttle) {
        routeSettings[`${route.method} ${route.path}`] = {
          ThrottlingRateLimit: throttle.rateLimit,
          ThrottlingBurstLimit: throttle.burstLimit,
        };
        // A stage naming a route key that does not exist yet fails to deploy.
        stageResource.node.addDependency(httpRoute);
      }
      if (access !== 'signedIn') {
        Validations.of(httpRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: publicReason(op, route),
        });
      }
    }
    this.functions = functions as Record<OperationId, AppFunction>;
    this.routeStacks = routeStacks;
    stageResource.routeSettings = routeSettings;

    new UserPoolWebAcl(this, 'UserPoolWaf', {
      stage: config.stage,
      userPoolArn: shared.userPool.userPoolArn,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.apiEndpoint });
  }
}
