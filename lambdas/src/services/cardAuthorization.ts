/**
 * Real-time card authorization (Stripe Issuing's `issuing_authorization.request`),
 * answered inside Stripe's 2-second window. Reads are one BatchGet; the decision
 * and the hold are one conditional transaction keyed by the authorization id, so
 * two purchases cannot both spend the same dollars, and a redelivered request gets
 * the answer already given and no second hold.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { authorizationHold, cardAccount } from '../../../shared/src/domain/ledger';
import { formatCents } from '../../../shared/src/domain/money';
import { LEARNING_CATEGORIES } from '../adapters/stripe';
import {
  type AuthorizationRecord,
  authorizationItem,
  getAuthorization,
  loadForDecision,
} from '../data/cards';
import { db } from '../data/client';
import { balanceOf, explainCancellation, InsufficientFunds, postingItems } from '../data/ledger';

export interface AuthorizationRequest {
  authorizationId: string;
  cardId: string;
  /** Our user id, from the card's metadata (set when we issued it). */
  userId?: string;
  amountCents: number;
  currency: string;
  merchantName: string;
  merchantCategory: string;
}

export interface Decision {
  approved: boolean;
  reason?: string;
}

const learning = new Set<string>(LEARNING_CATEGORIES);

function readable(category: string): string {
  return category.replace(/_/g, ' ');
}

/** The rules, in the order a person would want to hear them. Pure: easy to read, easy to test. */
export function refusal(
  request: AuthorizationRequest,
  card:
    | { status: string; freeze?: { manager?: boolean; missingReceipt?: boolean; dormant?: boolean } }
    | undefined,
  user: { status: string } | undefined,
  balanceCents: number,
): string | undefined {
  if (!card || !user) return 'This card is not recognised.';
  if (card.status === 'canceled' || user.status === 'deleted') return 'This card has been cancelled.';
  if (card.status !== 'active') {
    if (card.freeze?.missingReceipt && !card.freeze.manager) {
      return 'Your card is frozen until your missing receipts are uploaded.';
    }
    return 'Your card is frozen. Please contact your manager.';
  }
  // A paused employee is not funded again, but spends what the card holds (decisions.md).
  if (request.currency.toLowerCase() !== 'usd') return 'Only purchases in US dollars are supported.';
  if (!learning.has(request.merchantCategory)) {
    return `${request.merchantName} (${readable(request.merchantCategory)}) is not a learning merchant.`;
  }
  if (request.amountCents > balanceCents) {
    return `${formatCents(request.amountCents)} is above your ${formatCents(balanceCents)} balance.`;
  }
  return undefined;
}

export async function decideAuthorization(request: AuthorizationRequest, now: Date): Promise<Decision> {
  const loaded = await loadForDecision(request.authorizationId, request.cardId, request.userId);
  if (loaded.decided) return { approved: loaded.decided.approved, reason: loaded.decided.reason };
  const userId = loaded.userId;
  const reason = refusal(request, loaded.card, loaded.user, loaded.balanceCents);
  const record: AuthorizationRecord = {
    authorizationId: request.authorizationId,
    cardId: request.cardId,
    userId,
    teamId: loaded.card?.teamId,
    approved: reason === undefined,
    reason,
    amountCents: request.amountCents,
    heldCents: reason === undefined ? request.amountCents : 0,
    merchant: request.merchantName,
    category: request.merchantCategory,
    decidedAt: now.toISOString(),
    captures: {},
  };
  if (reason !== undefined || !userId || !loaded.card)
    return recordDecline({ ...record, approved: false, heldCents: 0 });

  const hold = authorizationHold({
    authorizationId: request.authorizationId,
    teamId: loaded.card.teamId,
    userId,
    amountCents: request.amountCents,
    merchant: request.merchantName,
  });
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [authorizationItem(record), ...postingItems(hold, now.toISOString())],
      }),
    );
    return { approved: true };
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    const alreadyDecided = reasons[0]?.Code === 'ConditionalCheckFailed';
    try {
      // Item 0 is the decision: if it exists, this is a redelivery; answer what was answered.
      if (!alreadyDecided) explainCancellation(error, hold, 1);
    } catch (cause) {
      if (cause instanceof InsufficientFunds) {
        // Another purchase spent the money between our read and our write.
        const balance = await balanceOf(cardAccount(userId));
        return recordDecline({
          ...record,
          approved: false,
          heldCents: 0,
          reason: `${formatCents(request.amountCents)} is above your ${formatCents(balance)} balance.`,
        });
      }
      throw cause;
    }
    const earlier = await getAuthorization(request.authorizationId);
    return { approved: earlier?.approved ?? false, reason: earlier?.reason };
  }
}

async function recordDecline(record: AuthorizationRecord): Promise<Decision> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [authorizationItem(record)] }));
    return { approved: false, reason: record.reason };
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') throw error;
    const earlier = await getAuthorization(record.authorizationId);
    return { approved: earlier?.approved ?? false, reason: earlier?.reason };
  }
}

/**
 * The issuer declined an authorization before asking us (its spending controls,
 * our backstop, caught it). Record it with the same plain reason we would have
 * given, so the employee sees why; idempotent like every decision.
 */
export async function recordIssuerDecline(request: AuthorizationRequest, now: Date): Promise<Decision> {
  const loaded = await loadForDecision(request.authorizationId, request.cardId, request.userId);
  if (loaded.decided) return { approved: loaded.decided.approved, reason: loaded.decided.reason };
  const reason =
    refusal(request, loaded.card, loaded.user, loaded.balanceCents) ??
    'Declined by the card’s spending limit.';
  return recordDecline({
    authorizationId: request.authorizationId,
    cardId: request.cardId,
    userId: loaded.userId,
    teamId: loaded.card?.teamId,
    approved: false,
    reason,
    amountCents: request.amountCents,
    heldCents: 0,
    merchant: request.merchantName,
    category: request.merchantCategory,
    decidedAt: now.toISOString(),
    captures: {},
  });
}
