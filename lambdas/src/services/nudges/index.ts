/**
 * Nudges (issue 26, point 5): the monthly e-mails (an employee's nudge to
 * spend, a manager's digest) and their one-click unsubscribe. The profile
 * setting that turns each on or off is services/accounts/profiles.ts's, on
 * the same record (data/monthlyEmails.ts).
 */
export { runMonthlyEmails } from './monthlyEmails';
export { UNSUBSCRIBE_LINK_INVALID, unsubscribe } from './unsubscribe';
