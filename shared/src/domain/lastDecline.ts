/**
 * How long the card dialog's "Last declined purchase" stays relevant
 * (docs/decisions.md, "Virtual card, declines"). Its reason speaks of the
 * card as it was ("above your $6.77 balance"), so it is shown only while
 * that is still true enough to help: it is the card's newest decision (an
 * approved purchase after it hides it), no money has come onto the card
 * since (a credit, refund or released hold changes the balance it quoted),
 * and it is less than 7 days old.
 */
export const DECLINE_SHOWN_DAYS = 7;

/** Young enough to show (the other two conditions are read from the records: services/cards/myCard.ts). */
export function isDeclineRecent(declinedAt: string, now: Date): boolean {
  return now.getTime() - new Date(declinedAt).getTime() < DECLINE_SHOWN_DAYS * 86_400_000;
}
