/**
 * The web site: a private bucket served only through CloudFront (origin
 * access control), with the security headers from webSecurityHeaders.ts (the
 * local web server sends the same ones), a routing function that serves the
 * pre-rendered public pages and sends every app address to the SPA shell
 * (app.html; see webRouting.ts), and a generated /config.json that tells the
 * app where the API and user pool are.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type OperationId, operationIds, routes } from '@shared/api/routes';
import {
  Annotations,
  CfnOutput,
  Duration,
  Fn,
  RemovalPolicy,
  SecretValue,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AccessLevel,
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
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
import { ORIGIN_VERIFY_HEADER } from '../../lambdas/src/platform/edge';
import type { AppConfig as WebAppConfig } from '../../web/src/config';
import { edgeOriginSecretName } from './apiStack';
import { type AppConfig, applyFeatureFlags, hasWebBuild, oauthRedirectUrl } from './config';
import { EdgeWebAcl } from './constructs/webAcl';
import type { SocialSignIn } from './statefulStack';
import {
  API_PATH_PREFIX,
  apiFunctionSource,
  readSiteManifest,
  routingFunctionSource,
  SITE_MANIFEST_FILE,
  SPA_SHELL_PATH,
} from './webRouting';
import { contentSecurityPolicy, HSTS_MAX_AGE_SECONDS, staticSecurityHeaders } from './webSecurityHeaders';

export interface WebStackProps extends StackProps {
  config: AppConfig;
  /** `https://<id>.execute-api.<region>.amazonaws.com`. */
  apiEndpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  receiptsBucket: IBucket;
  /** Providers and hosted domain, when social sign-in is on (the app exchanges codes there). */
  social?: SocialSignIn;
}

/** /config.json: what web/src/config.ts reads, plus the deployment's stage name. */
export type RuntimeConfig = WebAppConfig & { deployment: string };

export { API_PATH_PREFIX };

/**
 * Public routes left out of the edge's public-form rate rule: every signed-in page
 * load refreshes its session, and signing out must always work.
 */
const EDGE_UNCOUNTED: readonly OperationId[] = ['refreshSession', 'signOut'];

/** Where Stripe.js and its card-details frames come from (Stripe Issuing Elements). */
const STRIPE_JS_ORIGIN = 'https://js.stripe.com';
/** Stripe's API: the card forms post card details to its tokenizer (POST /v1/tokens) from the browser. */
export const STRIPE_API_ORIGIN = 'https://api.stripe.com';

export class WebStack extends Stack {
  readonly siteBucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** Our own CLOUDFRONT web ACL; absent when the deployer names one (cloudFrontWebAclArn). */
  webAcl?: EdgeWebAcl;
  /** The shape the app reads (web/src/config.ts). */
  readonly runtimeConfig: RuntimeConfig;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    applyFeatureFlags(this.node);
    const { config, social } = props;

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

    const receiptsOrigin = `https://${props.receiptsBucket.bucketRegionalDomainName}`;
    const csp = contentSecurityPolicy({
      // The API is at this origin (/api/*), covered by 'self'. The browser calls no Cognito endpoint:
      // sign-in goes through our API, and social sign-in only navigates to the hosted UI.
      connect: [receiptsOrigin, STRIPE_API_ORIGIN],
      img: [receiptsOrigin],
      frame: [STRIPE_JS_ORIGIN],
      // The card dialog loads Stripe.js (web/src/features/card/issuingElements.ts); nothing else.
      script: [STRIPE_JS_ORIGIN],
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

    const routing = new CloudFrontFunction(this, 'Routing', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(routingFunctionSource(this.prerenderedPages(config))),
      comment: `Serves pre-rendered pages and sends app addresses to ${SPA_SHELL_PATH} (${config.stage})`,
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
        // LIST: a missing file is then S3's honest 404, not 403 (no custom error responses, below).
        origin: S3BucketOrigin.withOriginAccessControl(this.siteBucket, {
          originAccessLevels: [AccessLevel.READ, AccessLevel.LIST],
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        compress: true,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [{ function: routing, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: { [`${API_PATH_PREFIX}/*`]: this.apiBehavior(props) },
      webAclId: this.webAclArn(config),
      // No custom error responses: CloudFront applies them to every behaviour, so they would turn
      // the API's own 403 and 404 answers (under /api/*) into the app shell. The routing function
      // already sends client-side routes to app.html and pages to their index.html, so only a
      // request for a file (/favicon.ico, an old /assets/x.js) can miss, and S3 answers that with
      // an honest 404 (the origin may list the bucket, below), as the local web server does.
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      ...customDomain,
    });
    // Listing needs a query string (?list-type=2), and the site's cache policy forwards none to S3.
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'ListBucket only turns a missing file into 404 instead of 403; no query string reaches S3, so no listing.',
    );
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The product serves any country; no geographic restriction is wanted.',
    });
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
      // Same origin: the browser needs no CORS, and every call passes the web ACL.
      apiUrl: API_PATH_PREFIX,
      region: this.region,
      userPoolId: props.userPoolId,
      userPoolClientId: props.userPoolClientId,
      ...(config.stripePublishableKey
        ? { stripe: { publishableKey: config.stripePublishableKey, apiUrl: STRIPE_API_ORIGIN } }
        : {}),
      ...(social
        ? {
            socialProviders: [...social.providers],
            oauthDomain: social.authDomainHost,
            oauthRedirect: oauthRedirectUrl(config),
          }
        : {}),
    };
    this.deploySite(config);

    new CfnOutput(this, 'WebUrl', { value: `https://${this.distribution.distributionDomainName}` });
    new CfnOutput(this, 'SiteBucketName', { value: this.siteBucket.bucketName });
  }

