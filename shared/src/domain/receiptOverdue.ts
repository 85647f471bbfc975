/**
 * The first day a receipt counts as overdue: the day after its due day, since
 * the whole due day is the employee's (docs/decisions.md "Receipt deadline").
 * The purchase list ("overdue since …"), the Activity Log's freeze entry and
 * the daily receipt job all read it here so they cannot name different days.
 * Kept apart from businessDays.ts (and its holiday table) so the web app can
 * import it without the calendar.
 */

/** The day (`yyyy-mm-dd`) a receipt due on `dueDay` becomes overdue. */
export function receiptOverdueSince(dueDay: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDay)) throw new Error(`not a day: ${dueDay}`);
  const next = new Date(`${dueDay}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
