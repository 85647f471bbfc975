/**
 * Deployment settings: read from CDK context (`cdk deploy -c key=value` or
 * cdk.json) by infra/bin/app.ts, or passed as props by tests. docs/deploy.md
 * lists every key. Checked once here so a typo fails the synth with its name,
 * not a deploy half-way through.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node } from 'constructs';

/** The repository root; entry files and web/dist are resolved from here. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface AppConfig {
  /** Prefix of every stack name (`dev-Stateful`, ...); lower case, digits, hyphens. */
  stage: string;
  account?: string;
  region: string;
  /** The SPA's origin (scheme + host, no path): CORS on the API and the receipts bucket, links in e-mail. */
  webOrigin: string;
  /** Sender of every e-mail (SES v2 `FromEmailAddress`); `Name <addr@domain>` or a bare address. */
  mailFrom: string;
  /** Where contact-form messages go. */
  supportInbox: string;
  /** Where reconciliation reports differences between the ledger and Stripe. Default: supportInbox. */
  operationsInbox: string;
  /** The verified SES identity (domain or address) that `mailFrom` sends as. Default: the domain of mailFrom. */
  sesIdentity: string;
  /**
   * Secrets Manager secret holding the Stripe API key (a restricted key `rk_...`,
   * docs/deploy.md lists its permissions) as plain text. Default `<stage>/stripe/api-key`.
   */
  stripeApiKeySecretName: string;
  /**
   * Secrets Manager secret holding the webhook endpoint's signing secret (`whsec_...`)
   * as plain text; only the webhook function reads it. Default `<stage>/stripe/webhook-secret`.
   */
  stripeWebhookSecretName: string;
  /**
   * A CLOUDFRONT-scope WAF web ACL (its ARN) for the distribution. Such ACLs live in
   * us-east-1: when `region` is us-east-1 the web stack makes its own and this stays
   * unset; in any other region it is required (docs/deploy.md).
   */
  cloudFrontWebAclArn?: string;
  /**
   * Stripe's publishable key (`pk_...`), public by design: config.json gives it to
   * the card forms, which make card tokens with it. Without it the forms say card
   * payments are unavailable.
   */
  stripePublishableKey?: string;
  /** Secrets Manager secret `{ "clientId", "clientSecret" }` for Google sign-in; absent = no Google. */
  googleSecretName?: string;
  /** Secrets Manager secret `{ "clientId", "clientSecret" }` (app id / app secret) for Facebook sign-in. */
  facebookSecretName?: string;
  /** Cognito hosted domain prefix (`<prefix>.auth.<region>.amazoncognito.com`); needed for social sign-in. */
  authDomainPrefix?: string;
  /** Path on the web origin that Cognito redirects to after social sign-in. */
  oauthCallbackPath: string;
  /** Custom domain of the web app; needs certificateArn (an ACM certificate in us-east-1). */
  domainName?: string;
  certificateArn?: string;
  /** Built SPA to upload; when the folder is missing only config.json is deployed. */
  webDistDir: string;
  /** Who is e-mailed when an alarm fires (SNS subscription, confirmed from the first e-mail); absent = nobody. */
  alarmEmail?: string;
  /**
   * Warm instances of the card-authorization function (provisioned concurrency), so a
   * burst of purchases is answered inside Stripe's 2 s without cold starts. 0 = none
   * (a test stage). Default 2.
   */
  authorizationWarmInstances: number;
}

export const PLACEHOLDER_WEB_ORIGIN = 'https://example.com';

/** Every key a deployer may set, with the type it must have. */
const contextKeys = {
  stage: 'string',
  webOrigin: 'string',
  mailFrom: 'string',
  supportInbox: 'string',
  operationsInbox: 'string',
  sesIdentity: 'string',
  stripeApiKeySecretName: 'string',
  stripeWebhookSecretName: 'string',
  cloudFrontWebAclArn: 'string',
  stripePublishableKey: 'string',
  googleSecretName: 'string',
  facebookSecretName: 'string',
  authDomainPrefix: 'string',
  oauthCallbackPath: 'string',
  domainName: 'string',
  certificateArn: 'string',
  webDistDir: 'string',
  alarmEmail: 'string',
  authorizationWarmInstances: 'string',
} as const;

export type ConfigInput = Partial<Omit<AppConfig, 'authorizationWarmInstances'>> & {
  /** A number, or its digits as CDK context gives them (`-c authorizationWarmInstances=4`). */
  authorizationWarmInstances?: number | string;
};

function requireWarmInstances(value: number | string | undefined): number {
  if (value === undefined) return 2;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 100) {
    throw new Error(`authorizationWarmInstances must be a whole number from 0 to 100, got "${value}"`);
  }
  return n;
}

/** Reads the known keys from CDK context; empty strings count as unset. */
export function configFromContext(node: Node): ConfigInput {
  const out: Record<string, string> = {};
  for (const key of Object.keys(contextKeys)) {
    const value: unknown = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw new Error(`Context "${key}" must be a string, got ${typeof value}`);
    out[key] = value.trim();
  }
  return out as ConfigInput;
}

/** The bare address inside `Name <addr@domain>` or `addr@domain`. */
export function emailAddressOf(mailFrom: string): string {
  const match = /<([^>]+)>\s*$/.exec(mailFrom);
  return (match?.[1] ?? mailFrom).trim();
}

