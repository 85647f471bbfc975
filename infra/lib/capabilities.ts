/**
 * From a route's or job's `uses` to IAM grants and environment: the only place
 * rights are handed out. A function gets exactly what its capabilities name
 * (test/infra checks the resulting policies against the same list).
 */
import { Stack } from 'aws-cdk-lib';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { Capability } from '../../shared/src/api/routes';
import { type AppConfig, emailAddressOf } from './config';
import type { AppFunction } from './constructs/appFunction';

/**
 * What `userPool:admin` allows: managing users of our own pool from the API
 * (invite, update, disable, delete, link a social identity). Not pool settings.
 */
export const USER_POOL_ADMIN_ACTIONS = [
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminConfirmSignUp',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminLinkProviderForUser',
  'cognito-idp:ListUsers',
] as const;

/** The stateful resources functions may be granted access to. */
export interface SharedResources {
  table: ITable;
  receiptsBucket: IBucket;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
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
    COGNITO_CLIENT_ID: shared.userPoolClient.userPoolClientId,
    COGNITO_ISSUER: `https://cognito-idp.${region}.amazonaws.com/${shared.userPool.userPoolId}`,
    WEB_ORIGIN: config.webOrigin,
    // lambdas/src/platform/config.ts: anything but `local` keeps test-only hooks off.
    STAGE: 'aws',
  };
}

/** The Stripe secret, imported once per stack that needs it. */
function stripeSecret(scope: Construct, config: AppConfig): ISecret {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('StripeSecret') as ISecret | undefined;
  return existing ?? Secret.fromSecretNameV2(stack, 'StripeSecret', config.stripeSecretName);
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
  for (const cap of caps) {
    switch (cap) {
      case 'table:read':
        // table:write already includes reading.
        if (!caps.has('table:write')) shared.table.grantReadData(fn);
        break;
      case 'table:write':
        // Write implies read: conditional writes and transactions read what they guard.
        shared.table.grantReadWriteData(fn);
        break;
      case 'receipts:read':
        shared.receiptsBucket.grantRead(fn);
        break;
      case 'receipts:write':
        shared.receiptsBucket.grantPut(fn);
        // A refused upload (wrong type or size) is deleted once the server has checked it.
        shared.receiptsBucket.grantDelete(fn);
        break;
      case 'email:send':
        fn.role.addToPrincipalPolicy(
          new PolicyStatement({ actions: ['ses:SendEmail'], resources: sesIdentityArns(fn, config) }),
        );
        break;
      case 'userPool:admin':
        fn.role.addToPrincipalPolicy(
          new PolicyStatement({
            actions: [...USER_POOL_ADMIN_ACTIONS],
            resources: [shared.userPool.userPoolArn],
          }),
        );
        break;
      case 'stripe': {
        const secret = stripeSecret(fn, config);
        secret.grantRead(fn);
        fn.function.addEnvironment('STRIPE_SECRET_ARN', secret.secretArn);
        break;
      }
      default:
        throw new Error(`No grant defined for capability ${String(cap satisfies never)}`);
    }
  }
}
