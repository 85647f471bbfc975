/**
 * The API stack against the route table: one Lambda per route, the right
 * authorizer on each, and each function holding no more rights than its
 * route's `uses`. Cases are derived from the tables, so a new route or job is
 * a new case without touching this file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  type Capability,
  corsPolicy,
  type DeletableRecord,
  handlerFile,
  operationIds,
  routes,
} from '@shared/api/routes';
import { jobFile, jobIds, jobs } from '@shared/api/schedules';
import { USER_POOL_CALLS, type UserPoolCall } from '@shared/api/userPoolCalls';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../infra/lib/app';
import { grantCapabilities } from '../../infra/lib/capabilities';
import { repoRoot, resolveConfig } from '../../infra/lib/config';
import { AppFunction } from '../../infra/lib/constructs/appFunction';
import { StatefulStack } from '../../infra/lib/statefulStack';
import {
  buildTestApp,
  flat,
  type GrantedStatement,
  logicalId,
  managedPoliciesOfRole,
  statementsOfRole,
  TEST_ACCOUNT,
  TEST_CONFIG,
  TEST_REGION,
  type Templates,
  templatesOf,
  testApp,
} from './helpers';

// --- What each capability may add to a role; written out here, independently of capabilities.ts ---
const BASELINE = new Set([
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
]);
const DEAD_LETTER_ACTIONS = new Set(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']);
const DDB_READ = new Set(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
const DDB_WRITE = new Set(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem']);
/** Never granted to any function: nothing lists the whole table or writes in bulk. */
const DDB_NEVER = [
  'dynamodb:Scan',
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteTable',
  'dynamodb:DescribeTable',
];
/** Partition prefixes each deletable record kind may be deleted under (docs/data-model.md). */
const DELETE_PREFIXES: Record<DeletableRecord, string> = {
  emailToken: 'TOKEN#*',
  invitation: 'INVITE#*',
  session: 'USER#*',
  idempotencyKey: 'IDEMPOTENCY#*',
  scheduledStart: 'STARTS#*',
};
const S3_READ = new Set(['s3:GetObject*', 's3:GetBucket*', 's3:List*']);
const S3_WRITE = new Set([
  's3:PutObject',
  's3:PutObjectLegalHold',
  's3:PutObjectRetention',
  's3:PutObjectTagging',
  's3:PutObjectVersionTagging',
  's3:Abort*',
  's3:DeleteObject*',
]);

