import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BuiltApp } from '../../infra/lib/app';
import { HSTS_MAX_AGE_SECONDS } from '../../infra/lib/webSecurityHeaders';
import { parseConfig } from '../../web/src/config';
import { buildTestApp, FIXTURES, flat, TEST_REGION, type Templates, templatesOf } from './helpers';

let built: BuiltApp;
let t: Templates;

beforeAll(() => {
  built = buildTestApp();
  t = templatesOf(built);
});

afterEach(() => {
  vi.restoreAllMocks();
});

type Resource = { Type: string; Properties: Record<string, any> };
const only = (type: string): Resource => {
  const all = Object.values(t.web.findResources(type)) as Resource[];
  expect(all, type).toHaveLength(1);
  return all[0] as Resource;
};

describe('CloudFront in front of a private bucket', () => {
  it('reads the bucket through origin access control, not a public website', () => {
    t.web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
      }),
    });
    const distribution = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(distribution.Origins).toHaveLength(1);
    expect(distribution.Origins[0].OriginAccessControlId).toBeDefined();
    expect(flat(distribution.Origins[0].DomainName)).toMatch(/^<Site.*\.RegionalDomainName>$/);
    const sitePolicy = Object.values(t.web.findResources('AWS::S3::BucketPolicy')).find((p) =>
      flat(p.Properties.Bucket).startsWith('<Site'),
    );
    expect(sitePolicy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
      }),
    );
  });

  it('serves index.html at / and for client-side routes, compressed, HTTPS only', () => {
    const config = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toEqual(
      [403, 404].map((code) =>
        expect.objectContaining({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: '/index.html' }),
      ),
    );
    expect(config.DefaultCacheBehavior).toMatchObject({
      Compress: true,
      ViewerProtocolPolicy: 'redirect-to-https',
    });
    expect(config.Logging).toMatchObject({ Prefix: 'cloudfront/' });
  });
});

describe('security headers', () => {
  const headers = () => only('AWS::CloudFront::ResponseHeadersPolicy').Properties.ResponseHeadersPolicyConfig;
  const csp = () => flat(headers().SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
  const directive = (name: string) =>
    csp()
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));

  it('is attached to the default behavior', () => {
    const behavior = only('AWS::CloudFront::Distribution').Properties.DistributionConfig.DefaultCacheBehavior;
    expect(flat(behavior.ResponseHeadersPolicyId)).toMatch(/^<SecurityHeaders/);
  });

  it('sends HSTS for two years with subdomains and preload', () => {
    expect(HSTS_MAX_AGE_SECONDS).toBe(2 * 365 * 24 * 3600);
    expect(headers().SecurityHeadersConfig.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS,
      IncludeSubdomains: true,
      Preload: true,
      Override: true,
    });
  });

  it('forbids framing and sniffing, and limits the referrer', () => {
    const config = headers().SecurityHeadersConfig;
    expect(config.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(config.ContentTypeOptions).toEqual({ Override: true });
    expect(config.ReferrerPolicy).toEqual({
      ReferrerPolicy: 'strict-origin-when-cross-origin',
      Override: true,
    });
  });

  it('has a CSP that allows only the app, its API, Cognito, the receipts bucket and Stripe frames', () => {
    expect(directive('default-src')).toBe("default-src 'self'");
    expect(directive('script-src')).toBe("script-src 'self'");
    const connect = directive('connect-src') ?? '';
    expect(connect).toContain("'self'");
    expect(connect).toMatch(/HttpApi.*ApiEndpoint/);
    expect(connect).toContain(`https://cognito-idp.${TEST_REGION}.amazonaws.com`);
    expect(connect).toMatch(/https:\/\/\S*Receipts\S*RegionalDomainName/);
    expect(directive('img-src')).toMatch(
      /^img-src 'self' data: blob: https:\/\/\S*Receipts\S*RegionalDomainName/,
    );
    expect(directive('frame-src')).toBe('frame-src https://js.stripe.com');
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(csp()).not.toContain("'unsafe-eval'");
    expect(directive('script-src')).not.toContain('unsafe-inline');
  });
});

describe('deploying the app', () => {
  const deployments = () => Object.values(t.web.findResources('Custom::CDKBucketDeployment')) as Resource[];

  it('caches hashed assets for a year and never prunes them', () => {
    const assets = deployments().find((d) => d.Properties.DestinationBucketKeyPrefix === 'assets/');
    expect(assets?.Properties).toMatchObject({
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
  });

  it('revalidates index.html and config.json on every load and invalidates them', () => {
    const shell = deployments().find((d) => d.Properties.DestinationBucketKeyPrefix === undefined);
    expect(shell?.Properties).toMatchObject({
      Prune: true,
      Exclude: ['assets/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionPaths: ['/', '/index.html', '/config.json'],
    });
    // config.json is generated with deploy-time values: the API, the pool and the client.
    const markers = JSON.stringify(shell?.Properties.SourceMarkers);
    expect(markers).toMatch(/ApiEndpoint/);
    expect(markers).toMatch(/Users/);
    expect(markers).toMatch(/UsersWebClient/);
  });

  it('writes a config.json the web app accepts', () => {
    const config = parseConfig(JSON.parse(JSON.stringify(built.web.runtimeConfig)));
    expect(config.stage).toBe('aws');
    expect(config.region).toBe(TEST_REGION);
  });

  it('does not ship a config.json or the hashed assets inside the shell upload', () => {
    const assembly = built.app.synth();
    const shellAssetDirs = readdirSync(assembly.directory).filter((d) => d.startsWith('asset.'));
    const withIndex = shellAssetDirs.filter((d) => {
      try {
        return readdirSync(path.join(assembly.directory, d)).includes('index.html');
      } catch {
        return false;
      }
    });
    expect(withIndex).toHaveLength(1);
    const files = readdirSync(path.join(assembly.directory, withIndex[0] as string));
    expect(files).not.toContain('config.json');
    expect(files).not.toContain('assets');
    // ...although the fixture, like a local build, has one.
    expect(readFileSync(path.join(FIXTURES, 'web-dist/config.json'), 'utf8')).toContain('"local"');
  });

  it('without a built web app, deploys config.json alone, prunes nothing and says so', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const bare = templatesOf(buildTestApp({ webDistDir: path.join(FIXTURES, 'no-such-dist') })).web;
    const found = Object.values(bare.findResources('Custom::CDKBucketDeployment')) as Resource[];
    expect(found).toHaveLength(1);
    expect(found[0]?.Properties.Prune).toBe(false);
    expect(found[0]?.Properties.SourceObjectKeys).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('npm run build:web'));
  });
});
