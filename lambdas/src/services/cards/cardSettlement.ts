/**
 * What happens after an authorization: captures settle holds (a partial capture
 * leaves the rest to be released; an over-capture or a capture with no hold
 * becomes the employee's debt, never lost), reversals and expiries release
 * holds, merchant refunds credit the card. Every effect is keyed by the issuer's
 * own ids, so events delivered twice or out of order end in the same ledger.
 */
import { UNKNOWN_MEDIA, UNKNOWN_SKILL } from '@shared/domain/insightDeltas';
import { capture, merchantRefund, RELEASE_REASONS, release } from '@shared/domain/ledger';
import { type AuthorizationRecord, authorizationItem, getAuthorization, getCard } from '../../data/cards';
import { tableName } from '../../data/client';
import { startDormancyClock } from '../../data/dormancy';
import { postingMonth } from '../../data/insightTotals';
import { keys } from '../../data/keys';
import { aggregateItems, explainCancellation, type PostResult, postingItems } from '../../data/ledger';
import { inferPurchaseSkill } from '../../data/purchaseSkills';
import { getPurchase, type PurchaseRecord, purchaseItem } from '../../data/purchases';
import { sendTransaction, type TransactItem } from '../../data/transactions';
import type { Logger } from '../../platform/log';

const ATTEMPTS = 5;

/** A condition on the authorization's hold, so two events settling it at once cannot both use the same hold. */
function holdUpdate(
  auth: AuthorizationRecord,
  newHeld: number,
  captureId?: string,
  capturedCents?: number,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.authorization(auth.authorizationId),
      UpdateExpression: captureId
        ? 'SET heldCents = :new, captures.#capture = :captured'
        : 'SET heldCents = :new',
      ConditionExpression: 'heldCents = :old',
      ...(captureId ? { ExpressionAttributeNames: { '#capture': captureId } } : {}),
      ExpressionAttributeValues: {
        ':new': newHeld,
        ':old': auth.heldCents,
        ...(captureId ? { ':captured': capturedCents } : {}),
      },
    },
  };
}

function isCancelled(error: unknown): error is Error & { CancellationReasons?: { Code?: string }[] } {
  return error instanceof Error && error.name === 'TransactionCanceledException';
}

export interface CaptureEvent {
  transactionId: string;
  authorizationId?: string;
  cardId: string;
  /** Captured cents, positive. */
  amountCents: number;
  merchant: string;
  category: string;
  createdAt: string;
}

/**
 * When a capture is posted: Stripe's time for it, but never before its hold.
 * Stripe's `created` is whole seconds, the hold's our own milliseconds, so a
 * capture in the same second as its approval would sort before the hold and
 * the Activity Log (journal by posting time, newest first) would show the
 * purchase held after it settled. Never later than the hold either, so the
 * month reconciliation compares with Stripe's stays the same.
 */
function capturePostedAt(createdAt: string, auth: { decidedAt: string } | undefined): string {
  return auth && Date.parse(auth.decidedAt) > Date.parse(createdAt) ? auth.decidedAt : createdAt;
}

