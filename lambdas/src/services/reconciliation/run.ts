/**
 * Daily reconciliation of the ledger with Stripe (docs/ledger.md,
 * "Reconciliation"). Reads what Stripe created since the last run, list by
 * list (charges, refunds, issuing transactions, then authorizations, so
 * captures settle before holds are compared), paged by the SDK. What the
 * product's own flows would have posted is posted through them; what no plan
 * explains is recorded, e-mailed to operations and counted as a metric, never
 * "fixed". Running it again posts nothing and reports nothing new.
 */

import { formatCents } from '@shared/domain/money';
import type Stripe from 'stripe';
import { sendEmail } from '../../adapters/email';
import { stripe } from '../../adapters/stripe';
import {
  getWatermark,
  type ReconDifference,
  type ReconSource,
  recordDifference,
  setWatermark,
} from '../../data/reconciliation';
import { mailConfig } from '../../platform/config';
import { errorFields, type Logger } from '../../platform/log';
import { metrics } from '../../platform/metrics';
import { reconcileCharge, reconcileRefund } from './charges';
import { reconcileIssuingAuthorization, reconcileIssuingTransaction } from './issuing';
import type { Outcome } from './outcome';

/** Each run reads again this far before the last watermark: posting is idempotent, and clocks differ. */
export const OVERLAP_SECONDS = 60 * 60;
/** Objects younger than this are left to the next run: their own flow (a request, a webhook) may still be posting. */
export const SETTLE_SECONDS = 10 * 60;
/** The first run ever reads this far back. */
export const FIRST_RUN_DAYS = 7;
/**
 * Stripe expires an uncaptured authorization days after it was created (up to
 * 31 for lodging and the like), so its expiry is never in the `created`
 * window a watermark gives: expired ones are read by status over this many
 * days back, every run.
 */
export const EXPIRY_LOOKBACK_DAYS = 32;
/** Objects reconciled at once within a page. */
const CONCURRENCY = 10;

export interface ReconSummary {
  [key: string]: number;
  examined: number;
  matched: number;
  posted: number;
  /** New differences (recorded, e-mailed, counted). */
  differences: number;
  /** Objects whose reconciliation threw; their list's watermark stays, so the next run tries again. */
  failed: number;
}

interface SourceDef<T extends { id: string; created: number }> {
  source: ReconSource;
  /** Days of `created` read every run, whatever the watermark (a change that comes long after creation). */
  lookbackDays?: number;
  list: (s: Stripe, created: { gte: number; lt: number }) => AsyncIterable<T>;
  reconcile: (item: T) => Promise<Outcome>;
}

async function reconcileSource<T extends { id: string; created: number }>(
  def: SourceDef<T>,
  window: { gte: number; lt: number },
  found: Omit<ReconDifference, 'foundAt'>[],
  summary: ReconSummary,
  log: Logger,
): Promise<void> {
  const s = await stripe();
  const failedBefore = summary.failed;
  const settle = async (batch: T[]) => {
    await Promise.all(
      batch.map(async (item) => {
        summary.examined++;
        try {
          const outcome = await def.reconcile(item);
          if (outcome.status === 'difference') found.push(outcome.difference);
          else summary[outcome.status]++;
        } catch (error) {
          summary.failed++;
          log.error('reconciling a Stripe object failed; the next run tries again', {
            source: def.source,
            id: item.id,
            ...errorFields(error),
          });
        }
      }),
    );
  };
  let batch: T[] = [];
  for await (const item of def.list(s, window)) {
    batch.push(item);
    if (batch.length >= CONCURRENCY) {
      await settle(batch);
      batch = [];
    }
  }
  await settle(batch);
  // A list read over a fixed lookback keeps no watermark: every run reads its days again.
  if (summary.failed === failedBefore && !def.lookbackDays)
    await setWatermark(def.source, window.lt, new Date().toISOString());
}

