/**
 * Everything that holds data and must outlive any deploy: the single table,
 * the receipts bucket (and its access-log bucket), the user pool. All are
 * retained on stack deletion and protected against accidental deletion; the
 * stateless stacks (api, jobs, web) can be destroyed and rebuilt around them.
 */
import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  SecretValue,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ProviderAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolIdentityProviderFacebook,
  UserPoolIdentityProviderGoogle,
  UserPoolOperation,
} from 'aws-cdk-lib/aws-cognito';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { tableSpec } from '../../lambdas/src/data/tableSpec';
import { REFRESH_TOKEN_VALIDITY_DAYS } from '../../lambdas/src/platform/sessionCookie';
import type { SocialProvider } from '../../web/src/config';
import { type AppConfig, applyFeatureFlags, oauthRedirectUrl } from './config';
import { AppFunction } from './constructs/appFunction';

export interface StatefulStackProps extends StackProps {
  config: AppConfig;
  /** See BuildAppProps.handlerEntry. */
  handlerEntry?: (file: string) => string;
}

/** The Cognito pre-sign-up trigger: links a first social sign-in to the account with that e-mail. */
export const PRE_SIGN_UP_ENTRY = 'lambdas/src/triggers/preSignUp.ts';

/** What the web app needs to offer social sign-in (config.json socialProviders, oauthDomain). */
export interface SocialSignIn {
  /** The identity providers configured, by their Cognito names. */
  providers: SocialProvider[];
  /** Host of the Cognito hosted domain, without scheme: `<prefix>.auth.<region>.amazoncognito.com`. */
  authDomainHost: string;
}

export class StatefulStack extends Stack {
  readonly table: Table;
  readonly receiptsBucket: Bucket;
  readonly userPool: UserPool;
  /**
   * The web app's public client: no secret, no password flow; only the hosted
   * UI's code flow (social sign-in: the browser makes the PKCE pair, our API
   * redeems the code, POST /auth/social) and refresh.
   * What config.json names, and so what anyone can read.
   */
  readonly userPoolClient: UserPoolClient;
  /**
   * The API's confidential client: USER_PASSWORD_AUTH with a secret only the
   * functions with `userPool:signIn` may read (docs/security.md "Sign-in").
   */
  readonly serverClient: UserPoolClient;
  /**
   * The key that seals second-factor secrets in the table (lambdas/src/adapters/factorKey.ts):
   * a generated random string, readable only by the functions that check or set codes.
   */
  readonly factorKey: Secret;
  /** Set when social sign-in is on (at least one identity provider and the hosted domain). */
  readonly social?: SocialSignIn;
  /** The pre-sign-up trigger, present only with social sign-in. */
  readonly preSignUp?: AppFunction;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    applyFeatureFlags(this.node);
    const { config } = props;

    // --- Table: physical shape from tableSpec, shared with DynamoDB Local ------
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new Table(this, 'Table', {
      partitionKey: key(tableSpec.partitionKey),
      sortKey: key(tableSpec.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableSpec.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableSpec.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
      });
    }

    // --- Receipts: uploaded straight from the browser with presigned requests --
    const accessLogs = new Bucket(this, 'AccessLogs', {
      encryption: BucketEncryption.S3_MANAGED, // server access logging cannot write to SSE-KMS buckets
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the server-access-log bucket; logging it into itself would log its own log writes.',
    });

    this.receiptsBucket = new Bucket(this, 'Receipts', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'receipts/',
      removalPolicy: RemovalPolicy.RETAIN,
      cors: [
        {
          allowedOrigins: [config.webOrigin],
          // POST: receipts are uploaded from the browser with a presigned POST (services/receipts/receipts.ts);
          // GET: viewing through a presigned URL. Nothing uploads with PUT.
          allowedMethods: [HttpMethods.POST, HttpMethods.GET],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Overwritten or deleted receipts (including refused uploads) are kept 30 days for recovery, then gone.
        { noncurrentVersionExpiration: Duration.days(30), expiredObjectDeleteMarker: true },
      ],
    });

    // --- Users: e-mail sign-in, passwords per NIST 800-63B ----------------------
    // The API verifies e-mail addresses and resets passwords with its own links
    // (lambdas/src/services/accounts/accountEmails.ts, sent through SES) and creates users
    // with AdminCreateUser, exactly as against cognito-local. So Cognito sends
    // no mail of its own: no auto-verified attribute, no SES setup to depend on.
    this.userPool = new UserPool(this, 'Users', {
      // One door: only our API's rate-limited routes create accounts (AdminCreateUser).
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: false },
      standardAttributes: { email: { required: true, mutable: true } },
      signInCaseSensitive: false,
      passwordPolicy: {
        minLength: 8,
        requireLowercase: false,
        requireUppercase: false,
        requireDigits: false,
        requireSymbols: false,
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      mfa: Mfa.OFF,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason:
          'Product decision (Passwords): at least 8 characters and no composition rules, ' +
          'as NIST 800-63B recommends; composition rules push users to predictable passwords.',
      },
      {
        id: 'AwsSolutions-COG2',
        reason:
          "The second factor (TOTP + recovery codes) is enforced by the API's sign-in route, the only door " +
          'to a password sign-in, so it runs the same against cognito-local (docs/security.md "Second factor").',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan (threat protection) costs per active user; the API already rate-limits ' +
          'public writes and authorizes every call from the table. Can be switched on later without code changes.',
      },
    );

