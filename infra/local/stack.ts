/**
 * The whole product on local stand-ins: DynamoDB Local, cognito-local, s3rver,
 * the SES stand-in, the local gateway with the real handlers, the local
 * scheduler with the real jobs, and the built web app. `npm start` and the
 * end-to-end tests both start it through here.
 */
import { join, resolve } from 'node:path';
import { API_PATH_PREFIX } from '../lib/webRouting';
import { startCognito } from './cognito';
import { startDevServer } from './devServer';
import { ensureTable, startDynamoDb } from './dynamodb';
import { startGateway } from './gateway';
import { assertPortsFree, type LogSink, prefixedLog } from './processes';
import { startS3 } from './s3';
import { loadJobHandlers, startScheduler } from './scheduler';
import { startSes } from './ses';
import {
  LOCAL_FACTOR_KEY,
  LOCAL_MAIL_FROM,
  LOCAL_RECEIPTS_BUCKET,
  LOCAL_STRIPE_PUBLISHABLE_KEY,
  LOCAL_STRIPE_SECRET_KEY,
  LOCAL_STRIPE_WEBHOOK_SECRET,
  LOCAL_SUPPORT_INBOX,
  LOCAL_TABLE_NAME,
  type LocalPorts,
} from './settings';
import { type StripeEmulator, startStripeEmulator } from './stripe';
import { timeEndpoint } from './timePage';
import { createLocalClock, parseTravel, travel } from './timeTravel';
import { buildWeb, webBuildIsStale } from './webBuild';
import { startWebServer } from './webServer';

export interface LocalStackOptions {
  ports: LocalPorts;
  /** Where state persists between runs. */
  dataDir: string;
  /** Keep DynamoDB in memory (tests) instead of under dataDir. */
  inMemoryDatabase?: boolean;
  /** Rebuild the web app when its sources changed (default true). */
  buildWeb?: boolean;
  /** Print nothing but errors (tests). */
  quiet?: boolean;
  /** Serve the web app from Vite's dev server with hot reload (`npm run dev`). */
  dev?: boolean;
  /** Create the demo manager and employee if missing (default true). */
  seed?: boolean;
  /**
   * Tests only: a request header naming the client address for per-client rate
   * limits, so a test's own setup calls (many sign-ups) are not counted as the
   * browser's. `npm start` never sets it: a client could then pick its address.
   */
  simulatedClientIpHeader?: string;
  /**
   * Tests only: the hosted UI (a stand-in; cognito-local has none) where the API
   * redeems social sign-in's codes. `npm start` offers no social sign-in.
   */
  hostedUiUrl?: string;
  /**
   * Fire the scheduled jobs at their times (default true). Tests say false and
   * run jobs themselves (time travel, /_local/jobs), so nothing changes under them by the clock.
   */
  scheduledJobs?: boolean;
}

