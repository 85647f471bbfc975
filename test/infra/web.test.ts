import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BuiltApp } from '../../infra/lib/app';
import { MAX_FUNCTION_BYTES, readSiteManifest, routingFunctionSource } from '../../infra/lib/webRouting';
import { HSTS_MAX_AGE_SECONDS } from '../../infra/lib/webSecurityHeaders';
import { parseConfig, socialSignInProviders } from '../../web/src/config';
import {
  buildTestApp,
  FIXTURES,
  flat,
  SOCIAL_CONFIG,
  TEST_CONFIG,
  TEST_REGION,
  type Templates,
  templatesOf,
} from './helpers';

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
const only = (type: string, template = t.web): Resource => {
  const all = Object.values(template.findResources(type)) as Resource[];
  expect(all, type).toHaveLength(1);
  return all[0] as Resource;
};

/** The site's routing function (the /api/* behaviour has its own). */
const routingFunction = (template = t.web): Resource => {
  const all = Object.entries(template.findResources('AWS::CloudFront::Function'))
    .filter(([id]) => id.startsWith('Routing'))
    .map(([, r]) => r as Resource);
  expect(all).toHaveLength(1);
  return all[0] as Resource;
};

// The CloudFront Functions event, as much of it as the routing function reads.
interface ViewerRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string; multiValue?: { value: string }[] }>;
  headers: Record<string, { value: string }>;
  rawQueryString?: () => string;
}
interface GeneratedResponse {
  statusCode: number;
  statusDescription: string;
  headers: Record<string, { value: string }>;
}
type Route = (request: Partial<ViewerRequest> & { uri: string }) => ViewerRequest | GeneratedResponse;

/** Runs the function's code in an empty context (no Node globals), as CloudFront would, and returns its handler. */
function routerFrom(source: string): Route {
  const context = vm.createContext({});
  new vm.Script(source, { filename: 'routing.js' }).runInContext(context);
  const handler = context.handler as (event: unknown) => ViewerRequest | GeneratedResponse;
  expect(typeof handler, 'a top-level function handler(event)').toBe('function');
  return (request) =>
    handler({
      version: '1.0',
      context: { eventType: 'viewer-request' },
      viewer: { ip: '192.0.2.1' },
      request: { method: 'GET', querystring: {}, headers: {}, ...request },
    });
}
/** The key the request goes on to S3 with; fails on a generated response. */
const keyFor = (route: Route, uri: string): string => {
  const out = route({ uri });
  if ('statusCode' in out) throw new Error(`${uri} answered ${out.statusCode}, not a request`);
  return out.uri;
};
/** The 301's Location; fails when the request goes on. */
const redirectOf = (route: Route, request: Partial<ViewerRequest> & { uri: string }): string => {
  const out = route(request);
  if (!('statusCode' in out)) throw new Error(`${request.uri} went on as ${out.uri}, not a redirect`);
  expect(out.statusCode).toBe(301);
  expect(out.statusDescription).toBe('Moved Permanently');
  return out.headers.location?.value ?? '';
};

