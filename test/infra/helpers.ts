/**
 * Shared setup for the CDK assertion tests: the app built from props (not
 * context), with bundling skipped so no handler is compiled, plus small
 * readers for templates (policies of a role, flattened intrinsics).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
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

type Json = Record<string, any>;

/** `value` with every `{ Ref: <parameter> }` of `parameters` replaced by the value the parent passes. */
function withParameters(value: unknown, parameters: Json): unknown {
  if (Array.isArray(value)) return value.map((v) => withParameters(v, parameters));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Json;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0] === 'Ref' && object.Ref in parameters) return parameters[object.Ref];
  return Object.fromEntries(keys.map((k) => [k, withParameters(object[k], parameters)]));
}

/**
 * The API as one template: the parent stack's resources and those of each
 * nested route stack (infra/lib/apiStack.ts routeGroup), a nested stack's
 * parameters read as what the parent passes them, so references read as they
 * would in one stack (`<HttpApi...>`, the table's ARN). The nested stacks
 * themselves stay out, so counts are of the API's own resources.
 */
function apiTemplate(built: BuiltApp): Template {
  const parent = Template.fromStack(built.api).toJSON() as Json;
  const resources: Json = { ...parent.Resources };
  for (const nested of Object.values(built.api.routeStacks)) {
    const id = built.api.getLogicalId(nested.nestedStackResource as CfnElement);
    const parameters = (resources[id]?.Properties?.Parameters ?? {}) as Json;
    delete resources[id];
    const own = Template.fromStack(nested).toJSON() as Json;
    for (const [logical, resource] of Object.entries(own.Resources as Json)) {
      if (logical in resources) throw new Error(`${logical} is in two of the API's stacks`);
      resources[logical] = withParameters(resource, parameters);
    }
  }
  return Template.fromJSON({ ...parent, Resources: resources });
}

export function templatesOf(built: BuiltApp): Templates {
  return {
    stateful: Template.fromStack(built.stateful),
    api: apiTemplate(built),
    jobs: Template.fromStack(built.jobs),
    web: Template.fromStack(built.web),
  };
}

/** A CloudFormation value as one string: literals kept, references as `<Logical.Attr>` or the import name. */
export const flat = (value: unknown): string => flattenReference(value);

/** The function's and its role's logical ids, in whichever stack (or nested route stack) holds them. */
export function logicalId(_stack: Stack, fn: AppFunction): { functionId: string; roleId: string } {
  const stack = Stack.of(fn.function);
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
