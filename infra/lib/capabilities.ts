/**
 * From a route's or job's `uses` to IAM grants and environment: the only place
 * rights are handed out. A function gets exactly what its capabilities name
 * (test/infra checks the resulting policies against the same list).
 */

import type { Capability, DeletableRecord } from '@shared/api/routes';
import { type UserPoolCall, userPoolActions } from '@shared/api/userPoolCalls';
import { Stack } from 'aws-cdk-lib';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { keys } from '../../lambdas/src/data/keys';
import { type AppConfig, emailAddressOf } from './config';
import type { AppFunction } from './constructs/appFunction';

/** Reading the table and its indexes. No Scan: no function lists the whole table. */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
/**
 * Writing without deleting. ConditionCheckItem is a transaction's read-only guard;
 * TransactWriteItems has no action of its own (IAM checks each item's action).
 */
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
] as const;

/** A sample id, replaced by `*` to turn a key builder into its partition prefix. */
const SAMPLE = '\u0000';

/**
 * Partition-key patterns of the records a function may delete, from the key
 * builders themselves (lambdas/src/data/keys.ts), so a renamed prefix follows.
 * IAM can bound the partition key only: a session shares `USER#<id>` with its
 * profile, so `session` lets a function delete any item of a user's partition.
 */
export const DELETABLE_KEY_PATTERNS: Record<DeletableRecord, string> = {
  emailToken: prefixPattern(keys.emailToken(SAMPLE).pk),
  invitation: prefixPattern(keys.invitation(SAMPLE).pk),
  session: prefixPattern(keys.session(SAMPLE, SAMPLE).pk),
  idempotencyKey: prefixPattern(keys.idempotency(SAMPLE, SAMPLE).pk),
  scheduledStart: prefixPattern(keys.scheduledStart(SAMPLE, SAMPLE).pk),
};

function prefixPattern(samplePk: string): string {
  const at = samplePk.indexOf(SAMPLE);
  if (at <= 0)
    throw new Error(`Key ${JSON.stringify(samplePk)} has no constant prefix to bound deletes with`);
  return `${samplePk.slice(0, at)}*`;
}

/** The stateful resources functions may be granted access to. */
export interface SharedResources {
  table: ITable;
  receiptsBucket: IBucket;
  userPool: IUserPool;
  /** The web app's public client (hosted UI, social sign-in). */
  userPoolClient: IUserPoolClient;
  /** The API's confidential client (passwords, SECRET_HASH). */
  serverClient: IUserPoolClient;
  /** Seals second-factor secrets (lambdas/src/adapters/factorKey.ts): only `factorKey` functions read it. */
  factorKey: ISecret;
  /** Set when social sign-in is on: where POST /auth/social exchanges the hosted UI's code. */
  socialSignIn?: { oauthUrl: string; redirectUrl: string };
}

/** Environment every function gets: names of things, never secrets. */
export function baseEnvironment(config: AppConfig, shared: SharedResources): Record<string, string> {
  const { region } = Stack.of(shared.userPool);
  return {
    TABLE_NAME: shared.table.tableName,
    RECEIPTS_BUCKET: shared.receiptsBucket.bucketName,
    MAIL_FROM: config.mailFrom,
    SUPPORT_INBOX: config.supportInbox,
    OPERATIONS_INBOX: config.operationsInbox,
    COGNITO_USER_POOL_ID: shared.userPool.userPoolId,
    COGNITO_CLIENT_ID: shared.serverClient.userPoolClientId,
    COGNITO_WEB_CLIENT_ID: shared.userPoolClient.userPoolClientId,
    COGNITO_ISSUER: `https://cognito-idp.${region}.amazonaws.com/${shared.userPool.userPoolId}`,
    WEB_ORIGIN: config.webOrigin,
    ...(shared.socialSignIn
      ? {
          COGNITO_OAUTH_URL: shared.socialSignIn.oauthUrl,
          OAUTH_REDIRECT_URL: shared.socialSignIn.redirectUrl,
        }
      : {}),
    // lambdas/src/platform/config.ts: anything but `local` keeps test-only hooks off.
    STAGE: 'aws',
  };
}

