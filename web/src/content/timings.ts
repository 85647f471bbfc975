/** UI timings from spec §9, named so a test or a reader can find them. */

/** The waitlist's 'Interest logged' notification stays this long. */
export const WAITLIST_NOTIFICATION_MS = 3000;

/** After joining the waitlist the page returns home after this long. */
export const WAITLIST_REDIRECT_MS = 4000;

/** Spec §9: the landing page's skill carousel shows a new word every 2 s ... */
export const SKILL_CAROUSEL_INTERVAL_MS = 2000;

/** ... and each change fades the old word out and the new one in over 1 s in all. */
export const SKILL_CAROUSEL_FADE_MS = 1000;

/** Spec §2 /inviteMembers: after a successful invitation the page returns to the dashboard after this long. */
export const INVITE_REDIRECT_MS = 1000;

/** Spec §8/§9: 'Copied!' is shown for 1 s. */
export const COPIED_NOTICE_MS = 1000;
