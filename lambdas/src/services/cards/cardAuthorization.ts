/**
 * Real-time card authorization (Stripe Issuing's `issuing_authorization.request`),
 * answered inside Stripe's 2-second window. Reads are one BatchGet; the decision
 * and the hold are one conditional transaction keyed by the authorization id, so
 * two purchases cannot both spend the same dollars, and a redelivered request gets
 * the answer already given and no second hold.
 *
 * A merchant may later ask for more on the same authorization (an incremental
 * authorization: Stripe sends another request for the same id, the extra amount
 * in `pending_request.amount`, the earlier requests listed in `request_history`).
 * Each such request is decided against the balance like a purchase and holds its
 * extra amount, keyed by its position in `request_history`, so a redelivery of
 * it changes nothing. A $0 request (card verification) is answered by the rules
 * and holds nothing.
 */
import { authorizationHold, cardAccount, type Posting } from '@shared/domain/ledger';
import {
  type CardState,
  decidePurchase,
  type OwnerState,
  overBalanceReason,
} from '@shared/domain/spendPolicy';
import {
  type AuthorizationRecord,
  authorizationItem,
  declineItem,
  getAuthorization,
  loadForDecision,
  type RequestDecision,
} from '../../data/cards';
import { tableName } from '../../data/client';
import { keys } from '../../data/keys';
import { balanceOf, explainCancellation, InsufficientFunds, postingItems } from '../../data/ledger';
import { sendTransaction } from '../../data/transactions';

export interface AuthorizationRequest {
  authorizationId: string;
  cardId: string;
  /** Our user id, from the card's metadata (set when we issued it). */
  userId?: string;
  amountCents: number;
  currency: string;
  merchantName: string;
  merchantCategory: string;
  /**
   * Which request of the authorization this is: its position in `request_history`
   * (which lists the earlier ones). 0 for a purchase's first request.
   */
  requestIndex?: number;
}

export interface Decision {
  approved: boolean;
  reason?: string;
}

/**
 * The spend policy's refusal for this request, or undefined to approve. The
 * rules themselves live in shared/src/domain/spendPolicy.ts, shared with the
 * read-only purchase check (services/purchases/purchaseCheck.ts), so the check and the
 * real authorization give the same answer for the same card, amount and merchant.
 */
function refusal(
  request: AuthorizationRequest,
  card: CardState | undefined,
  user: OwnerState | undefined,
  balanceCents: number,
): string | undefined {
  const decision = decidePurchase(
    {
      amountCents: request.amountCents,
      currency: request.currency,
      merchantCategory: request.merchantCategory,
      merchantName: request.merchantName,
    },
    card,
    user,
    balanceCents,
  );
  return decision.approved ? undefined : decision.reason;
}

type Loaded = Awaited<ReturnType<typeof loadForDecision>>;

function isCancelled(error: unknown): error is Error & { CancellationReasons?: { Code?: string }[] } {
  return error instanceof Error && error.name === 'TransactionCanceledException';
}

/** The answer already given to this request, if it was decided before (a redelivery). */
function answered(record: AuthorizationRecord, index: number): Decision | undefined {
  // Records from before increments were decided know only one answer: give it, as before.
  if (record.lastRequest !== undefined && index > record.lastRequest) return undefined;
  const earlier = record.requests?.[index] ?? record;
  return { approved: earlier.approved, reason: earlier.reason };
}

export async function decideAuthorization(request: AuthorizationRequest, now: Date): Promise<Decision> {
  const index = request.requestIndex ?? 0;
  const loaded = await loadForDecision(request.authorizationId, request.cardId, request.userId);
  if (loaded.decided) {
    return answered(loaded.decided, index) ?? decideIncrement(request, index, loaded.decided, loaded, now);
  }
  const userId = loaded.userId;
  const reason = refusal(request, loaded.card, loaded.user, loaded.balanceCents);
  const decidedAt = now.toISOString();
  const record = (approved: boolean, why: string | undefined): AuthorizationRecord => ({
    authorizationId: request.authorizationId,
    cardId: request.cardId,
    userId,
    teamId: loaded.card?.teamId,
    approved,
    reason: why,
    amountCents: request.amountCents,
    heldCents: approved ? request.amountCents : 0,
    merchant: request.merchantName,
    category: request.merchantCategory,
    decidedAt,
    captures: {},
    lastRequest: index,
    requests: { [index]: { approved, reason: why, amountCents: request.amountCents, decidedAt } },
  });
  if (reason !== undefined || !userId || !loaded.card) return recordDecision(record(false, reason));
  // A $0 request (the merchant checking the card) passed the rules: approve it; there is nothing to hold.
  if (request.amountCents === 0) return recordDecision(record(true, undefined));

  const hold = authorizationHold({
    authorizationId: request.authorizationId,
    teamId: loaded.card.teamId,
    userId,
    amountCents: request.amountCents,
    merchant: request.merchantName,
  });
  try {
    await sendTransaction([authorizationItem(record(true, undefined)), ...postingItems(hold, decidedAt)]);
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
        return recordDecision(record(false, overBalanceReason(request.amountCents, balance)));
      }
      throw cause;
    }
    return answerAgain(request.authorizationId, index);
  }
}