    // --- Social sign-in, only when its secrets are configured ------------------
    const providers: UserPoolClientIdentityProvider[] = [UserPoolClientIdentityProvider.COGNITO];
    const socialProviders: SocialProvider[] = [];
    const idps: Construct[] = [];
    const secretField = (name: string, field: string) =>
      SecretValue.secretsManager(name, { jsonField: field }).unsafeUnwrap();
    if (config.googleSecretName) {
      idps.push(
        new UserPoolIdentityProviderGoogle(this, 'Google', {
          userPool: this.userPool,
          clientId: secretField(config.googleSecretName, 'clientId'),
          clientSecretValue: SecretValue.secretsManager(config.googleSecretName, {
            jsonField: 'clientSecret',
          }),
          scopes: ['openid', 'email', 'profile'],
          attributeMapping: {
            email: ProviderAttribute.GOOGLE_EMAIL,
            emailVerified: ProviderAttribute.other('email_verified'),
          },
        }),
      );
      providers.push(UserPoolClientIdentityProvider.GOOGLE);
      socialProviders.push('Google');
    }
    if (config.facebookSecretName) {
      idps.push(
        new UserPoolIdentityProviderFacebook(this, 'Facebook', {
          userPool: this.userPool,
          clientId: secretField(config.facebookSecretName, 'clientId'),
          clientSecret: secretField(config.facebookSecretName, 'clientSecret'),
          scopes: ['public_profile', 'email'],
          attributeMapping: { email: ProviderAttribute.FACEBOOK_EMAIL },
        }),
      );
      providers.push(UserPoolClientIdentityProvider.FACEBOOK);
      socialProviders.push('Facebook');
    }
    const social = idps.length > 0;
    if (social && config.authDomainPrefix) {
      this.userPool.addDomain('AuthDomain', {
        cognitoDomain: { domainPrefix: config.authDomainPrefix },
      });
      this.social = {
        providers: socialProviders,
        // Spelled from the configured prefix (what the domain's Ref returns) rather than the
        // reference: no cross-stack export, so social sign-in can be switched off again later.
        authDomainHost: `${config.authDomainPrefix}.auth.${this.region}.amazoncognito.com`,
      };
    }
    if (social) this.preSignUp = this.addPreSignUpTrigger(props.handlerEntry ?? ((file: string) => file));

    const tokenLifetimes = {
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      // The session cookie's Max-Age is this validity (lambdas/src/platform/sessionCookie.ts).
      refreshTokenValidity: Duration.days(REFRESH_TOKEN_VALIDITY_DAYS),
    };
    this.serverClient = this.userPool.addClient('ServerClient', {
      ...tokenLifetimes,
      // A confidential client: every call carries SECRET_HASH, so the published web
      // client id is no way in. USER_PASSWORD_AUTH (+ refresh) also runs on cognito-local.
      generateSecret: true,
      authFlows: { userPassword: true },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      disableOAuth: true,
    });
    this.userPoolClient = this.userPool.addClient('WebClient', {
      ...tokenLifetimes,
      generateSecret: false,
      // No password flow at all (only refresh, which our API does for social sessions):
      // an explicit list, since Cognito's default would allow SRP.
      authFlows: { userPassword: false },
      supportedIdentityProviders: social
        ? providers.filter((p) => p !== UserPoolClientIdentityProvider.COGNITO)
        : [UserPoolClientIdentityProvider.COGNITO],
      ...(social
        ? {
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
              callbackUrls: [oauthRedirectUrl(config)],
              // Where the hosted UI's /logout returns a social session's sign-out (web/src/auth/social.ts):
              // /login after Logout, / after deleting one's own account.
              logoutUrls: [`${config.webOrigin}/`, `${config.webOrigin}/login`],
            },
          }
        : { disableOAuth: true }),
    });
    for (const idp of idps) this.userPoolClient.node.addDependency(idp);

    this.factorKey = new Secret(this, 'FactorKey', {
      description:
        'Seals second-factor (TOTP) secrets in the table; read only by the functions that check codes',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      // Losing it would turn every enrolled authenticator app off: kept like the table.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.factorKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'It seals the TOTP secrets stored in the table: a rotation that only replaced it would leave every ' +
        'sealed secret unopenable. Sealed values carry a key version (fk1), so a new key is added beside the ' +
        'old one and secrets are re-sealed as they are used (docs/security.md, attack 11).',
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'ReceiptsBucketName', { value: this.receiptsBucket.bucketName });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
    new CfnOutput(this, 'ServerClientId', { value: this.serverClient.userPoolClientId });
  }

  /**
   * A first sign-in with Google or Facebook would otherwise create a second,
   * empty Cognito user; the trigger links the identity to the existing account
   * with the same e-mail, or refuses (lambdas/src/triggers/preSignUp.ts). It
   * only gets two items by key (the e-mail's owner, the user) and links
   * identities in this pool, nothing else.
   */
  private addPreSignUpTrigger(handlerEntry: (file: string) => string): AppFunction {
    const fn = new AppFunction(this, 'PreSignUp', {
      entry: handlerEntry(PRE_SIGN_UP_ENTRY),
      description: 'Cognito pre-sign-up: links a social identity to the existing account with that e-mail',
      environment: { TABLE_NAME: this.table.tableName },
    });
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [this.table.tableArn] }),
    );
    this.userPool.addTrigger(UserPoolOperation.PRE_SIGN_UP, fn.function);
    // This pool only. In the role's own (inline) rights the pool's ARN would close the circle
    // pool -> trigger -> role -> pool; a policy of its own depends on the pool and the role,
    // and nothing depends on it.
    new Policy(this, 'PreSignUpLinksInThisPool', {
      roles: [fn.role],
      statements: [
        new PolicyStatement({
          actions: ['cognito-idp:AdminLinkProviderForUser'],
          resources: [this.userPool.userPoolArn],
        }),
      ],
    });
    return fn;
  }
}
