/**
 * The local Stripe emulator: the subset of Stripe's REST API the product
 * calls, driven through the real `stripe` SDK
 * (`new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })`), and the
 * card network around Stripe Issuing: a sandbox checkout page whose payments
 * send correctly signed `issuing_authorization.request` webhooks to the
 * product, then the captures that follow. See docs/stripe-emulator.md.
 */
import { createServer, type Server } from 'node:http';
import Stripe from 'stripe';
import { createAdmin, type EmulatorAdmin, handleAdmin } from './admin';
import { handlePages } from './checkout';
import { EmulatorContext, type LogSink } from './context';
import { CardNetwork } from './network';
import { indexPage } from './pages';
import { activityRoutes } from './resources/activity';
import { chargeRoutes } from './resources/charges';
import { customerRoutes } from './resources/customers';
import { issuingRoutes } from './resources/issuing';
import { tokenRoutes } from './resources/tokens';
import { compileRoutes, createHandler } from './server';
import { Store } from './store';
import { WebhookSender, type WebhookTarget } from './webhooks';

/** How long the emulator's merchants wait before capturing an approval, unless told otherwise. */
export const DEFAULT_AUTO_CAPTURE_DELAY_MS = 50;

export type { EmulatorAdmin } from './admin';
export type { AuthorizeInput, AuthorizeOutcome, MerchantInput } from './network';
export type { DeliveryRecord, EventRecord } from './store';

export interface StripeEmulatorOptions {
  /** Port on 127.0.0.1; 0 lets the system pick one (read it from `url`). */
  port: number;
  /** Where the emulator's log lines go (e.g. `prefixedLog('stripe')`). */
  log: LogSink;
  /** The product's Stripe webhook endpoint; without one, events are kept but not sent. */
  webhookUrl?: string;
  /** Signing secret (`whsec_...`), the product's STRIPE_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** JSON file that keeps the state across restarts; in memory only when absent. */
  dataFile?: string;
  /** Capture approved authorizations after this many ms (default 50); false leaves them pending. */
  autoCaptureDelayMs?: number | false;
  /** How long the product has to answer `issuing_authorization.request` (default 2000 ms, as Stripe). */
  authorizationTimeoutMs?: number;
  /** Delays before retrying a failed ordinary delivery (default 1 s, 5 s, 30 s; [] for none). */
  webhookRetryDelaysMs?: number[];
  /** Event types sent to the webhook (Stripe's "enabled events"): `*` (default) or e.g. `issuing_card.*`. */
  enabledEvents?: string[];
  /** The API version stamped on events (default: the one the installed `stripe` package pins). */
  apiVersion?: string;
  /** The emulator's clock in ms (tests move it to expire ephemeral keys); default Date.now. */
  clock?: () => number;
  /**
   * How often (real ms) approvals left uncaptured for 7 days of `clock` are
   * expired, as Stripe does on its own (default 60 s; false: only when
   * `admin.expireDue()` is called, as time travel does).
   */
  expiryCheckMs?: number | false;
}

export interface StripeEmulator {
  /** e.g. http://127.0.0.1:3004 */
  url: string;
  port: number;
  /** Points webhooks somewhere else (or nowhere, with `undefined`). */
  setWebhook(url: string | undefined, secret: string): void;
  /** Network and webhook controls, the same as the /_emulator/ endpoints. */
  admin: EmulatorAdmin;
  stop(): Promise<void>;
}