describe('the routing function (viewer request)', () => {
  const route = routerFrom(routingFunctionSource(['/', '/pricing', '/howitworks', '/howitworks/setup']));

  it('passes the landing page through to the default root object', () => {
    expect(keyFor(route, '/')).toBe('/');
    expect(keyFor(route, '/index.html')).toBe('/index.html');
  });

  it('serves a pre-rendered page from its index.html', () => {
    expect(keyFor(route, '/pricing')).toBe('/pricing/index.html');
    expect(keyFor(route, '/howitworks')).toBe('/howitworks/index.html');
    expect(keyFor(route, '/howitworks/setup')).toBe('/howitworks/setup/index.html');
  });

  it('redirects the other spellings of a page to its one address, keeping the query', () => {
    expect(redirectOf(route, { uri: '/pricing/' })).toBe('/pricing');
    expect(redirectOf(route, { uri: '/pricing//' })).toBe('/pricing');
    expect(redirectOf(route, { uri: '/pricing/index.html' })).toBe('/pricing');
    expect(redirectOf(route, { uri: '/howitworks/setup/' })).toBe('/howitworks/setup');
    expect(redirectOf(route, { uri: '/howitworks/setup/index.html' })).toBe('/howitworks/setup');
    // The raw query string when the runtime offers it (exact bytes, order kept)...
    expect(
      redirectOf(route, { uri: '/pricing/', rawQueryString: () => 'utm_source=mail&q=a%20b&flag' }),
    ).toBe('/pricing?utm_source=mail&q=a%20b&flag');
    // ...else rebuilt from the parsed one, repeated names included.
    expect(
      redirectOf(route, {
        uri: '/pricing/index.html',
        querystring: {
          utm_source: { value: 'mail' },
          tag: { value: 'a', multiValue: [{ value: 'a' }, { value: 'b' }] },
          flag: { value: '' },
        },
      }),
    ).toBe('/pricing?utm_source=mail&tag=a&tag=b&flag');
    expect(redirectOf(route, { uri: '/pricing/', rawQueryString: () => '' })).toBe('/pricing');
  });

  it('passes a request for a file through unchanged', () => {
    for (const uri of [
      '/assets/index-abc123.js',
      '/assets/public-abc123.css',
      '/robots.txt',
      '/sitemap.xml',
      '/favicon.svg',
      '/og-image.jpg',
      '/config.json',
      '/app.html',
      '/no-such-file.pdf',
    ]) {
      expect(keyFor(route, uri), uri).toBe(uri);
    }
  });

  it('sends every other address to the app shell', () => {
    for (const uri of [
      '/login',
      '/subscribe',
      '/dashboard',
      '/dashboard/employees',
      '/dashboard/freezeEmployee/ic_123/user-1',
      '/editProfile/',
      '/auth/callback',
      '/howitworks/nope',
      '/pricingx',
      '/faqs',
      '/Pricing',
      '/no/such/page/',
    ]) {
      expect(keyFor(route, uri), uri).toBe('/app.html');
    }
  });

  it('keeps the rest of the request as it came', () => {
    const request = {
      uri: '/pricing',
      querystring: { a: { value: '1' } },
      headers: { accept: { value: 'text/html' } },
    };
    expect(route(request)).toEqual({ method: 'GET', ...request, uri: '/pricing/index.html' });
  });

  it('with no page list, serves only the landing page, files and the app shell', () => {
    const bare = routerFrom(routingFunctionSource([]));
    expect(keyFor(bare, '/')).toBe('/');
    expect(keyFor(bare, '/robots.txt')).toBe('/robots.txt');
    expect(keyFor(bare, '/pricing')).toBe('/app.html');
    expect(keyFor(bare, '/pricing/')).toBe('/app.html');
  });

  it('refuses paths that are not page addresses, and a list beyond CloudFront size limit', () => {
    for (const page of ['pricing', '/pricing/', '/a//b', '/a b', '/a?b', '/pricing/index.html', '']) {
      expect(() => routingFunctionSource([page]), JSON.stringify(page)).toThrow(/not a path/);
    }
    const many = Array.from({ length: 1000 }, (_, i) => `/help/article-number-${i}`);
    expect(() => routingFunctionSource(many)).toThrow(/KeyValueStore/);
    const real = JSON.parse(readFileSync(path.join(FIXTURES, 'web-dist/prerendered.json'), 'utf8'));
    expect(Buffer.byteLength(routingFunctionSource(real.pages))).toBeLessThan(MAX_FUNCTION_BYTES);
  });
});