/** Which actions a capability allows. Adding a kind of capability fails typecheck here until it is described. */
function allowedBy(cap: Capability): (action: string) => boolean {
  if (cap.startsWith('table:delete:')) return (a) => a === 'dynamodb:DeleteItem';
  if (cap.startsWith('userPool:')) {
    const actions: readonly string[] = USER_POOL_CALLS[cap.slice('userPool:'.length) as UserPoolCall];
    return (a) => actions.includes(a);
  }
  const fixed: Record<
    Exclude<Capability, `table:delete:${string}` | `userPool:${string}`>,
    (a: string) => boolean
  > = {
    'table:read': (a) => DDB_READ.has(a),
    'table:write': (a) => DDB_READ.has(a) || DDB_WRITE.has(a),
    'email:send': (a) => a === 'ses:SendEmail',
    'receipts:read': (a) => S3_READ.has(a),
    'receipts:write': (a) => S3_WRITE.has(a),
    stripe: (a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:DescribeSecret',
    'stripe:webhookSecret': (a) =>
      a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:DescribeSecret',
    factorKey: (a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:DescribeSecret',
  };
  return fixed[cap as keyof typeof fixed];
}

/** Actions each capability must actually have granted (so a missing grant fails too). */
function requiredBy(cap: Capability): string[] {
  if (cap.startsWith('table:delete:')) return ['dynamodb:DeleteItem'];
  if (cap.startsWith('userPool:')) return [...USER_POOL_CALLS[cap.slice('userPool:'.length) as UserPoolCall]];
  const fixed: Record<string, string[]> = {
    'table:read': ['dynamodb:GetItem', 'dynamodb:Query'],
    'table:write': ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
    'email:send': ['ses:SendEmail'],
    'receipts:read': ['s3:GetObject*'],
    'receipts:write': ['s3:PutObject'],
    stripe: ['secretsmanager:GetSecretValue'],
    'stripe:webhookSecret': ['secretsmanager:GetSecretValue'],
    factorKey: ['secretsmanager:GetSecretValue'],
  };
  return fixed[cap] ?? [];
}

/** Every capability there is, for the probe below. */
const ALL_CAPABILITIES: Capability[] = [
  'table:read',
  'table:write',
  ...(Object.keys(DELETE_PREFIXES) as DeletableRecord[]).map((r) => `table:delete:${r}` as const),
  'email:send',
  'receipts:read',
  'receipts:write',
  ...(Object.keys(USER_POOL_CALLS) as UserPoolCall[]).map((c) => `userPool:${c}` as const),
  'stripe',
  'stripe:webhookSecret',
  'factorKey',
];

/** Actions a role holds beyond its baseline and declared capabilities. */
function excessActions(statements: GrantedStatement[], uses: readonly Capability[]): string[] {
  const granted = new Set(statements.flatMap((s) => s.actions));
  return [...granted].filter((a) => !BASELINE.has(a) && !uses.some((cap) => allowedBy(cap)(a)));
}

let built: BuiltApp;
let t: Templates;

beforeAll(() => {
  built = buildTestApp();
  t = templatesOf(built);
});

/** Every function of the route table and the job table, with where it lives and what it may use. */
const allFunctions = () => [
  ...operationIds.map((op) => ({
    name: `route ${op}`,
    uses: routes[op].uses as readonly Capability[],
    stack: built.api as Stack,
    template: t.api,
    fn: built.api.functions[op],
  })),
  ...jobIds.map((jobId) => ({
    name: `job ${jobId}`,
    uses: jobs[jobId].uses as readonly Capability[],
    stack: built.jobs as Stack,
    template: t.jobs,
    fn: built.jobs.functions[jobId],
  })),
];
const functionNames = [...operationIds.map((op) => `route ${op}`), ...jobIds.map((j) => `job ${j}`)];
const find = (name: string) => {
  const found = allFunctions().find((f) => f.name === name);
  if (!found) throw new Error(`no function ${name}`);
  return found;
};

describe('handlers on disk', () => {
  it.each(operationIds)('route %s has its handler file', (op) => {
    expect(existsSync(path.join(repoRoot, handlerFile(op))), handlerFile(op)).toBe(true);
  });

  it.each(jobIds)('job %s has its handler file', (jobId) => {
    expect(existsSync(path.join(repoRoot, jobFile(jobId))), jobFile(jobId)).toBe(true);
  });
});

describe('routes', () => {
  it('has exactly one Lambda per route and one route per entry', () => {
    t.api.resourceCountIs('AWS::Lambda::Function', operationIds.length);
    t.api.resourceCountIs('AWS::ApiGatewayV2::Route', operationIds.length);
  });

  it('keeps every stack of the API well below the 500 resources CloudFormation allows', () => {
    // Each route costs 7 resources; one stack held about 70 routes, so the routes live in nested
    // stacks by the first segment of their path (apiStack.ts routeGroup). A group nearing the
    // limit is split before it fails a deploy.
    const stacks = [built.api, ...Object.values(built.api.routeStacks)];
    expect(stacks.length).toBeGreaterThan(2);
    for (const stack of stacks) {
      const count = Object.keys(Template.fromStack(stack).toJSON().Resources).length;
      expect(count, stack.node.path).toBeLessThan(400);
    }
    // Every route is in one of them.
    const inGroups = Object.values(built.api.routeStacks).flatMap((nested) =>
      Object.values(Template.fromStack(nested).findResources('AWS::ApiGatewayV2::Route')),
    );
    expect(inGroups).toHaveLength(operationIds.length);
  });

  it('has no local-only route: time travel and the job runner (/_local/...) are never deployed', () => {
    expect(operationIds.map((op) => routes[op].path).filter((p) => p.includes('_local'))).toEqual([]);
    const everything = JSON.stringify(Object.values(t).map((template) => template.toJSON()));
    expect(everything).not.toContain('/_local');
    const keys = Object.values(t.api.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    expect(keys.length).toBe(operationIds.length);
    // No catch-all either, through which a local path could reach a function.
    expect(keys.filter((k) => k.includes('{proxy+}') || k === '$default' || k.startsWith('ANY '))).toEqual(
      [],
    );
  });

  it.each(operationIds)('%s: its route key is served by its own function', (op) => {
    const route = routes[op];
    const { functionId } = logicalId(built.api, built.api.functions[op]);
    const routeKey = `${route.method} ${route.path}`;
    const [routeResource] = Object.values(
      t.api.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } }),
    );
    expect(routeResource, routeKey).toBeDefined();
    const integrationId = flat(routeResource?.Properties.Target)
      .replace('integrations/', '')
      .replace(/[<>]/g, '');
    const integration = t.api.toJSON().Resources[integrationId];
    const uri = flat(integration.Properties.IntegrationUri);
    if (route.access.kind === 'stripeSignature') {
      // Through the alias that keeps warm instances (provisioned concurrency) of this same function.
      const alias = t.api.toJSON().Resources[uri.replace(/[<>]/g, '')];
      expect(alias?.Type).toBe('AWS::Lambda::Alias');
      expect(flat(alias.Properties.FunctionName)).toBe(`<${functionId}>`);
    } else expect(uri).toBe(`<${functionId}.Arn>`);
    expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
  });

  it.each(operationIds)('%s: authorizer matches its access kind', (op) => {
    const route = routes[op];
    const kind: string = route.access.kind;
    const expected =
      kind === 'signedIn'
        ? { AuthorizationType: 'JWT', AuthorizerId: Match.anyValue() }
        : { AuthorizationType: 'NONE', AuthorizerId: Match.absent() };
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: `${route.method} ${route.path}`,
      ...expected,
    });
  });

  it('the JWT authorizer trusts our user pool and its two app clients (passwords via the API, social)', () => {
    t.api.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    const [authorizer] = Object.values(t.api.findResources('AWS::ApiGatewayV2::Authorizer'));
    expect(authorizer?.Properties.AuthorizerType).toBe('JWT');
    expect(authorizer?.Properties.IdentitySource).toEqual(['$request.header.Authorization']);
    const jwt = authorizer?.Properties.JwtConfiguration;
    expect(flat(jwt.Issuer)).toMatch(
      new RegExp(`^https://cognito-idp\\.${TEST_REGION}\\.amazonaws\\.com/.*Users`),
    );
    expect(jwt.Audience.map(flat)).toEqual([
      expect.stringMatching(/UsersServerClient/),
      expect.stringMatching(/UsersWebClient/),
    ]);
  });

  it('answers CORS preflight for the web origin with the shared policy', () => {
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: [TEST_CONFIG.webOrigin],
        AllowHeaders: corsPolicy.allowHeaders,
        AllowMethods: [...corsPolicy.allowMethods],
        MaxAge: corsPolicy.maxAgeSeconds,
      },
    });
  });

  it('throttles the stage and logs every request', () => {
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('\\$context.requestId'),
      },
    });
    t.api.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: Match.anyValue() });
  });
});

