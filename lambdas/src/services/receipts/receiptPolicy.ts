/**
 * The receipt policy (docs/decisions.md "Receipt deadline"): a receipt is due
 * 5 business days after the purchase; reminders go out 2 business days before
 * and on the due day; once one is overdue the card is frozen with the reason
 * `missingReceipt`, at the issuer and in our records, and the employee and the
 * manager are told; when every overdue receipt is in, that reason is lifted at
 * once, and the card is active again unless another reason (a manager's own
 * freeze, dormancy) remains.
 *
 * Invariant: this module only ever adds or removes `missingReceipt` in
 * `card.freeze`; it never touches the other reasons. Each add or lift is
 * written with its Activity Log entry (services/team/systemAudit.ts), conditioned
 * on the reason being off or on, so a repeated run changes and logs nothing.
 */
import { receiptDueDay, receiptStage } from '@shared/domain/businessDays';
import { dayIn } from '@shared/domain/calendar';
import type { FreezeReasons } from '@shared/domain/spendPolicy';
import type { CardAfterReceipt } from '@shared/schemas/purchases';
import { setCardStatus as setIssuerCardStatus } from '../../adapters/stripe';
import { getTeamZone, listTeamUsers, type TeamRecord, teamsWithBilling, zoneOf } from '../../data/accounts';
import { type CardRecord, changeCardFreeze, getCard, getCards } from '../../data/cards';
import {
  markReminderSent,
  teamPurchasesAwaitingReceipt,
  userPurchasesAwaitingReceipt,
} from '../../data/purchaseReceipts';
import type { PurchaseRecord } from '../../data/purchases';
import { getUser, type UserRecord } from '../../data/users';
import { mapWithConcurrency } from '../../platform/concurrency';
import type { Logger } from '../../platform/log';
import { receiptFreezeEntry, receiptFreezeLiftedEntry } from '../team';
import { type ReceiptLine, sendFrozenForReceipts, sendReceiptReminder, sendUnfrozen } from './receiptEmails';

/** A purchase as the e-mails list it, its days in the team's zone. */
function lineIn(zone: string) {
  return (p: PurchaseRecord): ReceiptLine => ({
    merchant: p.merchant,
    amountCents: p.amountCents,
    purchasedOn: dayIn(p.createdAt, zone),
    dueDay: receiptDueDay(p.createdAt, zone),
  });
}

function otherReasons(freeze: FreezeReasons | undefined): FreezeReasons {
  const { missingReceipt: _lifted, ...rest } = freeze ?? {};
  return Object.fromEntries(Object.entries(rest).filter(([, on]) => on)) as FreezeReasons;
}

/**
 * Adds `missingReceipt` to the card's reasons, with its audit entry; false when
 * it was already there (nothing done, nothing logged).
 */
async function freezeForReceipts(
  card: CardRecord,
  overdue: PurchaseRecord[],
  now: Date,
  zone: string,
): Promise<boolean> {
  if (card.freeze?.missingReceipt || card.status === 'canceled') return false;
  // Issuer first: if it fails, our record still says active and tomorrow's run tries again.
  if (card.status !== 'inactive') await setIssuerCardStatus(card.cardId, 'inactive');
  return changeCardFreeze(
    card.cardId,
    { status: 'inactive', freeze: { ...card.freeze, missingReceipt: true } },
    { reason: 'missingReceipt', on: false },
    receiptFreezeEntry(card, overdue, now.toISOString(), zone),
  );
}

/**
 * Lifts `missingReceipt`, with its audit entry; the card is active again only
 * when no other reason remains. `lifted` is false when another caller (the job
 * and an upload at once) lifted it first: it has told the employee and logged it.
 */
async function liftReceiptFreeze(
  card: CardRecord,
  now: Date,
): Promise<{ outcome: 'active' | 'stillFrozen'; lifted: boolean }> {
  const rest = otherReasons(card.freeze);
  const still = Object.keys(rest) as (keyof FreezeReasons)[];
  const entry = receiptFreezeLiftedEntry(card, still, now.toISOString());
  const expected = { reason: 'missingReceipt', on: true } as const;
  if (still.length > 0)
    return {
      outcome: 'stillFrozen',
      lifted: await changeCardFreeze(card.cardId, { freeze: rest }, expected, entry),
    };
  await setIssuerCardStatus(card.cardId, 'active');
  return {
    outcome: 'active',
    lifted: await changeCardFreeze(card.cardId, { status: 'active', freeze: {} }, expected, entry),
  };
}

export interface ReceiptRunSummary {
  remindersSent: number;
  cardsFrozen: number;
  cardsUnfrozen: number;
  teamsFailed: number;
}

/**
 * One team's run: reminders, freezes, and freezes no longer needed. Reads only
 * the team's purchases awaiting a receipt (gsi3), not its history.
 */
