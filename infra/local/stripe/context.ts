/**
 * What every part of the emulator shares: the state, the clock, the log, the
 * webhook sender, and the one place events are made.
 */
import { newId } from './ids';
import type { EventRecord, Store } from './store';
import type { WebhookSender } from './webhooks';

export type LogSink = (line: string) => void;

/** The API request that caused an event (Stripe puts it in `event.request`). */
export interface RequestMeta {
  id: string | null;
  idempotency_key: string | null;
}

export const noRequest: RequestMeta = { id: null, idempotency_key: null };

export class EmulatorContext {
  constructor(
    readonly store: Store,
    readonly webhooks: WebhookSender,
    readonly log: LogSink,
    private readonly clockMs: () => number,
    readonly apiVersion: string,
    readonly baseUrl: () => string,
  ) {}

  get state() {
    return this.store.state;
  }

  /** Unix seconds, Stripe's unit for `created` and `expires`. */
  now(): number {
    return Math.floor(this.clockMs() / 1000);
  }

  nowMs(): number {
    return this.clockMs();
  }

  /**
   * Records an event with a snapshot of the object as it is now. Ordinary
   * events are queued for delivery; `deliver: false` is for the real-time
   * request, which the card network sends itself and waits on.
   */
  event(
    type: string,
    object: object,
    options: { previous?: Record<string, unknown>; request?: RequestMeta; deliver?: boolean } = {},
  ): EventRecord {
    const deliver = options.deliver ?? true;
    const event: EventRecord = {
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: this.now(),
      // A deep copy: later changes to the object must not change what was sent.
      data: {
        object: structuredClone(object) as Record<string, unknown>,
        ...(options.previous ? { previous_attributes: structuredClone(options.previous) } : {}),
      },
      livemode: false,
      pending_webhooks: deliver && this.webhooks.enabled(type) ? 1 : 0,
      request: options.request ?? noRequest,
      type,
    };
    this.state.events.push(event);
    this.store.save();
    if (deliver) this.webhooks.enqueue(event);
    return event;
  }
}
