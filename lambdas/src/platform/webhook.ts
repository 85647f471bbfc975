/**
 * The wrapper for Stripe's webhooks. No JWT: Stripe proves itself with the
 * signature over the raw body, checked (300 s tolerance) before anything is
 * read or written. Errors map to statuses Stripe understands: 400 for a bad
 * signature (do not retry), 500 for our failures (retry later).
 */

import { STRIPE_WEBHOOK_MAX_BODY_BYTES } from '@shared/api/webhookLimits';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type Stripe from 'stripe';
import { systemClock } from '../adapters/clock';
import { SignatureRefused, verifyWebhook } from '../adapters/stripeSignature';
import { createLogger, errorFields, type Logger } from './log';
import { metrics, withMetrics } from './metrics';

export interface WebhookContext {
  now: Date;
  log: Logger;
  /** performance.now() when the request arrived, for latency metrics (Stripe's 2 s window starts earlier). */
  receivedAt: number;
}

export interface WebhookAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function stripeWebhookHandler(
  handle: (event: Stripe.Event, ctx: WebhookContext) => Promise<WebhookAnswer>,
) {
  const maxBodyBytes = STRIPE_WEBHOOK_MAX_BODY_BYTES;
  const receive = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
    const receivedAt = performance.now();
    const requestId = event.requestContext?.requestId ?? 'unknown';
    const log = createLogger({ operationId: 'stripeWebhook', requestId, correlation_id: requestId });
    const raw = event.body
      ? event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body
      : '';
    if (Buffer.byteLength(raw) > maxBodyBytes)
      return json(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Too large' } });
    const signature = Object.entries(event.headers ?? {}).find(
      ([k]) => k.toLowerCase() === 'stripe-signature',
    )?.[1];
    let stripeEvent: Stripe.Event;
    try {
      stripeEvent = await verifyWebhook(raw, signature);
    } catch (error) {
      if (!(error instanceof SignatureRefused)) {
        // Our side (the secret could not be read, a signed body that is not JSON): Stripe retries a 500.
        log.error('webhook failed before its event was read', errorFields(error));
        metrics.webhookFailed();
        return json(500, { error: { code: 'INTERNAL', message: 'Failed; Stripe will retry', requestId } });
      }
      log.warn('webhook refused: signature missing, invalid or stale');
      metrics.webhookSignatureFailed();
      return json(400, { error: { code: 'UNAUTHENTICATED', message: 'Invalid signature', requestId } });
    }
    // Stripe's event id joins our lines to the event in Stripe's dashboard and to its redeliveries.
    const eventLog = log.child({ eventId: stripeEvent.id, eventType: stripeEvent.type });
    try {
      const answer = await handle(stripeEvent, { now: systemClock.now(), log: eventLog, receivedAt });
      return json(answer.status ?? 200, answer.body, answer.headers);
    } catch (error) {
      eventLog.error('webhook failed', errorFields(error));
      metrics.webhookFailed();
      return json(500, { error: { code: 'INTERNAL', message: 'Failed; Stripe will retry', requestId } });
    }
  };
  return (event: APIGatewayProxyEventV2) => withMetrics('stripeWebhook', () => receive(event));
}
