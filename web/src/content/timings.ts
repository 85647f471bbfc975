/** UI timings from spec §9, named so a test or a reader can find them. */

/** The waitlist's 'Interest logged' notification stays this long. */
export const WAITLIST_NOTIFICATION_MS = 3000;

/** After joining the waitlist the page returns home after this long. */
export const WAITLIST_REDIRECT_MS = 4000;
