/**
 * The walkthrough tours (spec §4 "Walkthrough": manager 5 steps, employee 4,
 * the last labelled Done). Each step points at an element marked
 * `data-tour="<target>"`; a target hidden on a phone (in the collapsed menu)
 * points at the menu button instead, saying so, and any other missing one
 * shows the step in the middle of the screen.
 */
import type { Role } from '@shared/schemas/me';

export interface TourStep {
  target: string;
  title: string;
  description: string;
}

export const TOUR_DONE_LABEL = 'Done';

/** The phone's menu button: where a step whose target is folded into the menu points. */
export const TOUR_MENU_TARGET = 'header-menu';
export const TOUR_IN_MENU_HINT = 'Open the menu to find it.';

const managerTour: readonly TourStep[] = [
  {
    target: 'nav-employees',
    title: 'Your team',
    description:
      'Invite people, pause or remove them, freeze a card, and move or redeem money left by someone who left.',
  },
  {
    target: 'dashboard-employees',
    title: 'Budgets at a glance',
    description:
      'Everyone’s status, card and remaining budget. Open the full list to act on several people at once.',
  },
  {
    target: 'dashboard-purchases',
    title: 'Every purchase',
    description: 'Each purchase with its receipt. Employees upload a receipt within 5 business days.',
  },
  {
    target: 'nav-creditcard',
    title: 'Billing',
    description:
      'The card we charge each month: $25 (or the budget you set) per active employee, all of it to their card.',
  },
  {
    target: 'nav-activity',
    title: 'Activity log',
    description: 'Who did what and when: every action on your team and every money movement.',
  },
];

const employeeTour: readonly TourStep[] = [
  {
    target: 'header-shop',
    title: 'Shop for learning',
    description: 'Books, audiobooks, courses and assessments from our partner merchants.',
  },
  {
    target: 'header-search',
    title: 'Search',
    description: 'Find a title, an author or a skill you want to grow.',
  },
  {
    target: 'header-card',
    title: 'Your virtual card',
    description: 'Your remaining budget. Open it to see the card number to pay with at the merchant.',
  },
  {
    target: 'dashboard-purchases',
    title: 'Receipts',
    description: 'Upload a receipt for each purchase within 5 business days to keep your card active.',
  },
];

export function tourFor(role: Role): readonly TourStep[] {
  return role === 'manager' ? managerTour : employeeTour;
}
