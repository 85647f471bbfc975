import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../infra/lib/app';
import { resolveConfig } from '../../infra/lib/config';
import type { AppFunction } from '../../infra/lib/constructs/appFunction';
import { PRE_SIGN_UP_ENTRY, StatefulStack } from '../../infra/lib/statefulStack';
import { createTableInput, tableSpec } from '../../lambdas/src/data/tableSpec';
import { REFRESH_TOKEN_VALIDITY_SECONDS } from '../../lambdas/src/platform/sessionCookie';
import {
  buildTestApp,
  flat,
  logicalId,
  managedPoliciesOfRole,
  SOCIAL_CONFIG,
  statementsOfRole,
  TEST_CONFIG,
  type Templates,
  templatesOf,
  testApp,
} from './helpers';

let t: Templates;

beforeAll(() => {
  t = templatesOf(buildTestApp());
});

type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};
const resourcesOf = (template: Template, type: string) =>
  Object.entries(template.findResources(type)) as [string, Resource][];

describe('the single table', () => {
  it('has the key schema and indexes of tableSpec, the same as DynamoDB Local gets', () => {
    const local = createTableInput('ignored');
    t.stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: local.KeySchema,
      AttributeDefinitions: Match.arrayWith(local.AttributeDefinitions),
      GlobalSecondaryIndexes: local.GlobalSecondaryIndexes.map((index) => Match.objectLike(index)),
      BillingMode: 'PAY_PER_REQUEST',
    });
    const [, table] = resourcesOf(t.stateful, 'AWS::DynamoDB::Table')[0] ?? [];
    const indexes = table?.Properties.GlobalSecondaryIndexes as { IndexName: string }[];
    expect(indexes.map((i) => i.IndexName)).toEqual(tableSpec.globalIndexes.map((i) => i.name));
  });

  it('has the sparse awaiting-receipt index gsi3 (gsi3pk / gsi3sk, all attributes)', () => {
    t.stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'gsi3pk', AttributeType: 'S' },
        { AttributeName: 'gsi3sk', AttributeType: 'S' },
      ]),
      GlobalSecondaryIndexes: Match.arrayWith([
        {
          IndexName: 'gsi3',
          KeySchema: [
            { AttributeName: 'gsi3pk', KeyType: 'HASH' },
            { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ]),
    });
  });

  it('expires items on the TTL attribute the code writes', () => {
    t.stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: tableSpec.ttlAttribute, Enabled: true },
    });
  });

  it('has point-in-time recovery, deletion protection and encryption, and is retained', () => {
    t.stateful.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        SSESpecification: Match.objectLike({ SSEEnabled: true }),
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    t.stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
  });
});