describe('every function (routes and jobs)', () => {
  it('one Lambda per job', () => {
    t.jobs.resourceCountIs('AWS::Lambda::Function', jobIds.length);
  });

  it.each(functionNames)('%s: Node 22+ on arm64, logging to its own retained log group', (name) => {
    const { stack, template, fn } = find(name);
    const { functionId } = logicalId(stack, fn);
    const props = template.toJSON().Resources[functionId].Properties;
    const [, major] = /^nodejs(\d+)\.x$/.exec(props.Runtime) ?? [];
    expect(Number(major), props.Runtime).toBeGreaterThanOrEqual(22);
    expect(props.Architectures).toEqual(['arm64']);
    // X-Ray only where it pays: the authorization webhook (docs/decisions.md "Observability").
    const traced = name === 'route stripeWebhook';
    expect(props.TracingConfig).toEqual(traced ? { Mode: 'Active' } : undefined);
    expect(props.Handler).toBe('index.handler');
    const logGroupId = stack.getLogicalId(fn.logGroup.node.defaultChild as never);
    expect(flat(props.LoggingConfig.LogGroup)).toBe(`<${logGroupId}>`);
    template.hasResource('AWS::Logs::LogGroup', {
      Properties: { RetentionInDays: Match.anyValue() },
      DeletionPolicy: 'Retain',
    });
  });

  it.each(functionNames)(
    '%s: environment names its resources; Stripe only with the stripe capability',
    (name) => {
      const { stack, template, fn, uses } = find(name);
      const env =
        template.toJSON().Resources[logicalId(stack, fn).functionId].Properties.Environment.Variables;
      for (const key of [
        'TABLE_NAME',
        'RECEIPTS_BUCKET',
        'MAIL_FROM',
        'SUPPORT_INBOX',
        'OPERATIONS_INBOX',
        'COGNITO_ISSUER',
        'COGNITO_CLIENT_ID',
        'COGNITO_USER_POOL_ID',
        'WEB_ORIGIN',
      ]) {
        expect(env[key], key).toBeDefined();
      }
      expect(env.NODE_OPTIONS).toBe('--enable-source-maps');
      expect(env.WEB_ORIGIN).toBe(TEST_CONFIG.webOrigin);
      expect(env.MAIL_FROM).toBe(TEST_CONFIG.mailFrom);
      expect(flat(env.COGNITO_ISSUER)).toMatch(/^https:\/\/cognito-idp\.us-east-1\.amazonaws\.com\//);
      if (uses.includes('stripe'))
        expect(flat(env.STRIPE_API_KEY_SECRET_ARN)).toContain(':secret:test/stripe/api-key');
      else expect(env.STRIPE_API_KEY_SECRET_ARN).toBeUndefined();
      if (uses.includes('stripe:webhookSecret'))
        expect(flat(env.STRIPE_WEBHOOK_SECRET_ARN)).toContain(':secret:test/stripe/webhook-secret');
      else expect(env.STRIPE_WEBHOOK_SECRET_ARN).toBeUndefined();
      expect(env.STRIPE_SECRET_ARN).toBeUndefined();
    },
  );

  it.each(functionNames)('%s: its role holds nothing beyond its capabilities', (name) => {
    const { stack, template, fn, uses } = find(name);
    const { roleId } = logicalId(stack, fn);
    const statements = statementsOfRole(template, roleId);
    // A job may put its failed invocation on the jobs' dead-letter queue (constructs/operations.ts), and only there.
    const deadLetter = name.startsWith('job ')
      ? statements.filter((s) => s.actions.every((a) => DEAD_LETTER_ACTIONS.has(a)))
      : [];
    for (const s of deadLetter)
      expect(s.resources).toEqual([expect.stringMatching(/^<JobDeadLetters\w*\.Arn>$/)]);
    expect(
      excessActions(
        statements.filter((s) => !deadLetter.includes(s)),
        uses,
      ),
    ).toEqual([]);
    expect(managedPoliciesOfRole(template, roleId)).toEqual([]);
    for (const cap of uses) {
      const granted = statements.flatMap((s) => s.actions);
      expect(granted, cap).toEqual(expect.arrayContaining(requiredBy(cap)));
    }
  });

  it.each(functionNames)('%s: every grant names its resource (only X-Ray on *)', (name) => {
    const { stack, template, fn } = find(name);
    for (const s of statementsOfRole(template, logicalId(stack, fn).roleId)) {
      if (s.resources.includes('*'))
        expect(
          s.actions.every((a) => a.startsWith('xray:')),
          s.actions.join(),
        ).toBe(true);
      if (s.actions.includes('ses:SendEmail')) {
        expect(s.resources).toEqual([
          `arn:<AWS::Partition>:ses:${TEST_REGION}:123456789012:identity/${TEST_CONFIG.sesIdentity}`,
          `arn:<AWS::Partition>:ses:${TEST_REGION}:123456789012:identity/hello@mail.budget.example.org`,
        ]);
      }
      if (s.actions.some((a) => a.startsWith('dynamodb:'))) {
        for (const r of s.resources) expect(r).toMatch(/Table[^/]*(\/index\/\*)?$/);
      }
      if (s.actions.some((a) => a.startsWith('secretsmanager:'))) {
        expect(s.resources).toEqual([
          expect.stringMatching(/:secret:test\/stripe\/(api-key|webhook-secret)-\?{6}$|FactorKey/),
        ]);
      }
    }
  });

  const withoutEmail = functionNames.filter((n) => !find0(n).uses.includes('email:send'));
  const withoutWrite = functionNames.filter((n) => !find0(n).uses.includes('table:write'));

  it.runIf(withoutEmail.length > 0).each(withoutEmail)('%s: no e-mail capability, no SES action', (name) => {
    const { stack, template, fn } = find(name);
    const actions = statementsOfRole(template, logicalId(stack, fn).roleId).flatMap((s) => s.actions);
    expect(actions.filter((a) => a.startsWith('ses:'))).toEqual([]);
  });

  it.runIf(withoutWrite.length > 0).each(withoutWrite)('%s: no table:write, no DynamoDB writes', (name) => {
    const { stack, template, fn } = find(name);
    const actions = statementsOfRole(template, logicalId(stack, fn).roleId).flatMap((s) => s.actions);
    expect(actions.filter((a) => DDB_WRITE.has(a))).toEqual([]);
  });
});

describe('attack 11: the key that seals factor secrets', () => {
  /** The functions that check or set authenticator codes, and no others. */
  const CHECK_CODES = [
    'route signIn',
    'route completeSocialSignIn',
    'route stepUp',
    'route startTotpEnrolment',
    'route confirmTotpEnrolment',
    'route turnOffSecondFactor',
    'route regenerateRecoveryCodes',
  ];

  it('is named, and readable, only where codes are checked or set', () => {
    const withKey = allFunctions()
      .filter(({ stack, template, fn }) => {
        const env = template.toJSON().Resources[logicalId(stack, fn).functionId].Properties.Environment
          ?.Variables as Record<string, unknown> | undefined;
        return env?.FACTOR_KEY_SECRET_ARN !== undefined;
      })
      .map((f) => f.name);
    expect(withKey.sort()).toEqual([...CHECK_CODES].sort());
    const readers = allFunctions()
      .filter(({ stack, template, fn }) =>
        statementsOfRole(template, logicalId(stack, fn).roleId).some(
          (s) =>
            s.actions.includes('secretsmanager:GetSecretValue') &&
            JSON.stringify(s.resources).includes('FactorKey'),
        ),
      )
      .map((f) => f.name);
    expect(readers.sort()).toEqual([...CHECK_CODES].sort());
  });

  it('is generated and retained with the table', () => {
    const secrets = t.stateful.findResources('AWS::SecretsManager::Secret');
    const [factorKey] = Object.entries(secrets).filter(([id]) => id.startsWith('FactorKey'));
    expect(factorKey?.[1].Properties.GenerateSecretString.PasswordLength).toBe(64);
    expect(factorKey?.[1].DeletionPolicy).toBe('Retain');
  });
});

describe("the confidential client's secret (one door to sign-in)", () => {
  /** The functions that send passwords or refresh tokens to Cognito, and no others. */
  const NEEDS_SECRET = [
    'route signIn',
    'route refreshSession',
    'route signOut',
    'route stepUp',
    'route changePassword',
    // A change to the second factor takes the password too (issue 24, attack 1).
    'route startTotpEnrolment',
    'route turnOffSecondFactor',
    'route regenerateRecoveryCodes',
    // Social sign-in's password step (issue 24, attack 8): the account's password, once.
    'route completeSocialSignIn',
  ];

  it('only the functions that sign in, refresh, sign out, step up or check a password (to change it or a factor) may read it', () => {
    const readers = allFunctions()
      .filter(({ stack, template, fn }) =>
        statementsOfRole(template, logicalId(stack, fn).roleId).some((s) =>
          s.actions.includes('cognito-idp:DescribeUserPoolClient'),
        ),
      )
      .map((f) => f.name);
    expect(readers.sort()).toEqual([...NEEDS_SECRET].sort());
  });

  it('is in no environment: functions read it from the pool, and name the confidential client', () => {
    const [serverClientId] = Object.entries(t.stateful.findResources('AWS::Cognito::UserPoolClient')).find(
      ([, r]) => r.Properties.GenerateSecret === true,
    ) ?? [''];
    for (const { stack, template, fn, name } of allFunctions()) {
      const env = template.toJSON().Resources[logicalId(stack, fn).functionId].Properties.Environment
        .Variables as Record<string, unknown>;
      expect(JSON.stringify(env), name).not.toMatch(/ClientSecret/);
      expect(JSON.stringify(env.COGNITO_CLIENT_ID), name).toContain(serverClientId);
    }
  });
});

/**
 * What each route that anyone on the internet can call may do beyond reading and
 * writing the table, written out by hand: the Cognito actions it calls and the
 * records it may delete. A new public route fails here until it is listed, and a
 * route-table change that widens one of these fails until this list agrees.
 */
const SCIM_REMOVAL_RIGHTS: { cognito: string[]; deletes: DeletableRecord[] } = {
  cognito: ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminUserGlobalSignOut'],
  deletes: ['session', 'invitation'],
};
/** SCIM's active true may restore a removed member (issue 28): their sign-in is enabled again. */
const SCIM_REACTIVATION_RIGHTS: { cognito: string[]; deletes: DeletableRecord[] } = {
  cognito: [...SCIM_REMOVAL_RIGHTS.cognito, 'cognito-idp:AdminEnableUser'],
  deletes: SCIM_REMOVAL_RIGHTS.deletes,
};

const PUBLIC_ROUTE_RIGHTS: Record<string, { cognito: string[]; deletes: DeletableRecord[] }> = {
  joinWaitlist: { cognito: [], deletes: [] },
  sendContactMessage: { cognito: [], deletes: [] },
  registerManager: {
    cognito: [
      'cognito-idp:AdminCreateUser',
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminGetUser',
      'cognito-idp:AdminSetUserPassword',
    ],
    deletes: [],
  },
  checkInvitation: { cognito: [], deletes: [] },
  registerEmployee: {
    cognito: [
      'cognito-idp:AdminCreateUser',
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminGetUser',
      'cognito-idp:AdminSetUserPassword',
    ],
    deletes: ['invitation'],
  },
  inviteManager: { cognito: [], deletes: [] },
  // Reading the confidential client's secret is the only Cognito right of a password or refresh call.
  signIn: { cognito: ['cognito-idp:DescribeUserPoolClient'], deletes: [] },
  refreshSession: { cognito: ['cognito-idp:DescribeUserPoolClient'], deletes: [] },
  // Social sign-in's return: an HTTPS call to the hosted UI and the web client's RevokeToken, no IAM
  // right; a provider's sign-in kept apart by the pre-sign-up trigger is read, and once the account's
  // password is given, deleted and its identity linked to the account (issue 24, attack 8).
  completeSocialSignIn: {
    cognito: [
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminGetUser',
      'cognito-idp:AdminLinkProviderForUser',
      'cognito-idp:DescribeUserPoolClient',
    ],
    deletes: [],
  },
  signOut: {
    cognito: ['cognito-idp:AdminUserGlobalSignOut', 'cognito-idp:DescribeUserPoolClient'],
    deletes: ['session'],
  },
  verifyEmail: { cognito: [], deletes: [] },
  forgotPassword: { cognito: [], deletes: [] },
  resetPassword: {
    cognito: ['cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminUserGlobalSignOut'],
    deletes: ['emailToken', 'session'],
  },
  stripeWebhook: { cognito: [], deletes: [] },
  // Monthly e-mails (issue 26, nudges): the link's token turns an e-mail off; nothing is deleted.
  unsubscribeEmail: { cognito: [], deletes: [] },
  // SCIM (issue 28), called by an identity provider with the team's provisioning token: reads and
  // invitations need no Cognito right; a removal is the manager's delete (disable, sign out
  // everywhere, the person's sessions) or withdraws a pending invitation.
  scimServiceProviderConfig: { cognito: [], deletes: [] },
  scimResourceTypes: { cognito: [], deletes: [] },
  scimSchemas: { cognito: [], deletes: [] },
  scimListUsers: { cognito: [], deletes: [] },
  scimGetUser: { cognito: [], deletes: [] },
  scimCreateUser: { cognito: [], deletes: [] },
  scimReplaceUser: SCIM_REACTIVATION_RIGHTS,
  scimPatchUser: SCIM_REACTIVATION_RIGHTS,
  scimDeleteUser: SCIM_REMOVAL_RIGHTS,
};

const publicOps = operationIds.filter((op) => routes[op].access.kind !== 'signedIn');

describe('least privilege against the route table', () => {
  const granted = (name: string) => {
    const { stack, template, fn } = find(name);
    return statementsOfRole(template, logicalId(stack, fn).roleId);
  };

  it.each(functionNames)('%s: no Scan, bulk write or table administration', (name) => {
    const actions = granted(name).flatMap((s) => s.actions);
    expect(actions.filter((a) => DDB_NEVER.includes(a))).toEqual([]);
  });

  it.each(functionNames)('%s: deletes only under the key prefixes of its table:delete records', (name) => {
    const { uses } = find(name);
    const expected = uses
      .filter((c) => c.startsWith('table:delete:'))
      .map((c) => DELETE_PREFIXES[c.slice('table:delete:'.length) as DeletableRecord])
      .sort();
    const deleting = granted(name).filter((s) => s.actions.includes('dynamodb:DeleteItem'));
    if (expected.length === 0) {
      expect(deleting).toEqual([]);
      return;
    }
    expect(deleting).toHaveLength(1);
    expect(deleting[0]?.actions).toEqual(['dynamodb:DeleteItem']);
    expect(deleting[0]?.conditions).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': expected },
    });
  });

  it.each(functionNames)('%s: exactly the Cognito actions of the user-pool calls it names', (name) => {
    const { uses } = find(name);
    const calls = uses.filter((c) => c.startsWith('userPool:')).map((c) => c.slice('userPool:'.length));
    const expected = [...new Set(calls.flatMap((c) => USER_POOL_CALLS[c as UserPoolCall]))].sort();
    const actions = granted(name)
      .flatMap((s) => s.actions)
      .filter((a) => a.startsWith('cognito-idp:'));
    expect(actions.sort()).toEqual(expected);
  });

  it('every public route is listed with its rights', () => {
    expect(Object.keys(PUBLIC_ROUTE_RIGHTS).sort()).toEqual([...publicOps].sort());
  });

  it.each(publicOps)('public %s: the Cognito actions and deletes written down for it, no more', (op) => {
    const rights = PUBLIC_ROUTE_RIGHTS[op] ?? { cognito: ['(not listed)'], deletes: [] };
    const statements = granted(`route ${op}`);
    const actions = statements.flatMap((s) => s.actions);
    expect(actions.filter((a) => a.startsWith('cognito-idp:')).sort()).toEqual([...rights.cognito].sort());
    const prefixes = statements
      .filter((s) => s.actions.includes('dynamodb:DeleteItem'))
      .flatMap(
        (s) => (s.conditions?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[]) ?? ['*'],
      );
    expect(prefixes.sort()).toEqual(rights.deletes.map((r) => DELETE_PREFIXES[r]).sort());
  });

  it('only the webhook reads the webhook signing secret, and it cannot call Stripe', () => {
    for (const name of functionNames) {
      const secrets = granted(name)
        .filter((s) => s.actions.includes('secretsmanager:GetSecretValue'))
        .flatMap((s) => s.resources);
      const readsWebhookSecret = secrets.some((r) => r.includes('webhook-secret'));
      expect(readsWebhookSecret, name).toBe(name === 'route stripeWebhook');
      if (name === 'route stripeWebhook') expect(secrets.some((r) => r.includes('api-key'))).toBe(false);
    }
  });
});

