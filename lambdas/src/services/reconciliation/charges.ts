/**
 * Charges to managers' cards against the ledger's credits. Every charge the
 * product makes names its purpose in its metadata (adapters/stripe.ts), and
 * each purpose names the entries that credit it:
 *
 *   JOIN#<userId>              -> JOIN#<userId>
 *   CYCLE#<teamId>#<yyyy-mm>   -> FUNDING#<teamId>#<userId>#<yyyy-mm> for each member of the stored plan
 *   DEPOSIT#<key>#<userId>     -> DEPOSIT#<key>#<userId>
 *
 * A charge whose credits are missing is finished by the flow that made it
 * (the same functions and entry ids its own retry would use), so the credit is
 * posted once whoever gets there first. Anything else is a difference.
 */

import { funding } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { chargedCard } from '../../adapters/stripe';
import { getTeam } from '../../data/accounts';
import { getJournal, post, teamJournalSince } from '../../data/ledger';
import { getUser } from '../../data/users';
import type { Logger } from '../../platform/log';
import {
  activateEmployee,
  type CyclePlan,
  type MemberRecord,
  type RenewableTeam,
  renewTeam,
} from '../billing';
import { updateBackstop } from '../cards';
import { collectDebt, sweepToPool } from '../money';
import { differs, ledgerCents, matched, type Outcome, posted } from './outcome';

type Finish = () => Promise<void>;

interface Expectation {
  entryIds: string[];
  /** Finishes the original flow; undefined when no plan ties the charge to credits. */
  finish?: Finish;
  /** Why it cannot be finished, for the report. */
  reason?: string;
}

async function joinExpectation(charge: Stripe.Charge, userId: string, now: Date, log: Logger) {
  const user = (await getUser(userId)) as MemberRecord | undefined;
  const attempt = user?.joinAttempt;
  const resumable = user?.fundingPending && attempt?.status !== 'funded' && attempt?.cents === charge.amount;
  return {
    entryIds: [`JOIN#${userId}`],
    finish: resumable
      ? async () => {
          await activateEmployee(userId, now, log);
        }
      : undefined,
    reason: resumable ? undefined : 'no pending joining attempt of this amount',
  };
}

function isPlan(attempt: RenewableTeam['cycleAttempt']): attempt is CyclePlan {
  return Boolean(attempt && Array.isArray((attempt as CyclePlan).members));
}

async function cycleExpectation(
  charge: Stripe.Charge,
  teamId: string,
  month: string,
  now: Date,
  log: Logger,
) {
  const team = (await getTeam(teamId)) as RenewableTeam | undefined;
  const plan = team?.cycleAttempt;
  if (!team || !isPlan(plan) || plan.month !== month || plan.totalCents !== charge.amount) {
    // A later month's plan replaced this one (only once this month was renewed: renewTeam
    // credits an earlier month's taken charge before planning over it): its credits
    // are the month's FUNDING entries naming this charge, posted around the charge (the job's
    // time may be a little before Stripe's), so the team's journal from a day before is read.
    const since = new Date((charge.created - 86_400) * 1000).toISOString();
    const credits = (await teamJournalSince(teamId, since)).filter(
      (e) =>
        e.entryId.startsWith(`FUNDING#${teamId}#`) &&
        e.entryId.endsWith(`#${month}`) &&
        e.references?.charge === charge.id,
    );
    return { entryIds: credits.map((e) => e.entryId), reason: 'no renewal plan of this month and amount' };
  }
  const renewed = (team.lastRenewedMonth ?? '') >= month;
  return {
    entryIds: plan.members.map((m) => `FUNDING#${teamId}#${m.userId}#${month}`),
    finish: renewed
      ? undefined
      : async () => {
          await renewTeam(team, month, now, log);
        },
    reason: renewed ? 'the renewal is marked done but credits are missing' : undefined,
  };
}

/** A deposit charges each person separately, so the charge itself is the plan: its amount, to its person. */
async function depositExpectation(
  charge: Stripe.Charge,
  entryId: string,
  teamId: string,
  userId: string,
  now: Date,
) {
  const user = await getUser(userId);
  if (!user || user.teamId !== teamId || !entryId.endsWith(`#${userId}`))
    return { entryIds: [entryId], reason: 'the deposit names no member of its team' };
  return {
    entryIds: [entryId],
    finish: async () => {
      await post(
        funding({
          entryId,
          kind: 'deposit',
          teamId,
          userId,
          amountCents: charge.amount,
          description: 'Extra deposit',
          chargeId: charge.id,
          card: chargedCard(charge),
        }),
        now.toISOString(),
      );
      // What the deposit request does after its credit.
      if (user.status === 'deleted') await sweepToPool(user, 'removed');
      else {
        await collectDebt(userId, teamId);
        if (user.cardId) await updateBackstop(userId, user.cardId);
      }
    },
  };
}

