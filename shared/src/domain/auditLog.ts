/**
 * The team's activity log in words (manager console, "Activity"): what each
 * audit event or money movement means to a manager, which kind of activity it
 * is (for the filter), and the amount it moved. Pure, so the words are tested
 * once and the same everywhere.
 */
import { formatUsDay, isDay } from './calendar';
import { cardOnFileName } from './cardBrand';
import type { PostingKind } from './ledger';
import { formatCents } from './money';
import { descriptionInWords } from './monthWords';

/**
 * The actor of what the product does by itself (the daily jobs, the card
 * network's movements, a lifted freeze after an upload), and how a manager
 * reads it: not a person, not "System".
 */
export const SYSTEM_ACTOR = 'system';
export const SYSTEM_ACTOR_NAME = 'Learning Budget (automatic)';

export const AUDIT_KINDS = ['people', 'cards', 'money', 'billing'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  people: 'People',
  cards: 'Cards',
  money: 'Money',
  billing: 'Billing',
};

/** The filter group of an action (`employee.paused`, `money.capture`, ...). */
export function auditKind(action: string): AuditKind {
  const prefix = action.split('.')[0] ?? '';
  if (prefix === 'card') return 'cards';
  if (prefix === 'funds' || prefix === 'money' || prefix === 'cycle' || prefix === 'request') return 'money';
  if (prefix === 'billing') return 'billing';
  return 'people';
}

/** Every kind of ledger movement, in words: typed, so a new kind cannot be added without them. */
const MONEY_WORDS: Record<PostingKind, string> = {
  funding: 'Budget funded',
  deposit: 'Extra deposit credited',
  authorization: 'Purchase authorized (held)',
  capture: 'Purchase settled',
  release: 'Hold released',
  refund: 'Merchant refund',
  reallocation: 'Budget reallocated',
  redemption: 'Budget redeemed to the team’s card',
  poolTransfer: 'Budget moved to the team pool',
  poolReturn: 'Budget returned from the team pool',
  debtRepayment: 'Overdraft repaid',
  accountSplit: 'Bookkeeping: card network and fee accounts moved to the team’s own',
};

/**
 * Every action the services write to the audit log, in words. The server's
 * `recordAudit` takes only these keys, so an action cannot be written without
 * words for the Activity Log (test/unit/auditLog.test.ts).
 */
const ACTION_WORDS = {
  'employee.paused': 'Paused',
  'employee.unpaused': 'Unpaused',
  'employee.updated': 'Edited profile',
  'employee.deleted': 'Removed from the team',
  'employee.reactivated': 'Reactivated: new card, pooled budget returned',
  'account.deleted': 'Deleted their own account',
  'account.secondFactorOn': 'Turned on two-step sign-in',
  'account.secondFactorOff': 'Turned off two-step sign-in',
  'account.recoveryCodesRenewed': 'Made new recovery codes',
  'account.passwordChanged': 'Changed their password',
  'employees.invited': 'Invited',
  'invitation.withdrawn': 'Invitation withdrawn',
  'invitation.scheduled': 'Scheduled to be invited on their start date',
  'invitation.scheduleCancelled': 'Scheduled start cancelled',
  'employee.lastDaySet': 'Set their last day',
  'employee.lastDayCleared': 'Cleared their last day',
  'employee.offboarded': 'Removed from the team on their last day',
  'card.frozen': 'Froze card',
  'card.activated': 'Activated card',
  'card.receiptFreeze': 'Froze card: receipt overdue',
  'card.receiptFreezeLifted': 'Lifted the receipt freeze',
  'card.dormant': 'Made card inactive and paused',
  'funds.reallocated': 'Reallocated budget',
  'funds.redeemed': 'Redeemed budget',
  'funds.deposited': 'Extra deposit',
  'receipt.uploaded': 'Uploaded a receipt',
  'receipt.replaced': 'Replaced a receipt',
  'receipt.refused': 'Receipt refused',
  'receipt.seen': 'Viewed a receipt',
  'billing.setup': 'Set up billing',
  'team.timeZone': 'Changed the team time zone',
  'billing.cardAdded': 'Added a card',
  'billing.defaultCard': 'Changed the primary card',
  'billing.cardDeleted': 'Deleted a card',
  'billing.subscriptionSuspended': 'Suspended the subscription',
  'billing.subscriptionResumed': 'Resumed the subscription',
  'billing.subscriptionClosed': 'Closed the subscription',
  'cycle.funded': 'Monthly budgets charged',
  'request.created': 'Asked for funds',
  'request.cancelled': 'Cancelled a fund request',
  'request.approved': 'Approved a fund request',
  'request.declined': 'Declined a fund request',
  'request.cardDeclined': 'Fund request approval declined by the card',
  'request.expired': 'Fund request expired',
  'team.requestRules': 'Changed the fund request rules',
  'provisioning.tokenCreated': 'Made a provisioning token',
  'provisioning.tokenRevoked': 'Revoked a provisioning token',
  'provisioning.settingsChanged': 'Changed the budgets of people added by provisioning',
  'purchase.skillChanged': 'Changed the skill area of a purchase',
} as const satisfies Record<string, string>;

