/**
 * The team's activity log in words (manager console, "Activity"): what each
 * audit event or money movement means to a manager, which kind of activity it
 * is (for the filter), and the amount it moved. Pure, so the words are tested
 * once and the same everywhere.
 */
import { formatCents } from './money';

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
  if (prefix === 'funds' || prefix === 'money' || prefix === 'cycle') return 'money';
  if (prefix === 'billing') return 'billing';
  return 'people';
}

const MONEY_WORDS: Record<string, string> = {
  funding: 'Budget funded',
  deposit: 'Extra deposit credited',
  authorization: 'Purchase authorized (held)',
  capture: 'Purchase settled',
  release: 'Hold released',
  refund: 'Merchant refund',
  reallocation: 'Budget reallocated',
  redemption: 'Budget redeemed to the team’s card',
  poolTransfer: 'Budget moved to the team pool',
  debtRepayment: 'Overdraft repaid',
  accountSplit: 'Bookkeeping: card network and fee accounts moved to the team’s own',
};

const ACTION_WORDS: Record<string, string> = {
  'employee.paused': 'Paused',
  'employee.unpaused': 'Unpaused',
  'employee.updated': 'Edited profile',
  'employee.deleted': 'Removed from the team',
  'account.deleted': 'Deleted their own account',
  'account.secondFactorOff': 'Turned off two-step sign-in',
  'employees.invited': 'Invited',
  'card.frozen': 'Froze card',
  'card.activated': 'Activated card',
  'funds.reallocated': 'Reallocated budget',
  'funds.redeemed': 'Redeemed budget',
  'funds.deposited': 'Extra deposit',
  'billing.setup': 'Set up billing',
  'billing.cardAdded': 'Added a card',
  'billing.defaultCard': 'Changed the primary card',
  'billing.cardDeleted': 'Deleted a card',
  'billing.subscriptionSuspended': 'Suspended the subscription',
  'billing.subscriptionResumed': 'Resumed the subscription',
  'billing.subscriptionClosed': 'Closed the subscription',
  'cycle.funded': 'Monthly budgets charged',
};

/** Words for an action; an unknown one is shown as it is rather than hidden. */
export function describeAction(action: string): string {
  if (action.startsWith('money.')) return MONEY_WORDS[action.slice('money.'.length)] ?? action;
  return ACTION_WORDS[action] ?? action;
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

/** Details beyond the action: a status change, a fee, a card. */
export function auditDetails(event: {
  action: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}): string | undefined {
  const before = event.before ?? {};
  const after = event.after ?? {};
  if (typeof after.description === 'string' && event.action.startsWith('money.')) return after.description;
  const fee = cents(after.feeCents);
  if (fee !== undefined && fee > 0) return `Fee ${formatCents(fee)}`;
  if (typeof after.last4 === 'string') return `Card ending ${after.last4}`;
  if (Array.isArray(after.emails)) return (after.emails as string[]).join(', ');
  if (typeof before.status === 'string' && typeof after.status === 'string' && before.status !== after.status)
    return `${before.status} → ${after.status}`;
  return undefined;
}