export async function startStripeEmulator(options: StripeEmulatorOptions): Promise<StripeEmulator> {
  const { log } = options;
  let target: WebhookTarget | undefined = options.webhookUrl
    ? { url: options.webhookUrl, secret: options.webhookSecret }
    : undefined;
  let baseUrl = `http://127.0.0.1:${options.port}`;

  const store = new Store(options.dataFile, log);
  const webhooks = new WebhookSender({
    target: () => target,
    log,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [1000, 5000, 30_000],
    enabledEvents: options.enabledEvents ?? ['*'],
    onAttempt(event, record) {
      store.state.deliveries.push(record);
      if (record.outcome === 'delivered') event.pending_webhooks = 0;
      store.save();
    },
  });
  const ctx = new EmulatorContext(
    store,
    webhooks,
    log,
    options.clock ?? Date.now,
    options.apiVersion ?? Stripe.API_VERSION,
    () => baseUrl,
  );
  const network = new CardNetwork(ctx, {
    autoCaptureDelayMs: options.autoCaptureDelayMs ?? DEFAULT_AUTO_CAPTURE_DELAY_MS,
    authorizationTimeoutMs: options.authorizationTimeoutMs ?? 2000,
  });
  recoverInterrupted(ctx);
  resendUndelivered(ctx, webhooks);

  const setWebhook = (next: WebhookTarget | undefined) => {
    target = next;
    log(next ? `webhooks go to ${next.url}` : 'webhooks are not sent');
  };
  const admin = createAdmin(ctx, network, setWebhook);
  // Stripe expires uncaptured approvals on its own; the clock may also jump (time travel).
  const expiryCheckMs = options.expiryCheckMs ?? 60_000;
  const expiryTimer =
    expiryCheckMs === false
      ? undefined
      : setInterval(() => {
          try {
            network.expireDue();
          } catch (error) {
            log(`expiring authorizations failed: ${(error as Error).message}`);
          }
        }, expiryCheckMs);
  expiryTimer?.unref();
  const routes = compileRoutes([
    ...tokenRoutes,
    ...customerRoutes,
    ...chargeRoutes,
    ...issuingRoutes,
    ...activityRoutes(network),
  ]);
  const handler = createHandler({
    ctx,
    routes,
    others: [
      async (req, res, url) => url.pathname.startsWith('/_emulator/') && handleAdmin(admin, req, res, url),
      (req, res, url) => handlePages(ctx, network, admin, req, res, url),
      async (req, res, url) => {
        if (url.pathname !== '/' || req.method !== 'GET') return false;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(indexPage(baseUrl));
        return true;
      },
    ],
  });

  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  baseUrl = `http://127.0.0.1:${port}`;
  log(
    `Stripe API at ${baseUrl}/v1/, checkout at ${baseUrl}/checkout${target ? `, webhooks to ${target.url}` : ''}`,
  );

  return {
    url: baseUrl,
    port,
    setWebhook: (url, secret) => setWebhook(url ? { url, secret } : undefined),
    admin,
    async stop() {
      if (expiryTimer) clearInterval(expiryTimer);
      network.stop();
      webhooks.stop();
      store.save();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * An authorization still waiting for the product's answer when the emulator
 * stopped can never get one: decline it as Stripe would on a timeout.
 */
/** How long Stripe keeps retrying an event no endpoint has taken: three days. */
const RETRY_WINDOW_SECONDS = 3 * 24 * 3600;

/**
 * Events a stop left undelivered (the product was down, or the emulator died
 * with them queued) are sent again at start, oldest first, as Stripe's own
 * retries over three days would: a crash is healed by delivery, and the
 * product's reconciliation only has to prove it.
 */
function resendUndelivered(ctx: EmulatorContext, webhooks: WebhookSender): void {
  const since = ctx.now() - RETRY_WINDOW_SECONDS;
  for (const event of ctx.state.events)
    if (event.pending_webhooks > 0 && event.created >= since) webhooks.enqueue(event);
}

function recoverInterrupted(ctx: EmulatorContext): void {
  let changed = false;
  for (const auth of Object.values(ctx.state.authorizations)) {
    if (auth.pending_request && auth.request_history.length === 0) {
      auth.request_history.push({
        amount: auth.pending_request.amount,
        amount_details: { atm_fee: null, cashback_amount: null },
        approved: false,
        authorization_code: null,
        created: ctx.now(),
        currency: 'usd',
        merchant_amount: auth.pending_request.amount,
        merchant_currency: 'usd',
        network_risk_score: null,
        reason: 'webhook_timeout',
        reason_message: 'the emulator stopped before the product answered',
        requested_at: auth.created,
      });
      auth.pending_request = null;
      auth.status = 'closed';
      changed = true;
    }
  }
  if (changed) ctx.store.save();
}
