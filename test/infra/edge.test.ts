/**
 * Edge defence in the synthesized templates (docs/security.md, "Edge"): the API
 * reached through the distribution at /api/*, a CLOUDFRONT web ACL with AWS
 * managed and per-IP rate rules in front of it, a REGIONAL one on the user
 * pool, the Stripe webhook exempt from every rule and with its own API Gateway
 * budget, and the handlers refusing requests that skipped the distribution.
 */
import vm from 'node:vm';
import { type OperationId, operationIds, type RouteDef, routes } from '@shared/api/routes';
import type { CfnElement } from 'aws-cdk-lib';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTE_THROTTLES, routeGroup } from '../../infra/lib/apiStack';
import type { BuiltApp } from '../../infra/lib/app';
import { EDGE_RATE_LIMITS, MANAGED_RULE_GROUPS } from '../../infra/lib/constructs/webAcl';
import { apiFunctionSource } from '../../infra/lib/webRouting';
import { API_PATH_PREFIX } from '../../infra/lib/webStack';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../lambdas/src/platform/edge';
import { SESSION_COOKIE_PATH } from '../../lambdas/src/platform/sessionCookie';
import { buildTestApp, flat, logicalId, type Templates, templatesOf } from './helpers';

type Resource = { Type: string; Properties: Record<string, any> };

let built: BuiltApp;
let t: Templates;

beforeAll(() => {
  built = buildTestApp();
  t = templatesOf(built);
});

const webhookPath = `${API_PATH_PREFIX}${routes.stripeWebhook.path}`;
const distribution = () =>
  (Object.values(t.web.findResources('AWS::CloudFront::Distribution'))[0] as Resource).Properties
    .DistributionConfig;
const aclOf = (template: Templates[keyof Templates], scope: 'CLOUDFRONT' | 'REGIONAL') => {
  const acls = Object.values(template.findResources('AWS::WAFv2::WebACL')) as Resource[];
  const found = acls.filter((a) => a.Properties.Scope === scope);
  expect(found, scope).toHaveLength(1);
  return (found[0] as Resource).Properties;
};
const ruleNamed = (acl: Record<string, any>, name: string) => {
  const rule = acl.Rules.find((r: { Name: string }) => r.Name === name);
  expect(rule, name).toBeDefined();
  return rule;
};

/** Every byte-match search string under a statement, with its positional constraint. */
function pathsIn(statement: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, any>;
    if (o.ByteMatchStatement) {
      found.push(`${o.ByteMatchStatement.PositionalConstraint} ${o.ByteMatchStatement.SearchString}`);
    }
    for (const value of Object.values(o)) walk(value);
  };
  walk(statement);
  return found;
}

