/**
 * Daily money velocity limits per team (docs/decisions.md "Money velocity
 * limits"): how much a team may charge as extra deposits, and have refunded by
 * redemptions, in one UTC day. A compromised manager account, or a runaway
 * script, can then move at most one day's limit. Operations change a team's
 * limits with `npm run ops -- set-limits` (scripts/ops.ts); no API route can.
 */
import { formatCents } from './money';

export type MoneyLimitKind = 'deposit' | 'redemption';

/** $20,000.00 of extra deposits charged per team per UTC day. */
export const DEFAULT_DAILY_DEPOSIT_LIMIT_CENTS = 2_000_000;
/** $10,000.00 refunded to the manager's card by redemptions per team per UTC day. */
export const DEFAULT_DAILY_REDEMPTION_LIMIT_CENTS = 1_000_000;

/** The team item's fields that override the defaults (integer cents). */
export const limitFields = {
  deposit: 'dailyDepositLimitCents',
  redemption: 'dailyRedemptionLimitCents',
} as const satisfies Record<MoneyLimitKind, string>;

export const defaultLimits: Record<MoneyLimitKind, number> = {
  deposit: DEFAULT_DAILY_DEPOSIT_LIMIT_CENTS,
  redemption: DEFAULT_DAILY_REDEMPTION_LIMIT_CENTS,
};

/** The team's limit: its own field when operations set one, else the default. */
export function dailyLimitCents(kind: MoneyLimitKind, team: Record<string, unknown>): number {
  const own = team[limitFields[kind]];
  return typeof own === 'number' && Number.isSafeInteger(own) && own >= 0 ? own : defaultLimits[kind];
}

/** The UTC day a movement counts against: `yyyy-mm-dd`. */
export function limitDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The refusal, naming the limit in dollars and what is left of it today, so
 * the manager knows what would still go through (docs/api.md, word for word).
 */
export function limitExceededMessage(
  kind: MoneyLimitKind,
  limitCents: number,
  remainingCents: number,
): string {
  const left =
    remainingCents > 0
      ? `${formatCents(remainingCents)} of it is left today.`
      : 'None of it is left today; it starts again at 00:00 UTC.';
  return `This would exceed your team's daily ${kind} limit of ${formatCents(limitCents)}. ${left}`;
}
