import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../infra/lib/config';
import { StatefulStack } from '../../infra/lib/statefulStack';
import { createTableInput, tableSpec } from '../../lambdas/src/data/tableSpec';
import { buildTestApp, TEST_CONFIG, type Templates, templatesOf, testApp } from './helpers';

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

  it('the receipts bucket is versioned, logged, retained and allows PUT/GET only from the web origin', () => {
    t.stateful.hasResource('AWS::S3::Bucket', {
      Properties: Match.objectLike({
        VersioningConfiguration: { Status: 'Enabled' },
        LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
        CorsConfiguration: {
          CorsRules: [
            Match.objectLike({ AllowedOrigins: [TEST_CONFIG.webOrigin], AllowedMethods: ['PUT', 'GET'] }),
          ],
        },
      }),
      DeletionPolicy: 'Retain',
    });
  });
});

describe('the user pool', () => {
  it('signs in by e-mail, allows self sign-up, and asks only for 8 characters (NIST 800-63B)', () => {
    t.stateful.hasResource('AWS::Cognito::UserPool', {
      Properties: Match.objectLike({
        UsernameAttributes: ['email'],
        AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: false }),
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

  it('has one app client: USER_PASSWORD_AUTH + refresh, no secret, 1 h access tokens, no user-existence leaks', () => {
    t.stateful.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    t.stateful.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      GenerateSecret: false,
      AccessTokenValidity: 60,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes' }),
      PreventUserExistenceErrors: 'ENABLED',
    });
  });

  it('offers no social sign-in unless its secrets are configured', () => {
    t.stateful.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
    t.stateful.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);
    const [, client] = resourcesOf(t.stateful, 'AWS::Cognito::UserPoolClient')[0] ?? [];
    expect(client?.Properties.AllowedOAuthFlows).toBeUndefined();
    expect(client?.Properties.SupportedIdentityProviders).toEqual(['COGNITO']);
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
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'budget-test' });
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: Match.arrayWith(['COGNITO', 'Google', 'Facebook']),
      CallbackURLs: [`${TEST_CONFIG.webOrigin}/auth/callback`],
      AllowedOAuthFlows: ['code'],
    });
  });
});