describe('CloudFront in front of a private bucket', () => {
  it('reads the bucket through origin access control, not a public website', () => {
    t.web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
      }),
    });
    const distribution = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    const s3Origins = distribution.Origins.filter((o: { S3OriginConfig?: unknown }) => o.S3OriginConfig);
    expect(s3Origins).toHaveLength(1);
    expect(s3Origins[0].OriginAccessControlId).toBeDefined();
    expect(flat(s3Origins[0].DomainName)).toMatch(/^<Site.*\.RegionalDomainName>$/);
    const sitePolicy = Object.values(t.web.findResources('AWS::S3::BucketPolicy')).find((p) =>
      flat(p.Properties.Bucket).startsWith('<Site'),
    );
    expect(sitePolicy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: expect.arrayContaining(['s3:GetObject']),
      }),
    );
  });

  it('serves the landing page at /, compressed, HTTPS only', () => {
    const config = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior).toMatchObject({
      Compress: true,
      ViewerProtocolPolicy: 'redirect-to-https',
    });
    expect(config.Logging).toMatchObject({ Prefix: 'cloudfront/' });
  });

  it('routes every viewer request of the default behavior through the routing function', () => {
    const fn = routingFunction();
    expect(fn.Properties).toMatchObject({
      AutoPublish: true,
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
    });
    const behavior = only('AWS::CloudFront::Distribution').Properties.DistributionConfig.DefaultCacheBehavior;
    expect(behavior.FunctionAssociations).toHaveLength(1);
    expect(behavior.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(flat(behavior.FunctionAssociations[0].FunctionARN)).toMatch(/^<Routing[A-Z0-9]*\.FunctionARN>$/);
  });

  it("generates the function from the build's prerendered.json", () => {
    const route = routerFrom(routingFunction().Properties.FunctionCode);
    // The fixture build pre-renders /, /pricing and /howitworks/setup.
    expect(readSiteManifest(TEST_CONFIG.webDistDir)?.pages).toEqual(['/', '/pricing', '/howitworks/setup']);
    expect(keyFor(route, '/pricing')).toBe('/pricing/index.html');
    expect(keyFor(route, '/howitworks/setup')).toBe('/howitworks/setup/index.html');
    expect(redirectOf(route, { uri: '/howitworks/setup/' })).toBe('/howitworks/setup');
    expect(keyFor(route, '/howitworks')).toBe('/app.html');
    expect(keyFor(route, '/dashboard')).toBe('/app.html');
  });

  it("answers a missing file with S3's honest 404, and leaves the API's errors alone", () => {
    // Custom error responses would apply to /api/* too, turning the API's 403 and 404 into the app shell.
    const config = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.CustomErrorResponses).toBeUndefined();
    const sitePolicy = Object.values(t.web.findResources('AWS::S3::BucketPolicy')).find((p) =>
      flat(p.Properties.Bucket).startsWith('<Site'),
    );
    expect(sitePolicy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: ['s3:GetObject', 's3:ListBucket'],
      }),
    );
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

  it('has a CSP that allows only the app, its API, the receipts bucket and Stripe.js', () => {
    expect(directive('default-src')).toBe("default-src 'self'");
    // Stripe.js for Issuing Elements (the card dialog), and no other script origin.
    expect(directive('script-src')).toBe("script-src 'self' https://js.stripe.com");
    const connect = directive('connect-src') ?? '';
    expect(connect).toContain("'self'");
    expect(connect).not.toMatch(/ApiEndpoint|execute-api/); // the API is at this origin: 'self'
    // Sign-in goes through our API: no script talks to Cognito itself.
    expect(connect).not.toContain('cognito');
    expect(connect).toMatch(/https:\/\/\S*Receipts\S*RegionalDomainName/);
    // The card forms post card details to Stripe's tokenizer, never to our API.
    expect(connect).toContain('https://api.stripe.com');
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

  it('revalidates every page, app.html and config.json on every load and invalidates them all', () => {
    const shell = deployments().find((d) => d.Properties.DestinationBucketKeyPrefix === undefined);
    expect(shell?.Properties).toMatchObject({
      Prune: true,
      Exclude: ['assets/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionPaths: ['/*'],
    });
    // config.json is generated with deploy-time values: the API, the pool and the client.
    const markers = JSON.stringify(shell?.Properties.SourceMarkers);
    expect(markers).toMatch(/Users/);
    expect(markers).toMatch(/UsersWebClient/);
  });

  it('writes a config.json the web app accepts', () => {
    const config = parseConfig(JSON.parse(JSON.stringify(built.web.runtimeConfig)));
    expect(config.stage).toBe('aws');
    expect(config.apiUrl).toBe('/api'); // same origin, through the web ACL
    expect(config.region).toBe(TEST_REGION);
    expect(config.stripe).toEqual({ publishableKey: 'pk_test_infra', apiUrl: 'https://api.stripe.com' });
  });

  it('uploads the pages, app.html, sitemap and robots.txt with the shell (no-cache), not config.json, the manifest or the assets', () => {
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
    const dir = path.join(assembly.directory, withIndex[0] as string);
    const files = readdirSync(dir, { recursive: true }).map(String).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'index.html',
        'app.html',
        path.join('pricing', 'index.html'),
        path.join('howitworks', 'setup', 'index.html'),
        'sitemap.xml',
        'robots.txt',
      ]),
    );
    expect(files).not.toContain('config.json');
    expect(files).not.toContain('prerendered.json');
    expect(files.filter((f) => f.startsWith('assets'))).toEqual([]);
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
    // The routing function is still there, with no pages: everything but / and files goes to the app.
    const route = routerFrom(routingFunction(bare).Properties.FunctionCode);
    expect(keyFor(route, '/pricing')).toBe('/app.html');
  });
});

describe('social sign-in in config.json', () => {
  const SOCIAL_FIELDS = ['socialProviders', 'oauthDomain', 'oauthRedirect'];
  const connectSrc = (app: BuiltApp) => {
    const policy = only('AWS::CloudFront::ResponseHeadersPolicy', templatesOf(app).web).Properties
      .ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
    return (
      flat(policy)
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('connect-src ')) ?? ''
    );
  };
  /** The config.json file the deployment uploads, as synthesized into the cloud assembly. */
  const deployedConfigJson = (app: BuiltApp): Record<string, unknown> => {
    const assembly = app.app.synth();
    const found = readdirSync(assembly.directory)
      .filter((d) => d.startsWith('asset.'))
      .map((d) => path.join(assembly.directory, d, 'config.json'))
      .filter((file) => existsSync(file));
    expect(found).toHaveLength(1);
    return JSON.parse(readFileSync(found[0] as string, 'utf8'));
  };

  it('has no social fields without social sign-in, and the CSP no hosted domain', () => {
    const deployed = deployedConfigJson(built);
    for (const key of [...SOCIAL_FIELDS, 'authDomainUrl']) {
      expect(built.web.runtimeConfig, key).not.toHaveProperty(key);
      expect(deployed, key).not.toHaveProperty(key);
    }
    expect(socialSignInProviders(parseConfig(JSON.parse(JSON.stringify(built.web.runtimeConfig))))).toEqual(
      [],
    );
    expect(connectSrc(built)).not.toContain('amazoncognito.com');
  });

  it('names the configured providers, the hosted domain (host only) and the return address', () => {
    const social = buildTestApp(SOCIAL_CONFIG);
    const oauthDomain = `${SOCIAL_CONFIG.authDomainPrefix}.auth.${TEST_REGION}.amazoncognito.com`;
    const expected = {
      socialProviders: ['Google'],
      oauthDomain,
      oauthRedirect: `${TEST_CONFIG.webOrigin}/auth/callback`,
    };
    expect(social.web.runtimeConfig).toMatchObject(expected);
    expect(deployedConfigJson(social)).toMatchObject(expected);
    expect(oauthDomain).not.toMatch(/^https?:|\//);
    // The web app accepts it and offers exactly these providers.
    const parsed = parseConfig(JSON.parse(JSON.stringify(social.web.runtimeConfig)));
    expect(parsed).toMatchObject(expected);
    expect(socialSignInProviders(parsed)).toEqual(['Google']);
    // The redirect is the app client's callback URL, the domain is the pool's, and the app may call it.
    const stateful = Template.fromStack(social.stateful);
    stateful.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      CallbackURLs: [expected.oauthRedirect],
    });
    stateful.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: SOCIAL_CONFIG.authDomainPrefix,
    });
    // The browser only navigates to the hosted UI; our API redeems the code (POST /auth/social),
    // so no script may call the hosted domain, and the API's functions know where to redeem it.
    expect(connectSrc(social)).not.toContain(oauthDomain);
    stateful.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      LogoutURLs: [`${TEST_CONFIG.webOrigin}/`, `${TEST_CONFIG.webOrigin}/login`],
    });
    const api = templatesOf(social).api;
    const socialFn = Object.values(api.findResources('AWS::Lambda::Function')).find((r) =>
      String(r.Properties.Description ?? '').startsWith('POST /auth/social'),
    );
    expect(socialFn?.Properties.Environment.Variables).toMatchObject({
      COGNITO_OAUTH_URL: `https://${oauthDomain}`,
      OAUTH_REDIRECT_URL: expected.oauthRedirect,
    });
  });

  it('lists exactly the providers configured, on the callback path configured', () => {
    const both = buildTestApp({
      ...SOCIAL_CONFIG,
      facebookSecretName: 'test/facebook-oauth',
      oauthCallbackPath: '/signin/done',
    });
    expect(both.web.runtimeConfig.socialProviders).toEqual(['Google', 'Facebook']);
    expect(both.web.runtimeConfig.oauthRedirect).toBe(`${TEST_CONFIG.webOrigin}/signin/done`);
    const facebook = buildTestApp({ facebookSecretName: 'test/facebook-oauth', authDomainPrefix: 'fb-only' });
    expect(facebook.web.runtimeConfig.socialProviders).toEqual(['Facebook']);
    expect(facebook.web.runtimeConfig.oauthDomain).toBe(`fb-only.auth.${TEST_REGION}.amazoncognito.com`);
  });
});

