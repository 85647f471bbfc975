/**
 * The team's monthly billing cycle (docs/decisions.md "Money": anchored on the
 * setup day). The monthly funding job (lambdas/src/jobs/monthlyFunding.ts)
 * renews by `cycleDaysOn`, and the Subscription screen's next charge date is
 * read from the same rule, so the two never disagree.
 */

const DAY_MS = 86_400_000;

/** The cycle days that renew on `date`: its own day, and 29-31 on a month's last day. */
export function cycleDaysOn(date: Date): number[] {
  const day = date.getUTCDate();
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  if (day !== lastDay) return [day];
  return Array.from({ length: 32 - day }, (_, i) => day + i);
}

/**
 * The next day (`yyyy-mm-dd`, UTC, today included) the funding job renews a
 * team: the first day on or after `now` that renews its cycle day, in a month
 * after its setup month and after the last month it renewed.
 */
export function nextRenewalDay(
  team: { cycleDay: number; setupMonth: string; lastRenewedMonth?: string },
  now: Date,
): string {
  const done =
    team.lastRenewedMonth && team.lastRenewedMonth > team.setupMonth
      ? team.lastRenewedMonth
      : team.setupMonth;
  for (let ahead = 0; ahead <= 62; ahead++) {
    const date = new Date(now.getTime() + ahead * DAY_MS);
    const day = date.toISOString().slice(0, 10);
    if (day.slice(0, 7) > done && cycleDaysOn(date).includes(team.cycleDay)) return day;
  }
  throw new Error(`cycle day ${team.cycleDay} is not a day of the month`);
}

/**
 * The last chance to reactivate someone removed at `removedAt` (issue 28): the
 * first day (`yyyy-mm-dd`, UTC, as the funding job counts) after the removal's
 * own day that renews `cycleDay`. Before that day they are restored with their
 * card and pooled money; from that day on, the cycle they left is over.
 */
export function reactivationDeadline(cycleDay: number, removedAt: Date): string {
  for (let ahead = 1; ahead <= 62; ahead++) {
    const date = new Date(removedAt.getTime() + ahead * DAY_MS);
    if (cycleDaysOn(date).includes(cycleDay)) return date.toISOString().slice(0, 10);
  }
  throw new Error(`cycle day ${cycleDay} is not a day of the month`);
}

/** Whether someone removed at `removedAt` may still be reactivated at `now`: before the deadline day. */
export function mayReactivate(cycleDay: number, removedAt: Date, now: Date): boolean {
  return now.toISOString().slice(0, 10) < reactivationDeadline(cycleDay, removedAt);
}

/** "the 25th", for "Billing day: the 25th of each month". */
export function ordinalDay(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
}
