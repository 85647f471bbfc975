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

/** "the 25th", for "Billing day: the 25th of each month". */
export function ordinalDay(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
}