/** The capability list without the built app (for deriving cases at collection time). */
function find0(name: string): { uses: readonly Capability[] } {
  const [kind, id] = name.split(' ') as ['route' | 'job', string];
  return {
    uses: kind === 'route' ? routes[id as keyof typeof routes].uses : jobs[id as keyof typeof jobs].uses,
  };
}

describe('each capability on its own', () => {
  // Also covers capabilities no route uses yet, so their grants are checked before the first route needs them.
  const capabilities = ALL_CAPABILITIES;
  let probe: { stack: Stack; template: Template; fns: Partial<Record<Capability, AppFunction>> };

  beforeAll(() => {
    const app = testApp();
    const config = resolveConfig(TEST_CONFIG);
    const env = { account: TEST_ACCOUNT, region: TEST_REGION };
    const stateful = new StatefulStack(app, 'ProbeStateful', { config, env });
    const stack = new Stack(app, 'Probe', { env });
    const shared = {
      table: stateful.table,
      receiptsBucket: stateful.receiptsBucket,
      userPool: stateful.userPool,
      userPoolClient: stateful.userPoolClient,
      serverClient: stateful.serverClient,
      factorKey: stateful.factorKey,
    };
    const fns: Partial<Record<Capability, AppFunction>> = {};
    for (const cap of capabilities) {
      const fn = new AppFunction(stack, cap.replace(/\W/g, '-'), {
        entry: 'test/infra/fixtures/handler.ts',
        description: cap,
        environment: {},
      });
      grantCapabilities(fn, [cap], shared, config);
      fns[cap] = fn;
    }
    probe = { stack, template: Template.fromStack(stack), fns };
  });

  it.each(capabilities)('%s grants what it needs and nothing beyond', (cap) => {
    const fn = probe.fns[cap] as AppFunction;
    const statements = statementsOfRole(probe.template, logicalId(probe.stack, fn).roleId);
    expect(excessActions(statements, [cap])).toEqual([]);
    expect(statements.flatMap((s) => s.actions)).toEqual(expect.arrayContaining(requiredBy(cap)));
    for (const s of statements) {
      if (s.resources.includes('*'))
        expect(
          s.actions.every((a) => a.startsWith('xray:')),
          cap,
        ).toBe(true);
    }
  });

  it('user-pool calls are limited to our own pool', () => {
    const fn = probe.fns['userPool:deleteUser'] as AppFunction;
    const statements = statementsOfRole(probe.template, logicalId(probe.stack, fn).roleId);
    const cognito = statements.filter((s) => s.actions.some((a) => a.startsWith('cognito-idp:')));
    expect(cognito.flatMap((s) => s.resources)).toEqual([
      expect.stringMatching(/ExportsOutputFnGetAttUsers\w+Arn/),
    ]);
  });
});

describe('the least-privilege check itself', () => {
  it('catches a function granted more than its capabilities', () => {
    const stack = new Stack(testApp(), 'OverGrant', { env: { region: TEST_REGION } });
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const fn = new AppFunction(stack, 'Reader', {
      entry: 'test/infra/fixtures/handler.ts',
      description: 'declares table:read only',
      environment: {},
    });
    table.grantReadWriteData(fn); // more than table:read
    const statements = statementsOfRole(Template.fromStack(stack), logicalId(stack, fn).roleId);
    expect(excessActions(statements, ['table:read'])).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']),
    );
    // CDK's own read-write grant is wider than table:write: Scan and DeleteItem on every key.
    expect(excessActions(statements, ['table:write'])).toEqual(
      expect.arrayContaining(['dynamodb:Scan', 'dynamodb:DeleteItem']),
    );
  });
});