/** Reads the stored answer to this request after losing a race to record it. */
async function answerAgain(authorizationId: string, index: number): Promise<Decision> {
  const earlier = await getAuthorization(authorizationId);
  return earlier ? (answered(earlier, index) ?? { approved: false }) : { approved: false };
}

/**
 * Records a first decision that holds nothing (a decline, or a $0
 * verification). A decline also gets its list item (Purchase History, the
 * Statement) in the same transaction, so a redelivery lists it once.
 */
async function recordDecision(record: AuthorizationRecord): Promise<Decision> {
  try {
    await sendTransaction([authorizationItem(record), ...declineItem(record)]);
    return { approved: record.approved, reason: record.reason };
  } catch (error) {
    if (!isCancelled(error)) throw error;
    return answerAgain(record.authorizationId, record.lastRequest ?? 0);
  }
}

/**
 * The record's side of a later request: its answer, and what it adds to the
 * hold. Conditioned on no later request having been decided, so a redelivery
 * (or two at once) is decided once.
 */
function requestUpdate(authorizationId: string, index: number, decision: RequestDecision, heldCents: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.authorization(authorizationId),
      UpdateExpression:
        'SET lastRequest = :index, requests.#index = :decision, ' +
        'heldCents = heldCents + :held, amountCents = amountCents + :held',
      ConditionExpression: 'lastRequest < :index',
      ExpressionAttributeNames: { '#index': String(index) },
      ExpressionAttributeValues: { ':index': index, ':decision': decision, ':held': heldCents },
    },
  };
}

/**
 * A later request on an authorization already decided: the merchant asks for
 * more (an incremental authorization). Decided by the same rules against the
 * spendable balance for the extra amount; approved, the extra amount is held in
 * the same transaction that records the answer. Declined, the amount approved
 * before stays approved and held.
 */
async function decideIncrement(
  request: AuthorizationRequest,
  index: number,
  auth: AuthorizationRecord,
  loaded: Loaded,
  now: Date,
): Promise<Decision> {
  const decidedAt = now.toISOString();
  const userId = loaded.userId;
  const decision = (approved: boolean, reason?: string): RequestDecision => ({
    approved,
    ...(reason !== undefined ? { reason } : {}),
    amountCents: request.amountCents,
    decidedAt,
  });
  const write = async (answer: RequestDecision, posting?: Posting): Promise<Decision> => {
    const held = posting ? request.amountCents : 0;
    try {
      await sendTransaction([
        requestUpdate(auth.authorizationId, index, answer, held),
        ...(posting ? postingItems(posting, decidedAt) : []),
      ]);
      return { approved: answer.approved, reason: answer.reason };
    } catch (error) {
      if (!isCancelled(error)) throw error;
      // Item 0 is the request's answer: already recorded means a redelivery won the race.
      if (error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
        return answerAgain(auth.authorizationId, index);
      }
      if (!posting || !userId) throw error;
      try {
        explainCancellation(error, posting, 1);
      } catch (cause) {
        if (!(cause instanceof InsufficientFunds)) throw cause;
        // Another purchase spent the money between our read and our write.
        const balance = await balanceOf(cardAccount(userId));
        return write(decision(false, overBalanceReason(request.amountCents, balance)));
      }
      throw error;
    }
  };

  // Nothing approved to add to (the purchase was declined, or the card is not the owner's any more).
  if (!auth.approved || !userId || userId !== auth.userId || !auth.teamId) {
    return write(decision(false, auth.reason ?? 'This purchase was declined.'));
  }
  const reason = refusal(request, loaded.card, loaded.user, loaded.balanceCents);
  if (reason !== undefined) return write(decision(false, reason));
  if (request.amountCents === 0) return write(decision(true));
  return write(
    decision(true),
    authorizationHold({
      authorizationId: auth.authorizationId,
      increment: index,
      teamId: auth.teamId,
      userId,
      amountCents: request.amountCents,
      merchant: request.merchantName,
    }),
  );
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
  const index = request.requestIndex ?? 0;
  const decidedAt = now.toISOString();
  return recordDecision({
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
    decidedAt,
    captures: {},
    lastRequest: index,
    requests: { [index]: { approved: false, reason, amountCents: request.amountCents, decidedAt } },
  });
}
