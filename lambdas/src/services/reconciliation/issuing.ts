/**
 * Issuing transactions and authorizations against the ledger. A transaction
 * whose webhook never arrived is applied by the webhook's own functions
 * (cardSettlement.ts), keyed by Stripe's ids (`CAPTURE#<ipi_>`,
 * `REFUND#<ipi_>`), so a late delivery afterwards is a duplicate. An
 * authorization is brought to the state Stripe lists (a hold Stripe released
 * is released here too).
 */
import type Stripe from 'stripe';
import { getAuthorization, getCard } from '../../data/cards';
import { getJournal } from '../../data/ledger';
import type { Logger } from '../../platform/log';
import { applyCapture, applyMerchantRefund, syncAuthorization } from '../cards';
import { differs, matched, movedCents, type Outcome, posted } from './outcome';

function idOf(value: string | { id: string } | null | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.id;
}

export async function reconcileIssuingTransaction(
  t: Stripe.Issuing.Transaction,
  log: Logger,
): Promise<Outcome> {
  if (t.type !== 'capture' && t.type !== 'refund') return matched;
  const amountCents = Math.abs(t.amount);
  const entryId = `${t.type === 'refund' ? 'REFUND' : 'CAPTURE'}#${t.id}`;
  const cardId = idOf(t.card) as string;
  const entry = await getJournal(entryId);
  const card = entry ? undefined : await getCard(cardId);
  const base = {
    stripeObjectId: t.id,
    stripeCents: amountCents,
    ...(entry || card ? { teamId: entry?.teamId ?? card?.teamId } : {}),
  };
  if (entry) {
    const cents = movedCents(entry);
    if (cents === amountCents) return matched;
    return differs({
      ...base,
      kind: 'transactionAmountMismatch',
      ledgerCents: cents,
      message: `${entryId} moved another amount.`,
    });
  }
  if (!card)
    return differs({
      ...base,
      kind: 'unknownCard',
      ledgerCents: 0,
      message: `A ${t.type} on card ${cardId}, which we did not issue.`,
    });
  const common = {
    transactionId: t.id,
    cardId,
    amountCents,
    merchant: t.merchant_data?.name ?? 'the merchant',
    createdAt: new Date(t.created * 1000).toISOString(),
    authorizationId: idOf(t.authorization),
  };
  const result =
    t.type === 'refund'
      ? await applyMerchantRefund(common)
      : await applyCapture({ ...common, category: t.merchant_data?.category ?? 'unknown' }, log);
  return result.status === 'posted' ? posted : matched;
}

export async function reconcileIssuingAuthorization(
  auth: Stripe.Issuing.Authorization,
  now: Date,
): Promise<Outcome> {
  const record = await getAuthorization(auth.id);
  if (!record) {
    if (!auth.approved) return matched;
    return differs({
      stripeObjectId: auth.id,
      stripeCents: auth.amount,
      ledgerCents: 0,
      kind: 'unrecordedAuthorization',
      message: 'Stripe approved an authorization we have no decision for.',
    });
  }
  const captures: Record<string, number> = {};
  for (const t of auth.transactions ?? []) if (t.type === 'capture') captures[t.id] = Math.abs(t.amount);
  const result = await syncAuthorization(
    {
      authorizationId: auth.id,
      status: auth.status,
      amountCents: auth.amount,
      captures,
      requestCount: auth.request_history?.length,
    },
    now,
  );
  return result?.status === 'posted' ? posted : matched;
}