function requireOrigin(value: string, key: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${key} must be an origin such as https://app.example.com, got "${value}"`);
  }
  if (url.protocol !== 'https:' || url.origin !== value.replace(/\/$/, '')) {
    throw new Error(`${key} must be an https origin without a path, got "${value}"`);
  }
  return url.origin;
}

function requireEmail(value: string, key: string): string {
  if (!/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(value))
    throw new Error(`${key} is not an e-mail address: "${value}"`);
  return value;
}

/** A secret key here would be served to every visitor in config.json: refuse it. */
function requirePublishableKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^pk_(test|live)_\w+$/.test(value)) {
    throw new Error('stripePublishableKey must be a publishable key (pk_test_... or pk_live_...)');
  }
  return value;
}

/**
 * CloudFront takes only web ACLs made in us-east-1. Outside that region the web
 * stack cannot make one, so the deployer must name one; in us-east-1 the stack's
 * own is used and a given one is refused (two sources of truth).
 */
function requireCloudFrontWebAcl(value: string | undefined, region: string): string | undefined {
  if (region === 'us-east-1') {
    if (value)
      throw new Error(
        'cloudFrontWebAclArn is only for regions other than us-east-1 (the web stack makes its own there)',
      );
    return undefined;
  }
  if (!value) {
    throw new Error(
      `region ${region}: set cloudFrontWebAclArn to a CLOUDFRONT-scope WAF web ACL made in us-east-1 (docs/deploy.md)`,
    );
  }
  if (!/^arn:aws[\w-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(value)) {
    throw new Error(`cloudFrontWebAclArn must be the ARN of a global (CLOUDFRONT) web ACL, got "${value}"`);
  }
  return value;
}

/** Applies defaults and checks the values; throws naming the first bad key. */
export function resolveConfig(input: ConfigInput): AppConfig {
  const stage = input.stage ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(
      `stage must be 1-20 lower-case letters, digits or hyphens, starting with a letter: "${stage}"`,
    );
  }
  const domainName = input.domainName;
  if (Boolean(domainName) !== Boolean(input.certificateArn)) {
    throw new Error('domainName and certificateArn go together: set both or neither');
  }
  const webOrigin = requireOrigin(
    input.webOrigin ?? (domainName ? `https://${domainName}` : PLACEHOLDER_WEB_ORIGIN),
    'webOrigin',
  );
  const mailFrom = input.mailFrom ?? 'no-reply@example.com';
  const fromAddress = requireEmail(emailAddressOf(mailFrom), 'mailFrom');
  const supportInbox = requireEmail(input.supportInbox ?? 'support@example.com', 'supportInbox');
  const operationsInbox = requireEmail(input.operationsInbox ?? supportInbox, 'operationsInbox');
  const social = Boolean(input.googleSecretName || input.facebookSecretName);
  if (social && !input.authDomainPrefix) {
    throw new Error('Google/Facebook sign-in needs authDomainPrefix (the Cognito hosted domain prefix)');
  }
  const oauthCallbackPath = input.oauthCallbackPath ?? '/auth/callback';
  if (!oauthCallbackPath.startsWith('/')) throw new Error('oauthCallbackPath must start with "/"');
  return {
    stage,
    account: input.account,
    region: input.region ?? 'us-east-1',
    webOrigin,
    mailFrom,
    supportInbox,
    operationsInbox,
    sesIdentity: input.sesIdentity ?? (fromAddress.split('@')[1] as string),
    stripeApiKeySecretName: input.stripeApiKeySecretName ?? `${stage}/stripe/api-key`,
    stripeWebhookSecretName: input.stripeWebhookSecretName ?? `${stage}/stripe/webhook-secret`,
    cloudFrontWebAclArn: requireCloudFrontWebAcl(input.cloudFrontWebAclArn, input.region ?? 'us-east-1'),
    stripePublishableKey: requirePublishableKey(input.stripePublishableKey),
    googleSecretName: input.googleSecretName,
    facebookSecretName: input.facebookSecretName,
    authDomainPrefix: input.authDomainPrefix,
    oauthCallbackPath,
    domainName,
    certificateArn: input.certificateArn,
    webDistDir: path.resolve(repoRoot, input.webDistDir ?? 'web/dist'),
    alarmEmail: input.alarmEmail === undefined ? undefined : requireEmail(input.alarmEmail, 'alarmEmail'),
    authorizationWarmInstances: requireWarmInstances(input.authorizationWarmInstances),
  };
}

/** Where Cognito sends the browser back after social sign-in: the app client's callback, config.json's oauthRedirect. */
export function oauthRedirectUrl(config: AppConfig): string {
  return `${config.webOrigin}${config.oauthCallbackPath}`;
}

/** True when the built SPA is there to upload. */
export function hasWebBuild(config: AppConfig): boolean {
  return existsSync(path.join(config.webDistDir, 'index.html'));
}

/**
 * Feature flags the stacks rely on, set on the stack itself (unless the app's
 * context already decides) so a stack behaves the same however it is built.
 * They could equally live in cdk.json's context.
 */
const FEATURE_FLAGS: Record<string, unknown> = {
  // Server access logs are delivered under a bucket policy, so log buckets need no ACLs.
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // Cross-stack references are CloudFormation exports: a stateful output cannot be removed while
  // a stateless stack still uses it (CDK's current default, made explicit).
  '@aws-cdk/core:defaultCrossStackReferences': 'strong',
};

export function applyFeatureFlags(node: Node): void {
  for (const [flag, value] of Object.entries(FEATURE_FLAGS)) {
    if (node.tryGetContext(flag) === undefined) node.setContext(flag, value);
  }
}
