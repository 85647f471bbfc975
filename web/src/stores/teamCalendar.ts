/**
 * Dates on every screen are the team's (issue 25 "One calendar"): the day in
 * the team's time zone, which GET /me carries, so Purchase History, the
 * dashboard, the Statement and the Activity Log print the date the e-mails,
 * the CSV and the invoices print, wherever the viewer sits. The server sends
 * instants and days; only this module turns them into words.
 */
import { DEFAULT_TIME_ZONE, formatDateIn, formatDateTimeIn } from '@shared/domain/calendar';
import { teamMonthOf } from '@shared/domain/insightDeltas';
import { useSession } from '../auth/sessionStore';

/** The signed-in team's zone (read at render: a change on the profile page reloads `me`). */
export function teamZone(): string {
  return useSession.getState().me?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** MM/DD/YYYY of a day (`yyyy-mm-dd`, printed as it is) or of an instant (its day in the team's zone). */
export function formatDate(value: string): string {
  return formatDateIn(value, teamZone());
}

/** MM/DD/YYYY, h:mm AM/PM of an instant in the team's zone. */
export function formatDateTime(value: string): string {
  return formatDateTimeIn(value, teamZone());
}

/** This month (`yyyy-mm`) of the team's calendar: what month pickers start on. */
export function teamMonth(now = new Date()): string {
  return teamMonthOf(now, teamZone());
}
