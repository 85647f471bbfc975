/**
 * POST /webhooks/stripe - Stripe only (signature). Real-time authorization
 * requests are answered in the response body within Stripe's 2 s window; the
 * other Issuing events settle holds, captures and refunds.
 */

import { declineCodeOf } from '@shared/domain/spendPolicy';
import type Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../adapters/stripeVersion';
import { metrics } from '../platform/metrics';
import { stripeWebhookHandler } from '../platform/webhook';
import {
  type AuthorizationRequest,
  applyCapture,
  applyMerchantRefund,
  decideAuthorization,
  recordIssuerDecline,
  syncAuthorization,
} from '../services/cards';

function cardIdOf(card: string | { id: string }): string {
  return typeof card === 'string' ? card : card.id;
}

function requestOf(auth: Stripe.Issuing.Authorization): AuthorizationRequest {
  const history = auth.request_history ?? [];
  const lastRequest = history.at(-1);
  return {
    // A pending request is not in the history yet (the earlier ones of an
    // incremental authorization are); a decided one is its last entry.
    requestIndex: auth.pending_request ? history.length : Math.max(0, history.length - 1),
    authorizationId: auth.id,
    cardId: cardIdOf(auth.card),
    userId: typeof auth.card === 'string' ? undefined : auth.card.metadata?.userId,
    amountCents: auth.pending_request?.amount ?? lastRequest?.amount ?? auth.amount,
    currency: auth.pending_request?.currency ?? auth.currency,
    merchantName: auth.merchant_data?.name ?? 'the merchant',
    merchantCategory: auth.merchant_data?.category ?? 'unknown',
  };
}

/** Captures Stripe lists on an authorization, as positive cents by transaction id. */
function listedCaptures(auth: Stripe.Issuing.Authorization): Record<string, number> {
  const captures: Record<string, number> = {};
  for (const t of auth.transactions ?? []) if (t.type === 'capture') captures[t.id] = Math.abs(t.amount);
  return captures;
}

export const handler = stripeWebhookHandler(async (event, { now, log, receivedAt }) => {
  switch (event.type) {
    case 'issuing_authorization.request': {
      const decision = await decideAuthorization(requestOf(event.data.object), now);
      log.info('authorization decided', { approved: decision.approved, reason: decision.reason });
      metrics.authorizationDecided(
        decision.approved ? 'approved' : 'declined',
        decision.approved ? 'none' : declineCodeOf(decision.reason),
        performance.now() - receivedAt,
      );
      return {
        body: {
          approved: decision.approved,
          metadata: decision.reason ? { reason: decision.reason.slice(0, 500) } : {},
        },
        headers: { 'Stripe-Version': STRIPE_API_VERSION },
      };
    }
    case 'issuing_authorization.created':
    case 'issuing_authorization.updated': {
      const auth = event.data.object;
      // Declined by the issuer's own controls (our backstop) before we were asked: keep the reason.
      if (!auth.approved && event.type === 'issuing_authorization.created') {
        await recordIssuerDecline(requestOf(auth), now);
      }
      await syncAuthorization(
        {
          authorizationId: auth.id,
          status: auth.status,
          amountCents: auth.amount,
          captures: listedCaptures(auth),
          requestCount: auth.request_history?.length,
        },
        now,
      );
      return { body: { received: true } };
    }
    case 'issuing_transaction.created': {
      const t = event.data.object;
      const common = {
        transactionId: t.id,
        cardId: cardIdOf(t.card),
        amountCents: Math.abs(t.amount),
        merchant: t.merchant_data?.name ?? 'the merchant',
        createdAt: new Date(t.created * 1000).toISOString(),
      };
      if (t.type === 'refund')
        await applyMerchantRefund({
          ...common,
          authorizationId: typeof t.authorization === 'string' ? t.authorization : t.authorization?.id,
        });
      else
        await applyCapture(
          {
            ...common,
            authorizationId: typeof t.authorization === 'string' ? t.authorization : t.authorization?.id,
            category: t.merchant_data?.category ?? 'unknown',
          },
          log,
        );
      return { body: { received: true } };
    }
    default:
      return { body: { received: true, ignored: event.type } };
  }
});
