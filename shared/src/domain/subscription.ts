/**
 * The subscription's lifecycle (spec §4 "The subscription can be suspended or
 * deleted"; docs/decisions.md "Subscription lifecycle"). The team's billing
 * status (setup, active, pastDue) says whether its card pays; the subscription
 * says whether we may charge it at all:
 *
 *   running    charged monthly, funded, deposits allowed
 *   suspended  nobody charged or funded; cards keep what they hold
 *   closed     every card cancelled, nobody charged again; records read-only
 */
export type SubscriptionState = 'running' | 'suspended' | 'closed';

/** Who suspended: the manager, or the retry policy after an unpaid renewal. */
export type SuspendedBy = 'manager' | 'unpaid';

/** What closing does with the money left: refunded to the card on file less the fee, or kept on the ledger. */
export type ClosingChoice = 'redeem' | 'keep';

/**
 * A declined renewal is retried on each of the 6 days after the first decline
 * (day 0); still unpaid after the 6th retry, the subscription is suspended.
 */
export const PAST_DUE_RETRY_DAYS = 6;

const DAY_MS = 86_400_000;

/** Whole UTC days from `since` to `now` (0 on the same day). */
export function utcDaysBetween(since: string | Date, now: Date): number {
  const day = (d: Date) => Math.floor(d.getTime() / DAY_MS);
  return day(now) - day(new Date(since));
}

/** The day a past-due team is suspended if still unpaid, as yyyy-mm-dd. */
export function suspensionDate(pastDueSince: string): string {
  return new Date(Date.parse(pastDueSince) + PAST_DUE_RETRY_DAYS * DAY_MS).toISOString().slice(0, 10);
}

/** A past-due team unpaid through every retry: the day of its last retry or later. */
export function retriesExhausted(pastDueSince: string, now: Date): boolean {
  return utcDaysBetween(pastDueSince, now) >= PAST_DUE_RETRY_DAYS;
}

/** Only a running subscription is charged and funded. */
export function mayCharge(state: SubscriptionState): boolean {
  return state === 'running';
}

/** A team's subscription as stored: a team that never changed it is running. */
export function subscriptionState(team: { subscription?: SubscriptionState }): SubscriptionState {
  return team.subscription ?? 'running';
}

/** Renewals, joining charges and deposits ask this before charging anyone. */
export function teamMayCharge(team: { subscription?: SubscriptionState }): boolean {
  return mayCharge(subscriptionState(team));
}

/**
 * After a resume, a renewal whose cycle date fell before the resume day is not
 * charged: the months a team was suspended are skipped, never caught up.
 */
export function renewalSkippedByResume(cycleDate: Date, resumedAt: string | undefined): boolean {
  return resumedAt !== undefined && utcDaysBetween(cycleDate, new Date(resumedAt)) > 0;
}