function sources(now: Date, log: Logger): SourceDef<{ id: string; created: number }>[] {
  const page = { limit: 100 } as const;
  const defs = [
    {
      source: 'charges',
      list: (s, created) => s.charges.list({ ...page, created }),
      reconcile: (c) => reconcileCharge(c, now, log),
    } satisfies SourceDef<Stripe.Charge>,
    {
      source: 'refunds',
      list: (s, created) => s.refunds.list({ ...page, created }),
      reconcile: (r) => reconcileRefund(r),
    } satisfies SourceDef<Stripe.Refund>,
    {
      source: 'issuingTransactions',
      list: (s, created) => s.issuing.transactions.list({ ...page, created }),
      reconcile: (t) => reconcileIssuingTransaction(t, log),
    } satisfies SourceDef<Stripe.Issuing.Transaction>,
    {
      source: 'issuingAuthorizations',
      list: (s, created) => s.issuing.authorizations.list({ ...page, created }),
      reconcile: (a) => reconcileIssuingAuthorization(a, now),
    } satisfies SourceDef<Stripe.Issuing.Authorization>,
    {
      // An expiry webhook lost for good: the hold Stripe gave back is released here.
      source: 'expiredAuthorizations',
      lookbackDays: EXPIRY_LOOKBACK_DAYS,
      list: (s, created) => s.issuing.authorizations.list({ ...page, created, status: 'expired' }),
      reconcile: (a) => reconcileIssuingAuthorization(a, now),
    } satisfies SourceDef<Stripe.Issuing.Authorization>,
  ];
  return defs as unknown as SourceDef<{ id: string; created: number }>[];
}

function reportText(differences: ReconDifference[]): string {
  return [
    `Reconciliation found ${differences.length} difference(s) between the ledger and Stripe that it did not change:`,
    '',
    ...differences.map(
      (d) =>
        `- ${d.kind} ${d.stripeObjectId}${d.teamId ? ` (team ${d.teamId})` : ''}: Stripe ${formatCents(d.stripeCents)}, ledger ${formatCents(d.ledgerCents)}. ${d.message}`,
    ),
    '',
    'Each is stored as a ReconDifference item (docs/data-model.md) and reported once.',
  ].join('\n');
}

export async function runReconciliation(now: Date, log: Logger): Promise<ReconSummary> {
  const summary: ReconSummary = { examined: 0, matched: 0, posted: 0, differences: 0, failed: 0 };
  const found: Omit<ReconDifference, 'foundAt'>[] = [];
  const lt = Math.floor(now.getTime() / 1000) - SETTLE_SECONDS;
  for (const def of sources(now, log)) {
    const gte = def.lookbackDays
      ? lt - def.lookbackDays * 86_400
      : ((await getWatermark(def.source)) ?? lt - FIRST_RUN_DAYS * 86_400) - OVERLAP_SECONDS;
    await reconcileSource(def, { gte: Math.max(0, gte), lt }, found, summary, log);
  }
  const foundAt = now.toISOString();
  const fresh: ReconDifference[] = [];
  for (const difference of found) {
    const recorded = { ...difference, foundAt };
    if (await recordDifference(recorded)) fresh.push(recorded);
  }
  summary.differences = fresh.length;
  metrics.reconciliationDifferences(
    fresh.length,
    fresh.reduce((sum, d) => sum + Math.abs(d.stripeCents - d.ledgerCents), 0),
  );
  if (fresh.length > 0) {
    log.warn('reconciliation differences', { count: fresh.length, ids: fresh.map((d) => d.stripeObjectId) });
    const { OPERATIONS_INBOX, SUPPORT_INBOX } = mailConfig();
    await sendEmail({
      to: [OPERATIONS_INBOX ?? SUPPORT_INBOX],
      subject: `Reconciliation: ${fresh.length} difference(s) between the ledger and Stripe`,
      text: reportText(fresh),
    });
  }
  return summary;
}