/**
 * The Stripe secrets, imported once per stack that needs them: the API key and
 * the webhook signing secret apart, so only the webhook function can verify
 * (and so forge) a webhook.
 */
function stripeSecret(scope: Construct, which: 'ApiKey' | 'WebhookSecret', name: string): ISecret {
  const stack = Stack.of(scope);
  const id = `Stripe${which}`;
  const existing = stack.node.tryFindChild(id) as ISecret | undefined;
  return existing ?? Secret.fromSecretNameV2(stack, id, name);
}

/** SES identities `mailFrom` may send as: the configured one and the address itself (SES authorizes the most specific verified identity). */
export function sesIdentityArns(scope: Construct, config: AppConfig): string[] {
  const names = [...new Set([config.sesIdentity, emailAddressOf(config.mailFrom)])];
  return names.map((name) =>
    Stack.of(scope).formatArn({ service: 'ses', resource: 'identity', resourceName: name }),
  );
}

/** Grants `fn` exactly its capabilities and adds the environment they need. */
export function grantCapabilities(
  fn: AppFunction,
  uses: readonly Capability[],
  shared: SharedResources,
  config: AppConfig,
): void {
  const caps = new Set(uses);
  const tableArns = [shared.table.tableArn, `${shared.table.tableArn}/index/*`];
  const allow = (actions: readonly string[], resources: string[], conditions?: Record<string, unknown>) =>
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: [...actions], resources, conditions }));

  if (caps.has('table:read') || caps.has('table:write')) allow(TABLE_READ_ACTIONS, tableArns);
  // Write implies read: conditional writes and transactions read what they guard.
  if (caps.has('table:write')) allow(TABLE_WRITE_ACTIONS, [shared.table.tableArn]);
  const deletable = [...caps].flatMap((cap) =>
    cap.startsWith('table:delete:') ? [DELETABLE_KEY_PATTERNS[cap.slice(13) as DeletableRecord]] : [],
  );
  if (deletable.length > 0) {
    allow(['dynamodb:DeleteItem'], [shared.table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': deletable.sort() },
    });
  }
  const calls = [...caps].flatMap((cap) =>
    cap.startsWith('userPool:') ? [cap.slice(9) as UserPoolCall] : [],
  );
  const userPoolRights = userPoolActions(calls);
  if (userPoolRights.length > 0) allow(userPoolRights, [shared.userPool.userPoolArn]);

  for (const cap of caps) {
    if (cap === 'receipts:read') shared.receiptsBucket.grantRead(fn);
    if (cap === 'receipts:write') {
      shared.receiptsBucket.grantPut(fn);
      // A refused upload (wrong type or size) is deleted once the server has checked it.
      shared.receiptsBucket.grantDelete(fn);
    }
    if (cap === 'email:send') allow(['ses:SendEmail'], sesIdentityArns(fn, config));
    if (cap === 'stripe') {
      const secret = stripeSecret(fn, 'ApiKey', config.stripeApiKeySecretName);
      secret.grantRead(fn);
      fn.function.addEnvironment('STRIPE_API_KEY_SECRET_ARN', secret.secretArn);
    }
    if (cap === 'factorKey') {
      shared.factorKey.grantRead(fn);
      fn.function.addEnvironment('FACTOR_KEY_SECRET_ARN', shared.factorKey.secretArn);
    }
    if (cap === 'stripe:webhookSecret') {
      const secret = stripeSecret(fn, 'WebhookSecret', config.stripeWebhookSecretName);
      secret.grantRead(fn);
      fn.function.addEnvironment('STRIPE_WEBHOOK_SECRET_ARN', secret.secretArn);
    }
  }
}