async function runTeam(team: TeamRecord, now: Date, summary: ReceiptRunSummary) {
  const zone = zoneOf(team);
  const line = lineIn(zone);
  const today = dayIn(now, zone);
  const awaiting = await teamPurchasesAwaitingReceipt(team.teamId);
  const members = new Map((await listTeamUsers(team.teamId)).map((u) => [u.userId, u]));
  const cards = await getCards([...members.values()].flatMap((u) => (u.cardId ? [u.cardId] : [])));
  const manager = members.get(team.managerId);

  const byUser = new Map<string, PurchaseRecord[]>();
  for (const p of awaiting) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);

  for (const [userId, purchases] of byUser) {
    const user = members.get(userId);
    if (!user || user.status === 'deleted') continue;
    const overdue = purchases.filter((p) => receiptStage(p.createdAt, now, zone) === 'overdue');
    const card = user.cardId ? cards.get(user.cardId) : undefined;
    if (overdue.length > 0 && card && (await freezeForReceipts(card, overdue, now, zone))) {
      summary.cardsFrozen++;
      await sendFrozenForReceipts(
        user,
        manager,
        `${user.firstName} ${user.lastName}`.trim(),
        overdue.map(line),
      );
    }
    const remind: PurchaseRecord[] = [];
    for (const p of purchases) {
      const stage = receiptStage(p.createdAt, now, zone);
      if ((stage === 'reminder' || stage === 'dueToday') && (await markReminderSent(p.purchaseId, stage)))
        remind.push(p);
    }
    if (remind.length > 0) {
      await sendReceiptReminder(user.email, user.firstName, remind.map(line), today);
      summary.remindersSent++;
    }
  }

  // A receipt freeze whose receipts are all in (the upload's own unfreeze failed,
  // or a manager's activation cleared and re-froze it) is lifted here.
  for (const user of members.values()) {
    const card = user.cardId ? cards.get(user.cardId) : undefined;
    if (!card?.freeze?.missingReceipt || card.status === 'canceled') continue;
    const stillOverdue = (byUser.get(user.userId) ?? []).some(
      (p) => receiptStage(p.createdAt, now, zone) === 'overdue',
    );
    if (stillOverdue) continue;
    const { outcome, lifted } = await liftReceiptFreeze(card, now);
    if (lifted && outcome === 'active') {
      summary.cardsUnfrozen++;
      await sendUnfrozen(user.email, user.firstName);
    }
  }
}

/** The daily run. One team's failure is logged and counted; the others go on. */
/**
 * Teams handled at once. Teams share no item, and each freeze or unfreeze is
 * a Stripe call (a few hundred ms in AWS), so one team after another would not
 * fit thousands of employees in the job's timeout (`npm run bench -- --jobs`).
 */
export const RECEIPT_TEAMS_AT_ONCE = 4;

export async function runReceiptDeadlines(now: Date, log: Logger): Promise<ReceiptRunSummary> {
  const summary: ReceiptRunSummary = { remindersSent: 0, cardsFrozen: 0, cardsUnfrozen: 0, teamsFailed: 0 };
  await mapWithConcurrency(await teamsWithBilling(), RECEIPT_TEAMS_AT_ONCE, async (team) => {
    try {
      await runTeam(team, now, summary);
    } catch (error) {
      summary.teamsFailed++;
      log.error('receipt deadlines failed for a team', {
        teamId: team.teamId,
        error: error instanceof Error ? error.message : 'unknown',
      });
    }
  });
  return summary;
}

/**
 * Called when a receipt is in (the receipt upload's confirm calls this after
 * marking the purchase received). When no overdue receipt remains, the
 * `missingReceipt` freeze is lifted at once; a manager's own freeze stays.
 */
export async function onReceiptReceived(userId: string, now: Date): Promise<{ card: CardAfterReceipt }> {
  const user: UserRecord | undefined = await getUser(userId);
  const card = user?.cardId ? await getCard(user.cardId) : undefined;
  if (!user || !card?.freeze?.missingReceipt || card.status === 'canceled')
    return { card: 'notFrozenForReceipts' };
  const [awaiting, zone] = await Promise.all([
    userPurchasesAwaitingReceipt(user.teamId, userId),
    getTeamZone(user.teamId),
  ]);
  const overdue = awaiting.some((p) => receiptStage(p.createdAt, now, zone) === 'overdue');
  if (overdue) return { card: 'stillOverdue' };
  const { outcome, lifted } = await liftReceiptFreeze(card, now);
  if (lifted && outcome === 'active') await sendUnfrozen(user.email, user.firstName);
  return { card: outcome };
}

/**
 * The employee's purchases whose overdue receipts keep their card frozen,
 * oldest first, as the daily job judges them (so the banner and the freeze
 * never disagree). Read only while a receipt freeze is on.
 */
export async function overdueReceipts(teamId: string, userId: string, now: Date) {
  const [awaiting, zone] = await Promise.all([
    userPurchasesAwaitingReceipt(teamId, userId),
    getTeamZone(teamId),
  ]);
  return awaiting
    .filter((p) => receiptStage(p.createdAt, now, zone) === 'overdue')
    .map((p) => ({
      purchaseId: p.purchaseId,
      title: p.title ?? null,
      merchant: p.merchant,
      amountCents: p.amountCents,
      date: p.createdAt,
      dueDate: receiptDueDay(p.createdAt, zone),
    }));
}

/**
 * Receipts still awaited per employee of a team, and of those the overdue ones
 * (the manager's roster: overdue receipts are what freezes a card). One read of gsi3.
 */
export async function receiptCounts(
  teamId: string,
  now: Date,
): Promise<Map<string, { outstanding: number; overdue: number }>> {
  const counts = new Map<string, { outstanding: number; overdue: number }>();
  const [awaiting, zone] = await Promise.all([teamPurchasesAwaitingReceipt(teamId), getTeamZone(teamId)]);
  for (const p of awaiting) {
    const count = counts.get(p.userId) ?? { outstanding: 0, overdue: 0 };
    count.outstanding++;
    if (receiptStage(p.createdAt, now, zone) === 'overdue') count.overdue++;
    counts.set(p.userId, count);
  }
  return counts;
}

/** Receipts still awaited per employee of a team. */
export async function receiptsOutstanding(teamId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const p of await teamPurchasesAwaitingReceipt(teamId))
    counts.set(p.userId, (counts.get(p.userId) ?? 0) + 1);
  return counts;
}