/** An action the services may write to the audit log. */
export type AuditAction = keyof typeof ACTION_WORDS;
export const AUDIT_ACTIONS = Object.keys(ACTION_WORDS) as AuditAction[];
/** The actions the log reads from the ledger's journal, one per posting kind. */
export const MONEY_ACTIONS = (Object.keys(MONEY_WORDS) as PostingKind[]).map((kind) => `money.${kind}`);

/**
 * What came back to a reactivated person from the team pool (issue 28): the
 * Activity Log's details and the manager's e-mail say it the same way.
 */
export function reactivationWords(pooledCents: number, returnedCents: number): string {
  if (pooledCents === 0 && returnedCents === 0) return 'New card; nothing of theirs was in the team pool';
  const back = `${formatCents(returnedCents)} back from the team pool`;
  if (returnedCents >= pooledCents) return `New card; ${back}`;
  return `New card; ${back} (of ${formatCents(pooledCents)}: ${formatCents(pooledCents - returnedCents)} was already reallocated or redeemed)`;
}

/** Words for an action; an unknown one (an older server's) is shown as it is rather than hidden. */
export function describeAction(action: string): string {
  if (action.startsWith('money.')) return MONEY_WORDS[action.slice('money.'.length) as PostingKind] ?? action;
  return (ACTION_WORDS as Record<string, string>)[action] ?? action;
}

function cents(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * The amount an event moved, in cents, when it moved money: the total of a
 * manager's money action, or the sum of the positive legs of a movement.
 */
export function auditAmountCents(event: {
  action: string;
  after?: Record<string, unknown>;
}): number | undefined {
  const after = event.after ?? {};
  if (event.action.startsWith('money.') && Array.isArray(after.legs)) {
    const legs = after.legs as { amountCents?: unknown }[];
    return legs.reduce((sum, leg) => sum + Math.max(0, cents(leg.amountCents) ?? 0), 0);
  }
  if (event.action === 'funds.deposited') {
    const each = cents(after.amountCents);
    const results = Array.isArray(after.results) ? (after.results as { status?: unknown }[]) : [];
    const credited = results.filter((r) => r.status === 'credited').length;
    return each === undefined ? undefined : each * credited;
  }
  return cents(after.totalCents) ?? cents(after.amountCents);
}

/** A receipt that froze a card, as the receipt job records it. */
export interface OverdueReceiptNote {
  purchaseId: string;
  merchant: string;
  amountCents: number;
  /** The first day it was overdue (the day after its due day), `yyyy-mm-dd`. */
  overdueSince: string;
}

const FREEZE_WORDS: Record<string, string> = {
  manager: 'frozen by a manager',
  missingReceipt: 'a receipt overdue',
  dormant: 'no purchase for 13 months',
};

function isOverdueNote(value: unknown): value is OverdueReceiptNote {
  const note = value as Partial<OverdueReceiptNote> | null;
  return (
    typeof note?.merchant === 'string' &&
    cents(note.amountCents) !== undefined &&
    typeof note.overdueSince === 'string'
  );
}

/** Why the system changed a card, in words: the receipts overdue, all of them in, or the quiet months. */
function systemCardReason(action: string, after: Record<string, unknown>): string | undefined {
  if (action === 'card.receiptFreeze' && Array.isArray(after.overdue)) {
    const notes = after.overdue.filter(isOverdueNote);
    return notes
      .map(
        (n) =>
          `receipt for ${n.merchant} ${formatCents(n.amountCents)} overdue since ${formatUsDay(n.overdueSince)}`,
      )
      .join('; ');
  }
  if (action === 'card.receiptFreezeLifted') {
    const still = Array.isArray(after.stillFrozenFor) ? (after.stillFrozenFor as string[]) : [];
    const words = still.map((reason) => FREEZE_WORDS[reason] ?? reason);
    return `every overdue receipt is in${words.length ? `; still frozen: ${words.join(', ')}` : ''}`;
  }
  if (action === 'card.dormant') return FREEZE_WORDS.dormant;
  return undefined;
}

/** The names of the people an event is about, by user id, as GET /team/audit sends them. */
export type AuditNames = Readonly<Record<string, string>>;

/** Someone the log has no name for is no longer on the team's list. */
const nameIn = (names: AuditNames | undefined, userId: string) => names?.[userId] ?? 'Former member';

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** "From Omar Diaz: Ana Lee $10.00, Priya Shah $10.00": whose money it was and who received how much. */
function reallocationWords(from: string[], shares: [string, number][], names?: AuditNames): string {
  // By name: the shares are stored by user id, an order that means nothing to a reader.
  const received = shares
    .map(([userId, amount]) => ({ name: nameIn(names, userId), amount }))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, amount }) => `${name} ${formatCents(amount)}`)
    .join(', ');
  const giver = from.length > 0 ? `From ${from.map((id) => nameIn(names, id)).join(', ')}: ` : '';
  return `${giver}${received}`;
}

