/**
 * AWS WAF web ACLs: one CLOUDFRONT-scope ACL in front of the distribution (the
 * site and, under /api/*, the HTTP API, which cannot take a web ACL itself) and
 * one REGIONAL ACL on the Cognito user pool (its public endpoints: sign-up,
 * sign-in, password reset, the hosted UI). docs/security.md, "Edge".
 *
 * Both start with AWS's managed rule groups (IP reputation, common, known bad
 * inputs) and end with per-IP rate rules. The Stripe webhook is exempt from
 * every rule: Stripe retries a refused delivery and the card authorization must
 * be answered within 2 s, so nothing at the edge may block or rate it; its
 * signature is checked in the handler, and API Gateway gives it its own budget.
 */
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** Per-IP limits, in requests per EVALUATION_WINDOW_SECONDS. WAF counts every edge together. */
export const EDGE_RATE_LIMITS = {
  /** Public forms and sign-in routes: the handlers allow 5-20 per 10 min per client; this stops floods earlier. */
  publicForms: 100,
  /** All of /api/* but the webhook: a busy manager's console makes a few requests a second at most. */
  api: 2000,
  /** Cognito's public endpoints (sign-up, sign-in, refresh, password reset, hosted UI). */
  userPool: 1000,
} as const;
export const EVALUATION_WINDOW_SECONDS = 300;

/** The AWS managed rule groups both ACLs run, in this order. */
export const MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

type Statement = CfnWebACL.StatementProperty;

const uriPath = (searchString: string, positionalConstraint: 'EXACTLY' | 'STARTS_WITH'): Statement => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint,
    searchString,
    // %-encoded paths are decoded first, so /api/%77aitlist counts as /api/waitlist.
    textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
  },
});

const anyOf = (statements: Statement[]): Statement =>
  statements.length === 1 ? (statements[0] as Statement) : { orStatement: { statements } };

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

function managedRule(name: string, priority: number, scopeDown?: Statement): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name,
        ...(scopeDown ? { scopeDownStatement: scopeDown } : {}),
        // The common set blocks bodies over 8 KB; the API's own limits are per route (up to
        // 16 KB for a contact message) and enforced by the handler with a clear error.
        ...(name === 'AWSManagedRulesCommonRuleSet'
          ? { ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }] }
          : {}),
      },
    },
    visibilityConfig: visibility(name),
  };
}

function rateRule(
  name: string,
  priority: number,
  limit: number,
  scopeDown?: Statement,
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    action: { block: {} },
    statement: {
      rateBasedStatement: {
        aggregateKeyType: 'IP',
        limit,
        evaluationWindowSec: EVALUATION_WINDOW_SECONDS,
        ...(scopeDown ? { scopeDownStatement: scopeDown } : {}),
      },
    },
    visibilityConfig: visibility(name),
  };
}

export interface EdgeWebAclProps {
  /** Distinguishes the metric names of several deployments in one account. */
  stage: string;
  /** Path prefix the API is served under on the distribution, e.g. `/api`. */
  apiPrefix: string;
  /** Paths (under apiPrefix) that no rule may touch: the Stripe webhook. */
  exemptPaths: string[];
  /** Paths (under apiPrefix) of public forms and sign-in, held to EDGE_RATE_LIMITS.publicForms. */
  publicFormPaths: string[];
}

/** The CLOUDFRONT-scope ACL for the distribution; the stack holding it must be in us-east-1. */
export class EdgeWebAcl extends Construct {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeWebAclProps) {
    super(scope, id);
    const exempt = anyOf(props.exemptPaths.map((p) => uriPath(`${props.apiPrefix}${p}`, 'EXACTLY')));
    const notExempt: Statement = { notStatement: { statement: exempt } };
    const forms = anyOf(props.publicFormPaths.map((p) => uriPath(`${props.apiPrefix}${p}`, 'EXACTLY')));
    const api = uriPath(`${props.apiPrefix}/`, 'STARTS_WITH');

    this.acl = new CfnWebACL(this, 'Acl', {
      name: `${props.stage}-learning-budget-edge`,
      description: 'Learning budget - the site and its API on CloudFront',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.stage}-edge`),
      rules: [
        ...MANAGED_RULE_GROUPS.map((name, i) => managedRule(name, i, notExempt)),
        rateRule('PublicFormsPerIp', 10, EDGE_RATE_LIMITS.publicForms, forms),
        rateRule('ApiPerIp', 11, EDGE_RATE_LIMITS.api, { andStatement: { statements: [api, notExempt] } }),
      ],
    });
  }
}

export interface UserPoolWebAclProps {
  stage: string;
  userPoolArn: string;
}

/** The REGIONAL ACL on the user pool, and its association. */
export class UserPoolWebAcl extends Construct {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string, props: UserPoolWebAclProps) {
    super(scope, id);
    this.acl = new CfnWebACL(this, 'Acl', {
      name: `${props.stage}-learning-budget-user-pool`,
      description: 'Learning budget - public endpoints of the user pool',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.stage}-user-pool`),
      rules: [
        ...MANAGED_RULE_GROUPS.map((name, i) => managedRule(name, i)),
        rateRule('UserPoolPerIp', 10, EDGE_RATE_LIMITS.userPool),
      ],
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.userPoolArn,
      webAclArn: this.acl.attrArn,
    });
  }
}