/** Settles a capture against its authorization's hold, and records the purchase for receipts. */
export async function applyCapture(event: CaptureEvent, log: Logger): Promise<PostResult> {
  const card = await getCard(event.cardId);
  if (!card) throw new Error(`capture ${event.transactionId} for unknown card ${event.cardId}`);
  // Its skill area (issue 26): from the item its owner opened at this merchant, else Uncategorised.
  const skill = await inferPurchaseSkill(card.userId, event.merchant, event.createdAt);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let auth = event.authorizationId ? await getAuthorization(event.authorizationId) : undefined;
    if (event.authorizationId && !auth) {
      // The capture outran the authorization's own records (or it was never ours to approve):
      // record an empty one so the hold bookkeeping below has something to condition on.
      auth = {
        authorizationId: event.authorizationId,
        cardId: event.cardId,
        userId: card.userId,
        teamId: card.teamId,
        approved: false,
        reason: 'Captured without an approval on record.',
        amountCents: 0,
        heldCents: 0,
        merchant: event.merchant,
        category: event.category,
        decidedAt: event.createdAt,
        captures: {},
      };
      await sendTransaction([authorizationItem(auth)]).catch((error) => {
        if (!isCancelled(error)) throw error;
      });
      continue;
    }
    if (auth?.captures?.[event.transactionId] !== undefined) return { status: 'duplicate' };
    const held = auth?.heldCents ?? 0;
    const posting = capture({
      entryId: `CAPTURE#${event.transactionId}`,
      teamId: card.teamId,
      userId: card.userId,
      capturedCents: event.amountCents,
      heldCents: held,
      merchant: event.merchant,
      transactionId: event.transactionId,
      authorizationId: event.authorizationId,
    });
    const fromHold = Math.min(event.amountCents, held);
    const postedAt = capturePostedAt(event.createdAt, auth);
    const insightMonth = await postingMonth(card.teamId, postedAt);
    const purchase: TransactItem = {
      Put: {
        TableName: tableName(),
        // Listed for the receipt job until the receipt is recorded (gsi3 is sparse).
        Item: purchaseItem({
          purchaseId: event.transactionId,
          userId: card.userId,
          teamId: card.teamId,
          cardId: card.cardId,
          authorizationId: event.authorizationId,
          amountCents: event.amountCents,
          merchant: event.merchant,
          category: event.category,
          createdAt: event.createdAt,
          receiptStatus: 'awaiting',
          ...skill,
          insightMonth,
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const extra: TransactItem[] = auth
      ? [holdUpdate(auth, held - fromHold, event.transactionId, event.amountCents), purchase]
      : [purchase];
    try {
      // The insights aggregates go last, in the same transaction: a duplicate capture adds nothing.
      const aggregates = await aggregateItems(posting, postedAt, {
        skillArea: skill.skillArea,
        media: skill.media,
        merchant: event.merchant,
      });
      await sendTransaction([...extra, ...postingItems(posting, postedAt), ...aggregates]);
      // A purchase restarts the owner's dormancy clock (a late, older capture does not).
      await startDormancyClock(card, event.createdAt);
      if (event.amountCents > held) {
        log.warn('capture above the hold recorded as debt', {
          transactionId: event.transactionId,
          owedCents: event.amountCents - held,
        });
      }
      return { status: 'posted' };
    } catch (error) {
      if (!isCancelled(error)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const journalIndex = extra.length;
      if (reasons[journalIndex]?.Code === 'ConditionalCheckFailed') return { status: 'duplicate' };
      if (reasons[0]?.Code === 'ConditionalCheckFailed' && auth) continue; // the hold moved; read again
      explainCancellation(error, posting, journalIndex);
    }
  }
  throw new Error(`capture ${event.transactionId}: the hold kept changing`);
}

export interface AuthorizationState {
  authorizationId: string;
  /** 'pending' | 'closed' | 'reversed' | 'expired' (Stripe's statuses; expired: not captured in time). */
  status: string;
  /** What is still authorized (for a pending authorization). */
  amountCents: number;
  /** Captures Stripe lists on the authorization: id -> captured cents. */
  captures: Record<string, number>;
  /** How many requests (the first and any increments) the event's `request_history` lists. */
  requestCount?: number;
}

/**
 * Brings an authorization's hold to what its latest state implies: the pending
 * amount while pending; when closed or reversed, only what its listed captures
 * still need (a capture that has not reached us yet keeps its part of the hold,
 * so out-of-order delivery settles the same way as in-order delivery).
 */
export async function syncAuthorization(
  state: AuthorizationState,
  now: Date,
): Promise<PostResult | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const auth = await getAuthorization(state.authorizationId);
    if (!auth?.approved || !auth.userId || !auth.teamId) return undefined;
    const increments = auth.lastRequest ?? 0;
    // An event sent before our latest increment was decided does not list it, and
    // its smaller pending amount is older news, not a release.
    if (
      state.status === 'pending' &&
      increments > 0 &&
      state.requestCount !== undefined &&
      state.requestCount <= increments
    ) {
      return undefined;
    }
    const applied = auth.captures ?? {};
    const stillToCapture = Object.entries(state.captures)
      .filter(([id]) => applied[id] === undefined)
      .reduce((sum, [, cents]) => sum + cents, 0);
    const target =
      state.status === 'pending'
        ? Math.min(auth.heldCents, Math.max(0, state.amountCents))
        : Math.min(auth.heldCents, stillToCapture);
    if (target >= auth.heldCents) return undefined;
    const posting = release({
      // Between increments the hold only shrinks, so each target is new; an increment
      // raises it again, so the ids after one name it (the same target may recur).
      entryId:
        increments > 0
          ? `RELEASE#${state.authorizationId}#${increments}#${target}`
          : `RELEASE#${state.authorizationId}#${target}`,
      teamId: auth.teamId,
      userId: auth.userId,
      amountCents: auth.heldCents - target,
      reason:
        state.status === 'pending'
          ? RELEASE_REASONS.partial
          : state.status === 'expired'
            ? RELEASE_REASONS.expired
            : RELEASE_REASONS.released,
    });
    try {
      await sendTransaction([holdUpdate(auth, target), ...postingItems(posting, now.toISOString())]);
      return { status: 'posted' };
    } catch (error) {
      if (!isCancelled(error)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (reasons[1]?.Code === 'ConditionalCheckFailed') return { status: 'duplicate' };
      if (reasons[0]?.Code === 'ConditionalCheckFailed') continue;
      explainCancellation(error, posting, 1);
    }
  }
  throw new Error(`authorization ${state.authorizationId}: the hold kept changing`);
}

/**
 * Which purchase a refund is for: the refund names its authorization, whose
 * captures are our purchases. With several captures, the first that still has
 * that much unrefunded. Undefined when the purchase is not recorded (yet).
 */
async function refundedPurchase(authorizationId: string | undefined, amountCents: number) {
  if (!authorizationId) return undefined;
  const auth = await getAuthorization(authorizationId);
  for (const captureId of Object.keys(auth?.captures ?? {})) {
    const purchase = await getPurchase(captureId);
    if (purchase && (purchase.refundedCents ?? 0) + amountCents <= purchase.amountCents) return purchase;
  }
  return undefined;
}

export async function applyMerchantRefund(event: {
  transactionId: string;
  cardId: string;
  amountCents: number;
  merchant: string;
  createdAt: string;
  /** The refunded authorization, when the network names it: links the refund to its purchase. */
  authorizationId?: string;
}): Promise<PostResult> {
  const card = await getCard(event.cardId);
  if (!card) throw new Error(`refund ${event.transactionId} for unknown card ${event.cardId}`);
  const posting = merchantRefund({
    entryId: `REFUND#${event.transactionId}`,
    teamId: card.teamId,
    userId: card.userId,
    amountCents: event.amountCents,
    merchant: event.merchant,
    transactionId: event.transactionId,
  });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const purchase = await refundedPurchase(event.authorizationId, event.amountCents);
    const items = [
      ...postingItems(posting, event.createdAt),
      // The refund comes off the purchase's skill area and media type (Uncategorised / other when unknown).
      ...(await aggregateItems(posting, event.createdAt, {
        skillArea: purchase?.skillArea ?? UNKNOWN_SKILL,
        media: purchase?.media ?? UNKNOWN_MEDIA,
        merchant: event.merchant,
      })),
    ];
    // In the ledger's own transaction (after its items), so a redelivered refund adds nothing twice;
    // conditioned on the skill area read, so a skill change meanwhile is read again, not undone.
    const purchaseUpdate: TransactItem[] = purchase ? [refundUpdate(purchase, event.amountCents)] : [];
    try {
      await sendTransaction([...items, ...purchaseUpdate]);
      return { status: 'posted' };
    } catch (error) {
      if (purchase && isCancelled(error)) {
        const reasons = error.CancellationReasons ?? [];
        const onlyPurchase = reasons.every(
          (r, i) => i === items.length || r.Code !== 'ConditionalCheckFailed',
        );
        if (reasons[items.length]?.Code === 'ConditionalCheckFailed' && onlyPurchase) continue;
      }
      return explainCancellation(error, posting);
    }
  }
  throw new Error(`refund ${event.transactionId}: the purchase kept changing`);
}

/** Adds a refund to its purchase, if the purchase still has the skill area and media type read. */
function refundUpdate(purchase: PurchaseRecord, amountCents: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.purchase(purchase.purchaseId),
      UpdateExpression: 'ADD refundedCents :amount',
      ConditionExpression:
        purchase.skillArea === undefined
          ? 'attribute_exists(pk) AND attribute_not_exists(skillArea)'
          : 'attribute_exists(pk) AND skillArea = :skill AND media = :media',
      ExpressionAttributeValues: {
        ':amount': amountCents,
        ...(purchase.skillArea === undefined
          ? {}
          : { ':skill': purchase.skillArea, ':media': purchase.media }),
      },
    },
  };
}