/** The cards a movement credited, as [userId, cents]. */
function creditedCards(after: Record<string, unknown>): [string, number][] {
  const legs = Array.isArray(after.legs)
    ? (after.legs as { account?: unknown; amountCents?: unknown }[])
    : [];
  return legs.flatMap((leg) => {
    const match = typeof leg.account === 'string' ? /^card:(.+)$/.exec(leg.account) : null;
    const amount = cents(leg.amountCents);
    return match?.[1] && amount !== undefined && amount > 0 ? [[match[1], amount] as [string, number]] : [];
  });
}

/** A redemption's split: what was refunded to the team’s card and the fee kept. */
function redemptionWords(netCents: number, feeCents: number): string {
  return `${formatCents(netCents)} refunded to the team’s card; fee ${formatCents(feeCents)}`;
}

/** What a manager's profile edit changed: the budget from the next cycle, the name, the job role. */
function profileChanges(before: Record<string, unknown>, after: Record<string, unknown>): string | undefined {
  const changes: string[] = [];
  const budgetBefore = cents(before.nextBudgetCents);
  const budgetAfter = cents(after.nextBudgetCents);
  if (budgetAfter !== undefined && budgetAfter !== budgetBefore)
    changes.push(
      budgetBefore === undefined
        ? `Budget set to ${formatCents(budgetAfter)}`
        : `Budget ${formatCents(budgetBefore)} → ${formatCents(budgetAfter)}`,
    );
  const name = (side: Record<string, unknown>) =>
    [side.firstName, side.lastName].filter((part) => typeof part === 'string').join(' ');
  if (name(after) && name(before) && name(after) !== name(before))
    changes.push(`Name ${name(before)} → ${name(after)}`);
  const role = (side: Record<string, unknown>) => (typeof side.jobRole === 'string' ? side.jobRole : 'None');
  // `jobRole` undefined after the edit means it was left as it was.
  if (after.jobRole !== undefined && role(after) !== role(before))
    changes.push(`Job role ${role(before)} → ${role(after)}`);
  return changes.length > 0 ? changes.join('; ') : undefined;
}