describe('the API behind the distribution', () => {
  it('serves /api/* from the HTTP API, uncached, every method, HTTPS only', () => {
    const [behavior] = distribution().CacheBehaviors;
    expect(behavior).toMatchObject({
      PathPattern: '/api/*',
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
      Compress: false,
    });
    // AWS managed policies: CachingDisabled, AllViewerExceptHostHeader.
    expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(behavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    const origin = distribution().Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
    expect(flat(origin.DomainName)).toMatch(/ApiEndpoint/);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  });

  it('forwards the session cookies to refresh, sign-out and social sign-in, and their Set-Cookie back', () => {
    const [behavior] = distribution().CacheBehaviors;
    // AllViewerExceptHostHeader (AWS managed) forwards every viewer cookie, header and query string;
    // CachingDisabled keys nothing, so no answer (and no Set-Cookie) is ever shared.
    expect(behavior.OriginRequestPolicyId).toBe(
      OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
    expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    // No response headers policy on the API: its answers, cookies included, pass as they are.
    expect(behavior.ResponseHeadersPolicyId).toBeUndefined();
    // The cookie's path is inside the behaviour, and covers the routes that read it.
    expect(SESSION_COOKIE_PATH).toBe(`${API_PATH_PREFIX}/auth`);
    expect(`${SESSION_COOKIE_PATH}/*`.startsWith(behavior.PathPattern.replace('*', ''))).toBe(true);
    const readers = operationIds.filter((op) => (routes[op] as RouteDef).sessionCookie);
    expect(readers.sort()).toEqual([
      'changePassword',
      'completeSocialSignIn',
      'refreshSession',
      'signOut',
      'turnOffSecondFactor',
    ]);
    for (const op of [...readers, 'signIn'] as const) {
      expect(`${API_PATH_PREFIX}${routes[op].path}`.startsWith(`${SESSION_COOKIE_PATH}/`), op).toBe(true);
    }
  });

  it('has no route that answers with a refresh token in its body', () => {
    for (const op of operationIds) {
      const output = z.toJSONSchema(routes[op].output, { unrepresentable: 'any', io: 'output' });
      expect(JSON.stringify(output), op).not.toMatch(/refresh_?token/i);
    }
  });

  it('sends the proof of passing the edge, resolved from Secrets Manager at deploy time', () => {
    const [behavior] = distribution().CacheBehaviors;
    const origin = distribution().Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
    expect(origin.OriginCustomHeaders).toEqual([
      {
        HeaderName: ORIGIN_VERIFY_HEADER,
        HeaderValue: '{{resolve:secretsmanager:test/api/edge-origin:SecretString:::}}',
      },
    ]);
    t.api.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'test/api/edge-origin',
      GenerateSecretString: { ExcludePunctuation: true, PasswordLength: 48 },
    });
  });

  it.each(operationIds)('%s: its function knows the proof unless it is the webhook', (op) => {
    const fn = built.api.functions[op];
    const env =
      t.api.toJSON().Resources[logicalId(built.api, fn).functionId].Properties.Environment.Variables;
    if (routes[op].access.kind === 'stripeSignature') expect(env.EDGE_ORIGIN_SECRET).toBeUndefined();
    else
      expect(env.EDGE_ORIGIN_SECRET).toEqual({
        'Fn::Join': [
          '',
          [
            '{{resolve:secretsmanager:',
            { Ref: expect.stringMatching(/^EdgeOriginSecret/) },
            ':SecretString:::}}',
          ],
        ],
      });
  });

  it("strips /api and stamps the viewer's own address over whatever the viewer sent", () => {
    const [behavior] = distribution().CacheBehaviors;
    expect(behavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    const context = vm.createContext({});
    new vm.Script(apiFunctionSource(API_PATH_PREFIX)).runInContext(context);
    const handler = context.handler as (event: unknown) => {
      uri: string;
      headers: Record<string, { value: string }>;
    };
    const out = handler({
      viewer: { ip: '198.51.100.7' },
      request: {
        method: 'POST',
        uri: '/api/auth/signIn',
        headers: { [VIEWER_ADDRESS_HEADER]: { value: '1.2.3.4' } },
      },
    });
    expect(out.uri).toBe('/auth/signIn');
    expect(out.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '198.51.100.7' });
    const [, apiPath] = Object.entries(t.web.findResources('AWS::CloudFront::Function')).find(([id]) =>
      id.startsWith('ApiPath'),
    ) ?? [undefined, { Properties: {} }];
    const inline = (apiPath as Resource).Properties.FunctionCode;
    expect(inline).toBe(apiFunctionSource(API_PATH_PREFIX));
  });
});

