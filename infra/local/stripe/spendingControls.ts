/**
 * Stripe Issuing's own spending controls, checked before the real-time
 * webhook is asked (Stripe's backstop): allowed/blocked categories and
 * countries, and spending limits per authorization or per calendar window.
 *
 * "Spent" in a window is what the card network still holds or has taken:
 * approved authorizations still pending (at their current, possibly reversed,
 * amount) plus captures. Declined, reversed and expired authorizations hold
 * nothing. Refunds do not give the limit back.
 */

export type Interval = 'per_authorization' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'all_time';
export const intervals: readonly Interval[] = [
  'per_authorization',
  'daily',
  'weekly',
  'monthly',
  'yearly',
  'all_time',
];

export interface SpendingLimit {
  amount: number;
  interval: Interval;
  categories?: string[] | null;
}

export interface SpendingControls {
  allowed_categories: string[] | null;
  blocked_categories: string[] | null;
  allowed_merchant_countries: string[] | null;
  blocked_merchant_countries: string[] | null;
  spending_limits: SpendingLimit[] | null;
}

export interface SpendRequest {
  amount: number;
  category: string;
  country: string;
}

/** An amount already spent on the card (or cardholder), for windowed limits. */
export interface PastSpend {
  amount: number;
  category: string;
  /** Unix seconds, when it was authorized. */
  created: number;
}

export type ControlVerdict = { ok: true } | { ok: false; message: string };

/** Start (unix seconds, UTC) of the window a limit counts over; 0 for all time. */
export function windowStart(interval: Interval, nowSeconds: number): number {
  const now = new Date(nowSeconds * 1000);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (interval) {
    case 'daily':
      return Date.UTC(y, m, d) / 1000;
    case 'weekly':
      // Weeks start on Sunday, 00:00 UTC.
      return Date.UTC(y, m, d - now.getUTCDay()) / 1000;
    case 'monthly':
      return Date.UTC(y, m, 1) / 1000;
    case 'yearly':
      return Date.UTC(y, 0, 1) / 1000;
    default:
      return 0;
  }
}

const nonEmpty = (list: string[] | null | undefined): list is string[] => !!list && list.length > 0;

export function checkSpendingControls(
  controls: SpendingControls | null | undefined,
  request: SpendRequest,
  past: readonly PastSpend[],
  nowSeconds: number,
): ControlVerdict {
  if (!controls) return { ok: true };
  if (nonEmpty(controls.allowed_categories) && !controls.allowed_categories.includes(request.category)) {
    return { ok: false, message: `merchant category ${request.category} is not in allowed_categories` };
  }
  if (controls.blocked_categories?.includes(request.category)) {
    return { ok: false, message: `merchant category ${request.category} is in blocked_categories` };
  }
  if (
    nonEmpty(controls.allowed_merchant_countries) &&
    !controls.allowed_merchant_countries.includes(request.country)
  ) {
    return { ok: false, message: `merchant country ${request.country} is not allowed` };
  }
  if (controls.blocked_merchant_countries?.includes(request.country)) {
    return { ok: false, message: `merchant country ${request.country} is blocked` };
  }
  for (const limit of controls.spending_limits ?? []) {
    const applies = !nonEmpty(limit.categories) || limit.categories.includes(request.category);
    if (!applies) continue;
    if (limit.interval === 'per_authorization') {
      if (request.amount > limit.amount) {
        return { ok: false, message: `amount exceeds the per_authorization limit of ${limit.amount}` };
      }
      continue;
    }
    const since = windowStart(limit.interval, nowSeconds);
    let spent = 0;
    for (const p of past) {
      const counted = !nonEmpty(limit.categories) || limit.categories.includes(p.category);
      if (counted && p.created >= since) spent += p.amount;
    }
    if (spent + request.amount > limit.amount) {
      return {
        ok: false,
        message: `${limit.interval} limit of ${limit.amount} would be exceeded (${spent} already spent)`,
      };
    }
  }
  return { ok: true };
}
