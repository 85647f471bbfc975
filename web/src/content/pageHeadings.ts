/**
 * The heading and lead line of the signed-in screens, in one place: the
 * screen shows them, and so does the route guard while a reload restores the
 * session (app/RequireRole.tsx), so the page's title is painted as soon as the
 * signed-in frame is, not after POST /auth/refresh (issue 25, "the signed-in
 * app's first screen fast"). A lead that depends on who is signed in is given
 * per role (the guard picks it by the session hint's role).
 *
 * Plain strings, no imports: the guard is in the main chunk.
 */

export interface PageHeading {
  title: string;
  lead?: string | { manager: string; employee: string };
}

export const pageHeadings = {
  dashboard: { title: 'Dashboard' },
  employees: { title: 'Employees', lead: 'Budgets, cards and the state of everyone on your team.' },
  purchaseHistory: {
    title: 'Purchase History',
    lead: {
      manager: 'Every purchase on your team, newest first, with its receipt.',
      employee: 'Your purchases, newest first. Upload a receipt for each within 5 business days.',
    },
  },
  creditCards: { title: 'Credit Cards', lead: 'Budgets are charged to the primary card.' },
  addCreditCard: {
    title: 'Add Credit Card',
    lead: 'The card and its billing address. Card details go straight to our card processor.',
  },
  subscription: { title: 'Subscription', lead: "Suspend, resume or close your team's learning budgets." },
  activity: {
    title: 'Activity Log',
    lead: 'Every action on your team and every money movement, newest first.',
  },
  insights: {
    title: 'Insights',
    lead: "Is your team's learning budget working? What was funded and spent, where it went, and who has not used theirs.",
  },
  statement: {
    title: 'Statement',
    lead:
      'Every credit, hold, purchase, refund and reallocation on your card, newest first, with what you can ' +
      'still spend after each and what is on hold. Declined purchases are listed too; they take nothing.',
  },
  inviteMembers: {
    title: 'Invite Members',
    lead:
      'Each person gets an email to join your team. They are charged and funded once they have signed up ' +
      'and confirmed their email address.',
  },
  editProfile: { title: 'Edit Profile' },
  shop: { title: 'Shop' },
} as const satisfies Record<string, PageHeading>;

/** The lead line for `role` (undefined when the page has none, or it depends on more than the role). */
export function leadFor(heading: PageHeading, role: 'manager' | 'employee'): string | undefined {
  return typeof heading.lead === 'object' ? heading.lead[role] : heading.lead;
}