describe('the CLOUDFRONT web ACL', () => {
  it('is attached to the distribution', () => {
    expect(flat(distribution().WebACLId)).toMatch(/^<WebAcl\w*\.Arn>$/);
  });

  it('runs the AWS managed rule groups (IP reputation, common, known bad inputs)', () => {
    const acl = aclOf(t.web, 'CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    for (const name of MANAGED_RULE_GROUPS) {
      const rule = ruleNamed(acl, name);
      expect(rule.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: name });
      expect(rule.OverrideAction).toEqual({ None: {} });
    }
    expect(MANAGED_RULE_GROUPS).toEqual([
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
  });

  it('blocks per IP above the limits: public forms low, the whole API higher', () => {
    const acl = aclOf(t.web, 'CLOUDFRONT');
    const forms = ruleNamed(acl, 'PublicFormsPerIp');
    expect(forms.Action).toEqual({ Block: {} });
    expect(forms.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: EDGE_RATE_LIMITS.publicForms,
    });
    const formPaths = pathsIn(forms.Statement.RateBasedStatement.ScopeDownStatement);
    for (const op of [
      'joinWaitlist',
      'sendContactMessage',
      'registerManager',
      'signIn',
      'forgotPassword',
    ] as const) {
      expect(formPaths).toContain(`EXACTLY ${API_PATH_PREFIX}${routes[op].path}`);
    }
    expect(formPaths).not.toContain(webhookPath);
    const api = ruleNamed(acl, 'ApiPerIp');
    expect(api.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: EDGE_RATE_LIMITS.api,
    });
    expect(EDGE_RATE_LIMITS.publicForms).toBeLessThan(EDGE_RATE_LIMITS.api);
  });

  it('exempts the Stripe webhook from every rule, so Stripe always reaches it', () => {
    const acl = aclOf(t.web, 'CLOUDFRONT');
    for (const rule of acl.Rules) {
      const scopeDown =
        rule.Statement.ManagedRuleGroupStatement?.ScopeDownStatement ??
        rule.Statement.RateBasedStatement?.ScopeDownStatement;
      expect(scopeDown, rule.Name).toBeDefined();
      const text = JSON.stringify(scopeDown);
      if (text.includes(webhookPath)) {
        // Present only under a NOT: the rule applies to everything but the webhook.
        const exempt = JSON.stringify(
          scopeDown.NotStatement ?? scopeDown.AndStatement?.Statements.find((s: any) => s.NotStatement),
        );
        expect(exempt, rule.Name).toContain(webhookPath);
      } else {
        // A rule without the exemption must only match paths that are not the webhook.
        expect(
          pathsIn(scopeDown).every((p) => p.startsWith('EXACTLY ')),
          rule.Name,
        ).toBe(true);
      }
    }
  });

  it('lets the API judge body sizes (the common set would block bodies over 8 KB)', () => {
    const rule = ruleNamed(aclOf(t.web, 'CLOUDFRONT'), 'AWSManagedRulesCommonRuleSet');
    expect(rule.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual([
      { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
    ]);
  });

  it('outside us-east-1 uses the web ACL the deployer names (CloudFront ACLs live in us-east-1)', () => {
    const arn =
      'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/0a1b2c3d-0000-4000-8000-000000000000';
    const elsewhere = templatesOf(buildTestApp({ region: 'eu-west-1', cloudFrontWebAclArn: arn }));
    elsewhere.web.resourceCountIs('AWS::WAFv2::WebACL', 0);
    const config = (
      Object.values(elsewhere.web.findResources('AWS::CloudFront::Distribution'))[0] as Resource
    ).Properties.DistributionConfig;
    expect(config.WebACLId).toBe(arn);
    expect(() => buildTestApp({ region: 'eu-west-1' })).toThrow(/cloudFrontWebAclArn/);
  });
});

describe('the user pool web ACL', () => {
  it('runs the managed rule groups and a per-IP rate rule, and is associated with the pool', () => {
    const acl = aclOf(t.api, 'REGIONAL');
    for (const name of MANAGED_RULE_GROUPS) ruleNamed(acl, name);
    const rate = ruleNamed(acl, 'UserPoolPerIp');
    expect(rate.Action).toEqual({ Block: {} });
    expect(rate.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: EDGE_RATE_LIMITS.userPool,
    });
    const [association] = Object.values(t.api.findResources('AWS::WAFv2::WebACLAssociation')) as Resource[];
    expect(flat(association?.Properties.ResourceArn)).toMatch(/Users\w*Arn/);
    expect(flat(association?.Properties.WebACLArn)).toMatch(/^<UserPoolWaf\w*\.Arn>$/);
  });
});

describe('API Gateway budgets per route', () => {
  const settings = () =>
    (Object.values(t.api.findResources('AWS::ApiGatewayV2::Stage'))[0] as Resource).Properties.RouteSettings;

  it('gives the Stripe webhook its own budget, larger than any public route', () => {
    const webhook = settings()[`POST ${routes.stripeWebhook.path}`];
    expect(webhook).toEqual({
      ThrottlingRateLimit: ROUTE_THROTTLES.webhook.rateLimit,
      ThrottlingBurstLimit: ROUTE_THROTTLES.webhook.burstLimit,
    });
  });

  it.each(operationIds.filter((op) => routes[op].access.kind === 'public'))(
    'public %s: its own low budget, below the webhook',
    (op) => {
      const own = settings()[`${routes[op].method} ${routes[op].path}`];
      expect(own, op).toBeDefined();
      expect(own.ThrottlingRateLimit).toBeLessThan(ROUTE_THROTTLES.webhook.rateLimit);
      expect(own.ThrottlingBurstLimit).toBeLessThan(ROUTE_THROTTLES.webhook.burstLimit);
    },
  );

  it('public forms get the lowest budget', () => {
    const own = settings()[`POST ${routes.joinWaitlist.path}`];
    expect(own).toEqual({
      ThrottlingRateLimit: ROUTE_THROTTLES.publicForm.rateLimit,
      ThrottlingBurstLimit: ROUTE_THROTTLES.publicForm.burstLimit,
    });
  });

  it('the stage deploys after every route it names (after the nested stack that holds it)', () => {
    const [stage] = Object.values(t.api.findResources('AWS::ApiGatewayV2::Stage')) as any[];
    const named = Object.keys(settings());
    expect(named.length).toBeGreaterThan(1);
    for (const key of named) {
      const op = operationIds.find((o) => `${routes[o].method} ${routes[o].path}` === key);
      expect(op, key).toBeDefined();
      const home = built.api.routeStacks[routeGroup(routes[op as OperationId])];
      const homeId = built.api.getLogicalId(home?.nestedStackResource as CfnElement);
      expect(stage.DependsOn, key).toContain(homeId);
    }
  });
});