  /**
   * /api/* goes to the HTTP API, uncached, with every viewer header but Host, and
   * two headers the API trusts only from here: the viewer's address (set by the
   * function, lambdas/src/platform/edge.ts) and the proof of passing the WAF.
   */
  private apiBehavior(props: WebStackProps): BehaviorOptions {
    const { config } = props;
    const apiDomain = Fn.select(2, Fn.split('/', props.apiEndpoint));
    const edgeProof = SecretValue.secretsManager(edgeOriginSecretName(config)).unsafeUnwrap();
    const apiPath = new CloudFrontFunction(this, 'ApiPath', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(apiFunctionSource(API_PATH_PREFIX)),
      comment: `Strips ${API_PATH_PREFIX} and passes the viewer's address to the API (${config.stage})`,
    });
    return {
      origin: new HttpOrigin(apiDomain, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
        customHeaders: { [ORIGIN_VERIFY_HEADER]: edgeProof },
        // Stripe's authorization webhook must be answered within 2 s; fail over to its retry fast.
        readTimeout: Duration.seconds(10),
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      // The handlers gzip large answers themselves (platform/http.ts).
      compress: false,
      functionAssociations: [{ function: apiPath, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
  }

  /** The web ACL for the distribution: our own in us-east-1, else the one the deployer names. */
  private webAclArn(config: AppConfig): string {
    if (config.cloudFrontWebAclArn) return config.cloudFrontWebAclArn;
    this.webAcl = new EdgeWebAcl(this, 'WebAcl', {
      stage: config.stage,
      apiPrefix: API_PATH_PREFIX,
      exemptPaths: operationIds
        .filter((op) => routes[op].access.kind === 'stripeSignature')
        .map((op) => routes[op].path),
      publicFormPaths: operationIds
        .filter((op) => routes[op].access.kind === 'public' && !EDGE_UNCOUNTED.includes(op))
        .map((op) => routes[op].path),
    });
    return this.webAcl.acl.attrArn;
  }

  /**
   * The pre-rendered public pages, from the build's prerendered.json. Without a
   * build there are none (deploySite says so). A build without the manifest or
   * app.html predates pre-rendering: the function would send its app addresses
   * to an app.html it does not have, so the synth says to rebuild.
   */
  private prerenderedPages(config: AppConfig): string[] {
    if (!hasWebBuild(config)) return [];
    const manifest = readSiteManifest(config.webDistDir);
    if (!manifest || !existsSync(path.join(config.webDistDir, SPA_SHELL_PATH))) {
      console.warn(
        `[web] ${config.webDistDir} has no ${SITE_MANIFEST_FILE} or ${SPA_SHELL_PATH.slice(1)}: it was built ` +
          'before the public pages were pre-rendered. Run `npm run build:web` again.',
      );
      return manifest?.pages ?? [];
    }
    if (manifest.origin !== undefined && manifest.origin !== config.webOrigin) {
      console.warn(
        `[web] the pages in ${config.webDistDir} were built for ${manifest.origin}, but webOrigin is ` +
          `${config.webOrigin}: their canonical links and sitemap point elsewhere. Rebuild with ` +
          `SITE_ORIGIN=${config.webOrigin} npm run build:web.`,
      );
    }
    return manifest.pages;
  }

  /**
   * Hashed files under /assets are immutable and cached for a year; everything
   * else (every HTML file: the landing index.html, app.html and each page's
   * <path>/index.html; config.json, sitemap.xml, robots.txt, icons) is
   * revalidated on every load so a deploy shows at once. Assets are never
   * pruned: a tab still running the old app.html can keep loading its chunks.
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
    // prerendered.json is read at synth time (the routing function's page list), not by browsers.
    if (built) {
      shellSources.unshift(
        Source.asset(config.webDistDir, { exclude: ['assets', 'config.json', SITE_MANIFEST_FILE] }),
      );
    }

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
      // Everything the shell uploads can change on a deploy: the pages (cached under the keys the
      // routing function rewrites to, /pricing/index.html), app.html, config.json, the sitemap...
      // One wildcard counts as one invalidation path; the immutable assets it also covers are
      // fetched again from S3 once per edge.
      distributionPaths: ['/*'],
    });
    // The HTML must not point at chunks that are not uploaded yet.
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