async function expectationOf(
  charge: Stripe.Charge,
  now: Date,
  log: Logger,
): Promise<Expectation | undefined> {
  const purpose = charge.metadata?.purpose ?? '';
  const teamId = charge.metadata?.teamId ?? '';
  const userId = charge.metadata?.userId ?? '';
  const [kind, first, second] = purpose.split('#');
  if (kind === 'JOIN' && first) return joinExpectation(charge, first, now, log);
  if (kind === 'CYCLE' && first && second) return cycleExpectation(charge, first, second, now, log);
  if (kind === 'DEPOSIT' && teamId && userId) return depositExpectation(charge, purpose, teamId, userId, now);
  return undefined;
}

export async function reconcileCharge(charge: Stripe.Charge, now: Date, log: Logger): Promise<Outcome> {
  if (charge.status !== 'succeeded') return matched; // nothing was taken
  const base = {
    stripeObjectId: charge.id,
    stripeCents: charge.amount,
    ...(charge.metadata?.teamId ? { teamId: charge.metadata.teamId } : {}),
  };
  const expected = await expectationOf(charge, now, log);
  if (!expected)
    return differs({
      ...base,
      kind: 'unknownCharge',
      ledgerCents: 0,
      message: 'A charge made for no purpose we know.',
    });
  const before = await ledgerCents(expected.entryIds);
  if (before.missing.length === 0 && expected.entryIds.length > 0) {
    if (before.cents === charge.amount) return matched;
    return differs({
      ...base,
      kind: 'chargeAmountMismatch',
      ledgerCents: before.cents,
      message: 'The credits for this charge add up to another amount.',
    });
  }
  if (!expected.finish)
    return differs({
      ...base,
      kind: 'uncreditedCharge',
      ledgerCents: before.cents,
      message: `A charge with credits missing: ${expected.reason ?? 'nothing to finish'}.`,
    });
  await expected.finish();
  const after = await ledgerCents(expected.entryIds);
  if (after.missing.length === 0 && after.cents === charge.amount) return posted;
  return differs({
    ...base,
    kind: 'uncreditedCharge',
    ledgerCents: after.cents,
    message: `Finishing the charge's flow left credits missing (${after.missing.join(', ') || 'amounts differ'}).`,
  });
}

/**
 * A refund of one of our charges. The product refunds only in redemptions,
 * with purpose `<redemption entry id>#<chargeId>` (`REDEEM#…` for removed
 * people's money, `CLOSE#<teamId>` for the pool redeemed on closing); the
 * redemption's entry lists the refunds it made. Anything else (a refund made in Stripe's dashboard, a
 * redemption cut off before its posting) is a difference: the pool still holds
 * money Stripe returned, and only a person can say what it was for.
 */
export async function reconcileRefund(refund: Stripe.Refund): Promise<Outcome> {
  if (refund.status === 'failed' || refund.status === 'canceled') return matched;
  const chargeId = typeof refund.charge === 'string' ? refund.charge : (refund.charge?.id ?? '');
  const purpose = refund.metadata?.purpose ?? '';
  const base = {
    stripeObjectId: refund.id,
    stripeCents: refund.amount,
    ...(refund.metadata?.teamId ? { teamId: refund.metadata.teamId } : {}),
  };
  const redemption = purpose.startsWith('REDEEM#') || purpose.startsWith('CLOSE#');
  if (!redemption || !purpose.endsWith(`#${chargeId}`))
    return differs({
      ...base,
      kind: 'unknownRefund',
      ledgerCents: 0,
      message: `A refund of ${chargeId} made outside the product.`,
    });
  const entryId = purpose.slice(0, -(chargeId.length + 1));
  const entry = await getJournal(entryId);
  const listed = entry?.refunds?.find((r) => r.refundId === refund.id || r.chargeId === chargeId);
  if (listed && listed.amountCents === refund.amount) return matched;
  return differs({
    ...base,
    kind: 'refundNotInLedger',
    ledgerCents: listed?.amountCents ?? 0,
    message: entry
      ? `Redemption ${entryId} lists another amount for this refund.`
      : `Redemption ${entryId} refunded but was never posted; the manager's retry finishes it.`,
  });
}
