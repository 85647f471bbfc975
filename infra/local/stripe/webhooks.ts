/**
 * Webhook signing and delivery, exactly in Stripe's scheme: the JSON body is
 * signed with HMAC-SHA256 over `${timestamp}.${body}` using the endpoint's
 * secret, sent as `Stripe-Signature: t=<timestamp>,v1=<hex>`, so the product's
 * own check (lambdas/src/adapters/stripeSignature.ts, held to the SDK's
 * `constructEvent` by its unit tests) verifies it unchanged.
 *
 * Ordinary events go through one FIFO queue, one delivery at a time, so they
 * arrive in the order they happened (Stripe does not promise that; the admin
 * endpoints can deliver out of order on purpose). A failed delivery is retried
 * later, outside the queue, as Stripe does with backoff. The real-time
 * `issuing_authorization.request` is sent at once by `send` and its answer read.
 */
import { createHmac } from 'node:crypto';
import type { DeliveryRecord, EventRecord } from './store';

export function signatureHeader(payload: string, secret: string, timestampSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface SentEvent {
  record: DeliveryRecord;
  /** Present when an HTTP answer arrived. */
  response?: { status: number; headers: Headers; text: string };
}

export interface WebhookSenderOptions {
  target: () => WebhookTarget | undefined;
  log: (line: string) => void;
  /** Delays before each retry of a failed ordinary delivery. */
  retryDelaysMs: readonly number[];
  /** Which event types go out (Stripe's "enabled events"); patterns like `issuing_card.*` or `*`. */
  enabledEvents: readonly string[];
  /** Called after every attempt, to keep the delivery log and `pending_webhooks`. */
  onAttempt: (event: EventRecord, record: DeliveryRecord) => void;
}

/** Ordinary deliveries give up after this long, like Stripe's own timeout. */
const DELIVERY_TIMEOUT_MS = 10_000;

export function isEnabled(type: string, patterns: readonly string[]): boolean {
  return patterns.some(
    (p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))),
  );
}

export class WebhookSender {
  private readonly queue: { event: EventRecord; attempt: number }[] = [];
  private running: Promise<void> | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  private warnedNoTarget = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  enabled(type: string): boolean {
    return isEnabled(type, this.options.enabledEvents);
  }

  /** Sends one event now and waits for the answer, at most `timeoutMs`. */
  async send(
    event: EventRecord,
    timeoutMs = DELIVERY_TIMEOUT_MS,
    accept = '*/*; q=0.5, application/xml',
  ): Promise<SentEvent> {
    const target = this.options.target();
    const started = Date.now();
    const base = { event: event.id, type: event.type, at: started, url: target?.url ?? '' };
    if (!target) {
      const record: DeliveryRecord = {
        ...base,
        status: null,
        outcome: 'error',
        ms: 0,
        note: 'no webhook URL set',
      };
      this.options.onAttempt(event, record);
      return { record };
    }
    const payload = JSON.stringify(event, null, 2);
    // Signed with the real time even when the emulator's clock is moved, so the
    // product's timestamp tolerance check behaves as with Stripe.
    const header = signatureHeader(payload, target.secret, Math.floor(Date.now() / 1000));
    let sent: SentEvent;
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          accept,
          'cache-control': 'no-cache',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': header,
        },
        body: payload,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      });
      const text = await response.text();
      const ok = response.status >= 200 && response.status < 300;
      sent = {
        record: {
          ...base,
          status: response.status,
          outcome: ok ? 'delivered' : 'failed',
          ms: Date.now() - started,
        },
        response: { status: response.status, headers: response.headers, text },
      };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      sent = {
        record: {
          ...base,
          status: null,
          outcome: timedOut ? 'timeout' : 'error',
          ms: Date.now() - started,
          note: timedOut ? `no answer within ${timeoutMs} ms` : describe(error),
        },
      };
    }
    this.options.onAttempt(event, sent.record);
    const { record } = sent;
    this.options.log(
      `webhook ${event.type} ${event.id} -> ${record.status ?? record.outcome} (${record.ms} ms)${record.note ? ` ${record.note}` : ''}`,
    );
    return sent;
  }

  /** Queues an ordinary event for in-order delivery (if its type is enabled). */
  enqueue(event: EventRecord, attempt = 0): void {
    if (!this.enabled(event.type)) return;
    if (!this.options.target()) {
      if (!this.warnedNoTarget)
        this.options.log('no webhook URL set: events are kept (GET /v1/events) but not sent');
      this.warnedNoTarget = true;
      return;
    }
    this.queue.push({ event, attempt });
    this.pump();
  }

  private pump(): void {
    if (this.running || this.stopping.signal.aborted) return;
    this.running = (async () => {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        const { record } = await this.send(next.event);
        if (record.outcome !== 'delivered') this.retryLater(next.event, next.attempt);
      }
    })().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.pump();
    });
  }

  private retryLater(event: EventRecord, attempt: number): void {
    const delay = this.options.retryDelaysMs[attempt];
    if (delay === undefined || this.stopping.signal.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(event, attempt + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  busy(): boolean {
    return this.running !== undefined || this.queue.length > 0;
  }

  /** Resolves once the queue is empty and nothing is being sent (retries waiting on a timer excluded). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopping.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