export interface LocalStack {
  webUrl: string;
  /** The API as the app calls it: its own origin + /api (the web server proxies it to the gateway). */
  appApiUrl: string;
  /** The gateway itself (as the execute-api address in AWS): tests and scripts call it directly. */
  apiUrl: string;
  mailboxUrl: string;
  /** The Stripe emulator: its API, and the sandbox merchant checkout at /checkout. */
  stripeUrl: string;
  stripeAdmin: StripeEmulator['admin'];
  cognito: { endpoint: string; userPoolId: string; clientId: string; webClientId: string; issuer: string };
  dynamodbEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  runJob(id: string): Promise<unknown>;
  /** Time travel: move the product's clock forward (`+3d`, `+2m`), running every job on the way. */
  travel(by: string): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const root = process.cwd();
  const dataDir = resolve(options.dataDir);
  const log = (name: string): LogSink => prefixedLog(name, options.quiet);
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };

  // The product's clock: the machine's unless time travel moved it (kept between runs).
  const clock = createLocalClock(options.inMemoryDatabase ? undefined : join(dataDir, 'clock.json'));

  try {
    const webOrigin = `http://127.0.0.1:${options.ports.web}`;
    const webBuild =
      !options.dev && options.buildWeb !== false && webBuildIsStale(root)
        ? buildWeb(root, log('web-build'))
        : Promise.resolve();

    await assertPortsFree(options.ports);
    // Start the stand-ins side by side; if one fails, stop the ones that did start.
    const started = await Promise.allSettled([
      startDynamoDb({
        port: options.ports.dynamodb,
        dataDir: options.inMemoryDatabase ? undefined : join(dataDir, 'dynamodb'),
        log: log('dynamodb'),
      }),
      startCognito({ port: options.ports.cognito, dataDir: join(dataDir, 'cognito'), log: log('cognito') }),
      startS3({
        port: options.ports.s3,
        dataDir: join(dataDir, 's3'),
        bucket: LOCAL_RECEIPTS_BUCKET,
        webOrigin,
        log: log('s3'),
      }),
      startSes({ port: options.ports.ses, log: log('mail') }),
      startStripeEmulator({
        port: options.ports.stripe,
        log: log('stripe'),
        webhookSecret: LOCAL_STRIPE_WEBHOOK_SECRET,
        dataFile: join(dataDir, 'stripe.json'),
        clock: clock.nowMs,
      }),
    ] as const);
    for (const result of started) if (result.status === 'fulfilled') stops.push(result.value.stop);
    const failure = started.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    const [dynamodb, cognito, s3, ses, stripe] = started.map(
      (r) => (r as PromiseFulfilledResult<unknown>).value,
    ) as [
      Awaited<ReturnType<typeof startDynamoDb>>,
      Awaited<ReturnType<typeof startCognito>>,
      Awaited<ReturnType<typeof startS3>>,
      Awaited<ReturnType<typeof startSes>>,
      Awaited<ReturnType<typeof startStripeEmulator>>,
    ];
    await ensureTable(dynamodb.endpoint, LOCAL_TABLE_NAME);

    // The handlers read their configuration from the environment, as in Lambda.
    Object.assign(process.env, {
      STAGE: 'local',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      TABLE_NAME: LOCAL_TABLE_NAME,
      DYNAMODB_ENDPOINT: dynamodb.endpoint,
      SES_ENDPOINT: ses.endpoint,
      S3_ENDPOINT: s3.endpoint,
      RECEIPTS_BUCKET: LOCAL_RECEIPTS_BUCKET,
      MAIL_FROM: LOCAL_MAIL_FROM,
      SUPPORT_INBOX: LOCAL_SUPPORT_INBOX,
      COGNITO_ISSUER: cognito.issuer,
      COGNITO_CLIENT_ID: cognito.clientId,
      COGNITO_WEB_CLIENT_ID: cognito.webClientId,
      COGNITO_USER_POOL_ID: cognito.userPoolId,
      COGNITO_ENDPOINT: cognito.endpoint,
      WEB_ORIGIN: webOrigin,
      LOG_FORMAT: 'pretty',
      // Tests (quiet) get no `[lambda] metrics` lines; `npm start` prints each invocation's.
      POWERTOOLS_METRICS_DISABLED: options.quiet ? 'true' : 'false',
      STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY,
      FACTOR_KEY: LOCAL_FACTOR_KEY,
      STRIPE_WEBHOOK_SECRET: LOCAL_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      ...(options.hostedUiUrl
        ? { COGNITO_OAUTH_URL: options.hostedUiUrl, OAUTH_REDIRECT_URL: `${webOrigin}/auth/callback` }
        : {}),
    });

    if (options.seed !== false) {
      const { seedDemo } = await import('./seed');
      await seedDemo(log('seed'));
    }

    const handlers = await loadJobHandlers();
    const scheduler = await startScheduler({
      log: log('scheduler'),
      now: clock.now,
      handlers,
      armed: options.scheduledJobs !== false,
    });
    stops.push(scheduler.stop);
    const mailboxUrl = `${ses.endpoint}/`;
    // One move at a time: a second request waits for the first to finish.
    let moving: Promise<unknown> = Promise.resolve();
    const moveClock = (by: string) => {
      const next = moving.then(async () => {
        const result = await travel(clock, handlers, parseTravel(by, clock.now()), log('time'), () =>
          stripe.admin.expireDue(),
        );
        scheduler.rearm();
        return result;
      });
      moving = next.catch(() => undefined);
      return next;
    };
    const apiLog = log('api');
    const gateway = await startGateway({
      port: options.ports.api,
      allowedOrigins: [webOrigin],
      log: apiLog,
      simulatedClientIpHeader: options.simulatedClientIpHeader,
      localEndpoints: async (req, res, url) => {
        if (url.pathname === '/_local/time') {
          await timeEndpoint(req, res, {
            clock,
            move: moveClock,
            mailboxUrl,
            appUrl: webOrigin,
          });
          return true;
        }
        // POST /_local/jobs/<jobId>: run a scheduled job now (local only, never deployed).
        const job = /^\/_local\/jobs\/([A-Za-z]+)$/.exec(url.pathname)?.[1];
        if (req.method !== 'POST' || !job || !scheduler.isJob(job)) return false;
        const result = await scheduler.run(job);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
        return true;
      },
    });
    stops.push(gateway.stop);
    // The card network now knows where to ask for authorization decisions.
    stripe.setWebhook(`${gateway.url}/webhooks/stripe`, LOCAL_STRIPE_WEBHOOK_SECRET);
    // Holds that passed their 7 days while the stack was stopped expire now, heard by the product.
    await stripe.admin.expireDue();
    if (options.seed !== false) {
      const { seedDemoPurchases } = await import('./seed');
      await seedDemoPurchases(stripe.admin, log('seed'));
    }

    await webBuild;
    // The app calls its own origin, as in AWS (CloudFront's /api/*): the session cookie needs it.
    const appApiUrl = `${webOrigin}${API_PATH_PREFIX}`;
    const runtimeConfig = {
      stage: 'local',
      apiUrl: appApiUrl,
      region: 'us-east-1',
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.webClientId,
      cognitoEndpoint: cognito.endpoint,
      mailboxUrl: `${ses.endpoint}/`,
      stripe: {
        publishableKey: LOCAL_STRIPE_PUBLISHABLE_KEY,
        apiUrl: stripe.url,
        checkoutUrl: `${stripe.url}/checkout`,
      },
    };
    const web = options.dev
      ? await startDevServer({
          port: options.ports.web,
          runtimeConfig,
          gatewayUrl: gateway.url,
          log: log('web'),
        })
      : await startWebServer({
          port: options.ports.web,
          distDir: join(root, 'web/dist'),
          runtimeConfig,
          gatewayUrl: gateway.url,
          csp: {
            // The API is the app's own origin ('self'), as in AWS.
            connect: [stripe.url, s3.endpoint],
            img: [s3.endpoint],
            frame: [stripe.url],
          },
          log: log('web'),
        });
    stops.push(web.stop);

    return {
      webUrl: web.url,
      appApiUrl,
      apiUrl: gateway.url,
      mailboxUrl: `${ses.endpoint}/`,
      stripeUrl: stripe.url,
      stripeAdmin: stripe.admin,
      cognito,
      dynamodbEndpoint: dynamodb.endpoint,
      s3Endpoint: s3.endpoint,
      tableName: LOCAL_TABLE_NAME,
      travel: moveClock,
      runJob: (id) => {
        if (!scheduler.isJob(id)) throw new Error(`unknown job ${id}`);
        return scheduler.run(id);
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
