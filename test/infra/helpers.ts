/**
 * Shared setup for the CDK assertion tests: the app built from props (not
 * context), with bundling skipped so no handler is compiled, plus small
 * readers for templates (policies of a role, flattened intrinsics).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { type BuildAppProps, type BuiltApp, buildApp } from '../../infra/lib/app';
import { repoRoot } from '../../infra/lib/config';
import type { AppFunction } from '../../infra/lib/constructs/appFunction';
import { flattenReference } from '../../infra/lib/nag';

export const TEST_ACCOUNT = '123456789012';
export const TEST_REGION = 'us-east-1';
export const FIXTURES = path.join(repoRoot, 'test/infra/fixtures');

/** Values a real deployment would pass as context; deliberately not the defaults. */
export const TEST_CONFIG = {
  stage: 'test',
  account: TEST_ACCOUNT,
  region: TEST_REGION,
  webOrigin: 'https://app.budget.example.org',
  mailFrom: 'Learning Budget <hello@mail.budget.example.org>',
  supportInbox: 'support@budget.example.org',
  sesIdentity: 'mail.budget.example.org',
  stripePublishableKey: 'pk_test_infra',
  webDistDir: path.join(FIXTURES, 'web-dist'),
} satisfies BuildAppProps;

/** Social sign-in turned on: Google only (Facebook is the same path), with its hosted domain. */
export const SOCIAL_CONFIG = {
  googleSecretName: 'test/google-oauth',
  authDomainPrefix: 'budget-test',
} satisfies BuildAppProps;

/** A new App that skips esbuild bundling (NodejsFunction then needs only the entry file to exist). */
export function testApp(): App {
  return new App({ context: { 'aws:cdk:bundling-stacks': [] } });
}

/**
 * Handlers still being written are stood in for by a fixture, so these checks
 * run meanwhile; api.test.ts fails for each missing handler file on its own.
 */
export const entryOrStandIn = (file: string): string =>
  existsSync(path.join(repoRoot, file)) ? file : 'test/infra/fixtures/handler.ts';

export function buildTestApp(overrides: BuildAppProps = {}): BuiltApp {
  return buildApp({ app: testApp(), nag: false, handlerEntry: entryOrStandIn, ...TEST_CONFIG, ...overrides });
}

export interface Templates {
  stateful: Template;
  api: Template;
  jobs: Template;
  web: Template;
}

export function templatesOf(built: BuiltApp): Templates {
  return {
    stateful: Template.fromStack(built.stateful),
    api: Template.fromStack(built.api),
    jobs: Template.fromStack(built.jobs),
    web: Template.fromStack(built.web),
  };
}

/** A CloudFormation value as one string: literals kept, references as `<Logical.Attr>` or the import name. */
export const flat = (value: unknown): string => flattenReference(value);

export function logicalId(stack: Stack, fn: AppFunction): { functionId: string; roleId: string } {
  return {
    functionId: stack.getLogicalId(fn.function.node.defaultChild as CfnFunction),
    roleId: stack.getLogicalId(fn.role.node.defaultChild as CfnFunction),
  };
}

export interface GrantedStatement {
  actions: string[];
  resources: string[];
  conditions?: Record<string, Record<string, unknown>>;
}

type Resource = { Type: string; Properties: Record<string, unknown> };

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Every Allow statement that reaches a role: inline policies and IAM::Policy resources attached to it. */
export function statementsOfRole(template: Template, roleId: string): GrantedStatement[] {
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const role = resources[roleId];
  if (role?.Type !== 'AWS::IAM::Role') throw new Error(`${roleId} is not a role in this template`);
  const documents: unknown[] = [];
  for (const inline of asArray(role.Properties.Policies as { PolicyDocument: unknown }[])) {
    documents.push(inline.PolicyDocument);
  }
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
    const roles = asArray(resource.Properties.Roles as { Ref?: string }[]);
    if (roles.some((r) => r.Ref === roleId)) documents.push(resource.Properties.PolicyDocument);
  }
  return documents.flatMap((doc) =>
    asArray((doc as { Statement: Record<string, unknown>[] }).Statement)
      .filter((s) => s.Effect === 'Allow')
      .map((s) => ({
        actions: asArray(s.Action as string | string[]),
        resources: asArray(s.Resource).map(flat),
        ...(s.Condition ? { conditions: s.Condition as GrantedStatement['conditions'] } : {}),
      })),
  );
}

export function managedPoliciesOfRole(template: Template, roleId: string): string[] {
  const role = (template.toJSON().Resources as Record<string, Resource>)[roleId];
  return asArray(role?.Properties.ManagedPolicyArns as unknown[]).map(flat);
}