describe('buckets', () => {
  const all = () =>
    [t.stateful, t.web].flatMap((template) =>
      resourcesOf(template, 'AWS::S3::Bucket').map(([id, r]) => ({ template, id, r })),
    );

  it('every bucket is encrypted and blocks all public access', () => {
    expect(all().length).toBeGreaterThanOrEqual(4);
    for (const { id, r } of all()) {
      expect(r.Properties.BucketEncryption, id).toMatchObject({
        ServerSideEncryptionConfiguration: [
          expect.objectContaining({ ServerSideEncryptionByDefault: expect.anything() }),
        ],
      });
      expect(r.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
  });

  it('every bucket refuses requests without TLS', () => {
    for (const { template, id } of all()) {
      const policies = Object.values(template.findResources('AWS::S3::BucketPolicy')).filter(
        (p) => (p.Properties.Bucket as { Ref?: string }).Ref === id,
      );
      const statements = policies.flatMap(
        (p) => p.Properties.PolicyDocument.Statement as Record<string, unknown>[],
      );
      expect(statements, id).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('the receipts bucket is versioned, logged, retained and allows POST (presigned uploads) and GET only from the web origin', () => {
    t.stateful.hasResource('AWS::S3::Bucket', {
      Properties: Match.objectLike({
        VersioningConfiguration: { Status: 'Enabled' },
        LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
        CorsConfiguration: {
          CorsRules: [
            Match.objectLike({ AllowedOrigins: [TEST_CONFIG.webOrigin], AllowedMethods: ['POST', 'GET'] }),
          ],
        },
      }),
      DeletionPolicy: 'Retain',
    });
  });
});

describe('the user pool', () => {
  it('signs in by e-mail, allows no self sign-up, and asks only for 8 characters (NIST 800-63B)', () => {
    t.stateful.hasResource('AWS::Cognito::UserPool', {
      Properties: Match.objectLike({
        UsernameAttributes: ['email'],
        AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
        Policies: {
          PasswordPolicy: Match.objectLike({
            MinimumLength: 8,
            RequireLowercase: false,
            RequireUppercase: false,
            RequireNumbers: false,
            RequireSymbols: false,
          }),
        },
        AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
        DeletionProtection: 'ACTIVE',
      }),
      DeletionPolicy: 'Retain',
    });
  });

  it('sends no verification codes of its own (the API e-mails its own links, as locally)', () => {
    t.stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      AutoVerifiedAttributes: [],
      EmailConfiguration: Match.absent(),
    });
  });

  it('has two app clients with 1 h access tokens and no user-existence leaks', () => {
    t.stateful.resourceCountIs('AWS::Cognito::UserPoolClient', 2);
    for (const [, client] of resourcesOf(t.stateful, 'AWS::Cognito::UserPoolClient')) {
      expect(client.Properties).toMatchObject({
        AccessTokenValidity: 60,
        TokenValidityUnits: expect.objectContaining({ AccessToken: 'minutes' }),
        PreventUserExistenceErrors: 'ENABLED',
        EnableTokenRevocation: true,
      });
    }
  });

  it('keeps refresh tokens exactly as long as the session cookie (its Max-Age) and our session records', () => {
    const seconds = { minutes: 60, hours: 3600, days: 86_400 } as const;
    for (const [, client] of resourcesOf(t.stateful, 'AWS::Cognito::UserPoolClient')) {
      const { TokenValidityUnits, RefreshTokenValidity } = client.Properties as {
        TokenValidityUnits?: { RefreshToken?: keyof typeof seconds };
        RefreshTokenValidity: number;
      };
      const unit = TokenValidityUnits?.RefreshToken ?? 'days';
      expect(RefreshTokenValidity * seconds[unit]).toBe(REFRESH_TOKEN_VALIDITY_SECONDS);
    }
  });

  it('offers no social sign-in unless its secrets are configured', () => {
    t.stateful.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
    t.stateful.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);
    for (const [, client] of resourcesOf(t.stateful, 'AWS::Cognito::UserPoolClient')) {
      expect(client.Properties.AllowedOAuthFlows).toBeUndefined();
      expect(client.Properties.SupportedIdentityProviders).toEqual(['COGNITO']);
    }
  });

  it('adds Google and Facebook, a hosted domain and the callback when their secrets are named', () => {
    const config = resolveConfig({
      ...TEST_CONFIG,
      googleSecretName: 'test/google-oauth',
      facebookSecretName: 'test/facebook-oauth',
      authDomainPrefix: 'budget-test',
    });
    const stack = new StatefulStack(testApp(), 'Social', { config, env: { region: config.region } });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 2);
    template.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'Google',
      ProviderDetails: Match.objectLike({
        client_secret: Match.stringLikeRegexp('resolve:secretsmanager:test/google-oauth'),
      }),
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', { ProviderName: 'Facebook' });
    // What the pre-sign-up trigger decides on (issue 24, attack 8): Google's word that the address
    // is verified reaches it as `email_verified`; Facebook gives none, so none is mapped.
    const mappings = Object.fromEntries(
      Object.values(template.findResources('AWS::Cognito::UserPoolIdentityProvider')).map((r) => [
        r.Properties.ProviderName,
        r.Properties.AttributeMapping,
      ]),
    );
    expect(mappings.Google).toEqual({ email: 'email', email_verified: 'email_verified' });
    expect(mappings.Facebook).toEqual({ email: 'email' });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'budget-test' });
    // The hosted UI offers the providers only: its own password form would be a second door.
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: ['Google', 'Facebook'],
      CallbackURLs: [`${TEST_CONFIG.webOrigin}/auth/callback`],
      AllowedOAuthFlows: ['code'],
      GenerateSecret: false,
    });
  });
});

/** Flows that take a password (or let a client run its own challenge); refresh is not one. */
const PASSWORD_FLOWS = [
  'ALLOW_USER_PASSWORD_AUTH',
  'ALLOW_USER_SRP_AUTH',
  'ALLOW_ADMIN_USER_PASSWORD_AUTH',
  'ALLOW_CUSTOM_AUTH',
  'ALLOW_USER_AUTH',
];

describe('one door to sign-in (docs/security.md "Sign-in")', () => {
  const socialTemplate = () => {
    const config = resolveConfig({
      ...TEST_CONFIG,
      googleSecretName: 'test/google-oauth',
      facebookSecretName: 'test/facebook-oauth',
      authDomainPrefix: 'budget-test',
    });
    return Template.fromStack(
      new StatefulStack(testApp(), 'Door', { config, env: { region: config.region } }),
    );
  };

  it.each([
    ['without social sign-in', () => t.stateful],
    ['with social sign-in', socialTemplate],
  ])('%s: no client without a secret allows a password flow, and every client lists its flows', (_, of) => {
    const clients = resourcesOf(of(), 'AWS::Cognito::UserPoolClient').map(([, c]) => c.Properties);
    for (const client of clients) {
      // Left out, Cognito would default to SRP (a password flow) and custom auth.
      expect(client.ExplicitAuthFlows).toEqual(expect.any(Array));
      if (client.GenerateSecret !== true) {
        expect(client.ExplicitAuthFlows).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
        expect(client.AllowedOAuthFlows ?? ['code']).toEqual(['code']);
      }
    }
    const withPassword = clients.filter((c) =>
      (c.ExplicitAuthFlows as string[]).some((f) => PASSWORD_FLOWS.includes(f)),
    );
    expect(withPassword).toHaveLength(1);
    expect(withPassword[0]).toMatchObject({
      GenerateSecret: true,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      SupportedIdentityProviders: ['COGNITO'],
      AllowedOAuthFlowsUserPoolClient: false,
    });
  });

  it('only an administrator (our API) creates users', () => {
    t.stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
    });
  });
});