describe('a build that does not match the deployment', () => {
  let dir: string;
  const distWith = (files: Record<string, string>): string => {
    dir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
    return dir;
  };
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says nothing about the fixture build, made for this webOrigin', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    buildTestApp();
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns when the pages were built for another origin', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const webDistDir = distWith({
      'index.html': '<!doctype html>',
      'app.html': '<!doctype html>',
      'prerendered.json': JSON.stringify({ origin: 'https://example.com', pages: ['/', '/pricing'] }),
    });
    const route = routerFrom(
      routingFunction(templatesOf(buildTestApp({ webDistDir })).web).Properties.FunctionCode,
    );
    expect(keyFor(route, '/pricing')).toBe('/pricing/index.html');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`SITE_ORIGIN=${TEST_CONFIG.webOrigin}`));
  });

  it('warns about a build from before pre-rendering (no manifest, no app.html) and routes no pages', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const webDistDir = distWith({ 'index.html': '<!doctype html>' });
    const route = routerFrom(
      routingFunction(templatesOf(buildTestApp({ webDistDir })).web).Properties.FunctionCode,
    );
    expect(keyFor(route, '/pricing')).toBe('/app.html');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('prerendered.json'));
  });

  it('fails the synth on a manifest that is not a page list', () => {
    const webDistDir = distWith({ 'index.html': '<!doctype html>', 'prerendered.json': '{"pages": "/"}' });
    expect(() => buildTestApp({ webDistDir })).toThrow(/no "pages" list/);
  });
});