/** Details beyond the action: whose money went where, what an edit changed, a fee, a card, a status change. */
export function auditDetails(event: {
  action: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  names?: AuditNames;
}): string | undefined {
  const before = event.before ?? {};
  const after = event.after ?? {};
  const names = event.names;
  const reason = systemCardReason(event.action, after);
  if (reason !== undefined) {
    const card = typeof after.last4 === 'string' ? `${cardOnFileName({ last4: after.last4 })}: ` : '';
    return `${card}${reason}`;
  }
  if (event.action === 'money.reallocation')
    return reallocationWords(typeof after.user === 'string' ? [after.user] : [], creditedCards(after), names);
  if (event.action === 'funds.reallocated' && after.shares && typeof after.shares === 'object') {
    const shares = Object.entries(after.shares as Record<string, unknown>).flatMap(([userId, amount]) => {
      const value = cents(amount);
      return value === undefined ? [] : [[userId, value] as [string, number]];
    });
    return reallocationWords(strings(after.from), shares, names);
  }
  if (event.action === 'money.redemption' && Array.isArray(after.legs)) {
    const legs = after.legs as { account?: unknown; amountCents?: unknown }[];
    const leg = (prefix: string) =>
      cents(legs.find((l) => typeof l.account === 'string' && l.account.startsWith(prefix))?.amountCents);
    const net = leg('external:');
    if (net !== undefined) return redemptionWords(net, leg('revenue:') ?? 0);
  }
  if (event.action === 'funds.redeemed') {
    const total = cents(after.totalCents);
    const fee = cents(after.feeCents);
    if (total !== undefined && fee !== undefined) {
      const from = strings(after.from);
      const whose = from.length > 1 ? `From ${from.map((id) => nameIn(names, id)).join(', ')}: ` : '';
      return `${whose}${redemptionWords(total - fee, fee)}`;
    }
  }
  if (event.action === 'funds.deposited' && Array.isArray(after.results)) {
    const results = after.results as { userId?: unknown; status?: unknown }[];
    const who = (status: string) =>
      results
        .filter((r) => r.status === status && typeof r.userId === 'string')
        .map((r) => nameIn(names, r.userId as string));
    const credited = who('credited');
    const parts = [
      // One person is the row's "To whom"; several are named here.
      credited.length > 1 && cents(after.amountCents) !== undefined
        ? `${formatCents(after.amountCents as number)} each to ${credited.join(', ')}`
        : '',
      who('declined').length > 0 ? `declined: ${who('declined').join(', ')}` : '',
      who('skipped').length > 0 ? `skipped: ${who('skipped').join(', ')}` : '',
    ].filter(Boolean);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
  if (event.action === 'employee.updated') return profileChanges(before, after);
  if (event.action === 'employee.reactivated') {
    const pooled = cents(after.pooledCents);
    const returned = cents(after.returnedCents);
    if (pooled !== undefined && returned !== undefined) return reactivationWords(pooled, returned);
  }
  // Issue 28: days are the team's calendar days, printed as they are.
  if (event.action === 'employee.lastDaySet' && typeof after.lastDay === 'string' && isDay(after.lastDay))
    return `Last day ${formatUsDay(after.lastDay)}`;
  if (
    event.action === 'employee.lastDayCleared' &&
    typeof before.lastDay === 'string' &&
    isDay(before.lastDay)
  )
    return `Was ${formatUsDay(before.lastDay)}`;
  if (
    (event.action === 'invitation.scheduled' || event.action === 'invitation.scheduleCancelled') &&
    typeof after.email === 'string' &&
    typeof after.startDay === 'string' &&
    isDay(after.startDay)
  ) {
    const budget = cents(after.budgetCents);
    const money = budget === undefined ? '' : `, ${formatCents(budget)} a month`;
    return `${after.email}: starts ${formatUsDay(after.startDay)}${money}`;
  }
  if (typeof after.description === 'string' && event.action.startsWith('money.'))
    return descriptionInWords(after.description);
  if (event.action === 'receipt.refused' && typeof after.reason === 'string') return after.reason;
  if (event.action.startsWith('receipt.') && typeof after.title === 'string') return after.title;
  const fee = cents(after.feeCents);
  if (fee !== undefined && fee > 0) return `Fee ${formatCents(fee)}`;
  const card = [after, before].find((side) => typeof side.last4 === 'string');
  if (card)
    return cardOnFileName({
      last4: card.last4 as string,
      ...(typeof card.brand === 'string' ? { brand: card.brand } : {}),
    });
  if (Array.isArray(after.emails)) {
    // An invitation sent again with another budget says which it replaced.
    const replaced = (after.replacedBudgets ?? {}) as Record<string, unknown>;
    const budget = cents(after.budgetCents);
    return strings(after.emails)
      .map((email) => {
        const before = cents(replaced[email]);
        return before === undefined || budget === undefined
          ? email
          : `${email} (budget ${formatCents(before)} → ${formatCents(budget)})`;
      })
      .join(', ');
  }
  if (typeof before.status === 'string' && typeof after.status === 'string' && before.status !== after.status)
    return `${before.status} → ${after.status}`;
  return undefined;
}