describe('the pre-sign-up trigger (social sign-in)', () => {
  let social: BuiltApp;
  let template: Template;
  let trigger: AppFunction;
  let ids: { functionId: string; roleId: string };
  const resources = () => template.toJSON().Resources as Record<string, Resource>;
  const statements = () => statementsOfRole(template, ids.roleId);
  // What CDK's grantReadData hands out; written out here, independently of the stack.
  const DDB_READ = [
    'dynamodb:BatchGetItem',
    'dynamodb:GetItem',
    'dynamodb:Query',
    'dynamodb:Scan',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
  ];

  beforeAll(() => {
    social = buildTestApp(SOCIAL_CONFIG);
    template = Template.fromStack(social.stateful);
    expect(social.stateful.preSignUp, 'the trigger').toBeDefined();
    trigger = social.stateful.preSignUp as AppFunction;
    ids = logicalId(social.stateful, trigger);
  });

  it('is the only function of the stateful stack, and the pool runs it before sign-up', () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    const [, pool] = resourcesOf(template, 'AWS::Cognito::UserPool')[0] ?? [];
    expect(pool?.Properties.LambdaConfig).toEqual({ PreSignUp: { 'Fn::GetAtt': [ids.functionId, 'Arn'] } });
  });

  it('may be invoked by Cognito for this pool only', () => {
    const [poolId] = resourcesOf(template, 'AWS::Cognito::UserPool')[0] ?? [];
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [ids.functionId, 'Arn'] },
      Principal: 'cognito-idp.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] },
    });
  });

  it('runs the pre-sign-up handler with the defaults of every function', () => {
    const props = resources()[ids.functionId]?.Properties ?? {};
    expect(props).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 256,
      Timeout: 10,
    });
    expect(props.TracingConfig).toBeUndefined();
    expect(PRE_SIGN_UP_ENTRY).toBe('lambdas/src/triggers/preSignUp.ts');
    const logGroupId = social.stateful.getLogicalId(trigger.logGroup.node.defaultChild as never);
    expect(flat((props.LoggingConfig as { LogGroup: unknown }).LogGroup)).toBe(`<${logGroupId}>`);
    expect(resources()[logGroupId]).toMatchObject({
      Properties: { RetentionInDays: 90 },
      DeletionPolicy: 'Retain',
    });
  });

  it('knows the table of its own stack and nothing else (the pool id comes with the event)', () => {
    const fn = resources()[ids.functionId];
    const env = (fn?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0] ?? [];
    expect(env).toEqual({ TABLE_NAME: { Ref: tableId }, NODE_OPTIONS: '--enable-source-maps' });
  });

  it('may link identities (AdminLinkProviderForUser) and nothing else in Cognito, in its own pool only', () => {
    const cognito = statements().filter((s) => s.actions.some((a) => a.startsWith('cognito-idp:')));
    const [poolId] = resourcesOf(template, 'AWS::Cognito::UserPool')[0] ?? [];
    expect(cognito).toEqual([
      { actions: ['cognito-idp:AdminLinkProviderForUser'], resources: [`<${poolId}.Arn>`] },
    ]);
  });

  it('only gets items by key: no Scan or Query (nothing to list), no writes, no index', () => {
    const dynamo = statements().filter((s) => s.actions.some((a) => a.startsWith('dynamodb:')));
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0] ?? [];
    expect(dynamo).toEqual([{ actions: ['dynamodb:GetItem'], resources: [`<${tableId}.Arn>`] }]);
  });

  it('holds nothing beyond logs, X-Ray, the table reads and the link, and no managed policy', () => {
    const baseline = [
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'xray:PutTraceSegments',
      'xray:PutTelemetryRecords',
    ];
    const allowed = new Set([...baseline, ...DDB_READ, 'cognito-idp:AdminLinkProviderForUser']);
    expect(
      statements()
        .flatMap((s) => s.actions)
        .filter((a) => !allowed.has(a)),
    ).toEqual([]);
    expect(managedPoliciesOfRole(template, ids.roleId)).toEqual([]);
  });

  it('is there for Facebook alone too', () => {
    const facebook = buildTestApp({
      facebookSecretName: 'test/facebook-oauth',
      authDomainPrefix: 'budget-test',
    });
    expect(facebook.stateful.preSignUp).toBeDefined();
    Template.fromStack(facebook.stateful).hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: { PreSignUp: Match.anyValue() },
    });
  });

  it('is absent without social sign-in: no function, no trigger', () => {
    expect(buildTestApp().stateful.preSignUp).toBeUndefined();
    t.stateful.resourceCountIs('AWS::Lambda::Function', 0);
    t.stateful.resourceCountIs('AWS::Lambda::Permission', 0);
    const [, pool] = resourcesOf(t.stateful, 'AWS::Cognito::UserPool')[0] ?? [];
    expect(pool?.Properties.LambdaConfig).toBeUndefined();
  });
});
