/**
 * The single-page app: a private bucket served only through CloudFront (origin
 * access control), with the security headers from webSecurityHeaders.ts (the
 * local web server sends the same ones), an SPA fallback to index.html, and a
 * generated /config.json that tells the app where the API and user pool are.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { type AppConfig, applyFeatureFlags, hasWebBuild } from './config';
import { contentSecurityPolicy, HSTS_MAX_AGE_SECONDS, staticSecurityHeaders } from './webSecurityHeaders';

export interface WebStackProps extends StackProps {
  config: AppConfig;
  /** `https://<id>.execute-api.<region>.amazonaws.com`. */
  apiEndpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  receiptsBucket: IBucket;
  /** Cognito hosted domain, when social sign-in is on (the app exchanges codes there). */
  authDomainUrl?: string;
}

/** Where Stripe's card-details frame and script come from (Stripe Issuing Elements). */
const STRIPE_FRAME_ORIGIN = 'https://js.stripe.com';

export class WebStack extends Stack {
  readonly siteBucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** The shape the app reads (web/src/config.ts). */
  readonly runtimeConfig: Record<string, string>;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    applyFeatureFlags(this.node);
    const { config } = props;

    const logs = new Bucket(this, 'Logs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // CloudFront standard logging writes with an ACL grant, so ACLs stay enabled on this bucket only.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket receives the site bucket and CloudFront access logs; logging it into itself would loop.',
    });

    this.siteBucket = new Bucket(this, 'Site', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'site-bucket/',
      // Rebuilt by every deploy; retained only so a stack deletion never fails on a non-empty bucket.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const cognitoEndpoint = `https://cognito-idp.${this.region}.amazonaws.com`;
    const receiptsOrigin = `https://${props.receiptsBucket.bucketRegionalDomainName}`;
    const csp = contentSecurityPolicy({
      connect: [
        props.apiEndpoint,
        cognitoEndpoint,
        receiptsOrigin,
        ...(props.authDomainUrl ? [props.authDomainUrl] : []),
      ],
      img: [receiptsOrigin],
      frame: [STRIPE_FRAME_ORIGIN],
      upgradeInsecure: true,
    });
    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Security headers for the learning budget app (${config.stage})`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          {
            header: 'Permissions-Policy',
            value: staticSecurityHeaders['permissions-policy'],
            override: true,
          },
        ],
      },
    });

    const customDomain =
      config.domainName && config.certificateArn
        ? {
            domainNames: [config.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {};
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Learning budget web app (${config.stage})`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.siteBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        compress: true,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
      },
      // Client-side routes (/dashboard/...) are not objects: serve the app and let it route.
      // With OAC and no ListBucket right, a missing key answers 403, so both map to the app.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(10),
      })),
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      ...customDomain,
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'The product serves any country; no geographic restriction is wanted.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves only static files; the API (the part worth attacking) is throttled at the ' +
          'API stage and rate-limited per client. A WAF web ACL can be attached later without code changes.',
      },
    );
    if (!config.domainName) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain CloudFront serves its default *.cloudfront.net certificate, whose TLS policy ' +
          'cannot be chosen. Set domainName and certificateArn to get TLSv1.2_2021.',
      });
    }

    this.runtimeConfig = {
      // web/src/config.ts accepts "local" or "aws"; the deployment stage name is carried separately.
      stage: 'aws',
      deployment: config.stage,
      apiUrl: props.apiEndpoint,
      region: this.region,
      userPoolId: props.userPoolId,
      userPoolClientId: props.userPoolClientId,
      ...(props.authDomainUrl ? { authDomainUrl: props.authDomainUrl } : {}),
    };
    this.deploySite(config);

    new CfnOutput(this, 'WebUrl', { value: `https://${this.distribution.distributionDomainName}` });
    new CfnOutput(this, 'SiteBucketName', { value: this.siteBucket.bucketName });
  }

  /**
   * Hashed files under /assets are immutable and cached for a year; everything
   * else (index.html, config.json, icons) is revalidated on every load so a
   * deploy shows at once. Assets are never pruned: a tab still running the old
   * index.html can keep loading its chunks.
   */
  private deploySite(config: AppConfig): void {
    // Its own role and log group instead of CDK's default (AWS managed policy, unbounded logs).
    const logGroup = new LogGroup(this, 'DeployLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new Role(this, 'DeployRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Uploads the web app and config.json to the site bucket',
    });
    logGroup.grantWrite(role);
    const common = {
      destinationBucket: this.siteBucket,
      role,
      logGroup,
      memoryLimit: 512,
    };

    const built = hasWebBuild(config);
    if (!built) {
      console.warn(
        `[web] ${config.webDistDir} has no index.html: deploying config.json only. Run \`npm run build:web\` first to ship the app.`,
      );
    }
    const shellSources: ISource[] = [Source.jsonData('config.json', this.runtimeConfig)];
    // A config.json left in dist by a local build must not reach AWS; the generated one replaces it.
    if (built) shellSources.unshift(Source.asset(config.webDistDir, { exclude: ['assets', 'config.json'] }));

    let assets: BucketDeployment | undefined;
    if (built && existsSync(path.join(config.webDistDir, 'assets'))) {
      assets = new BucketDeployment(this, 'DeployAssets', {
        ...common,
        sources: [Source.asset(path.join(config.webDistDir, 'assets'))],
        destinationKeyPrefix: 'assets/',
        prune: false,
        cacheControl: [
          CacheControl.setPublic(),
          CacheControl.maxAge(Duration.days(365)),
          CacheControl.immutable(),
        ],
      });
    }
    const shell = new BucketDeployment(this, 'DeployShell', {
      ...common,
      sources: shellSources,
      // Never prune hashed assets (see above); without a build, prune nothing so a bare deploy cannot empty the site.
      exclude: ['assets/*'],
      prune: built,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/', '/index.html', '/config.json'],
    });
    // index.html must not point at chunks that are not uploaded yet.
    if (assets) shell.node.addDependency(assets);

    // The deployments share one handler that CDK places at stack level (a singleton), not under them.
    for (const child of this.node.children) {
      if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
      Validations.of(child).acknowledge({
        id: 'AwsSolutions-L1',
        reason:
          "CDK's BucketDeployment handler (Python with the AWS CLI layer) runs only at deploy time; its " +
          'runtime is chosen and moved forward by aws-cdk-lib upgrades, not by this app.',
      });
    }
  }
}
