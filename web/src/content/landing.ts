/** The landing page's copy (spec §1: hero, how it works, quotes, call to action to register). */
import { DEFAULT_BUDGET_DOLLARS, RECEIPT_DUE_BUSINESS_DAYS } from './policy';

const budget = `$${DEFAULT_BUDGET_DOLLARS}`;

export const hero = {
  heading: 'A learning budget for every employee, on a card they can use today',
  lead: 'Give each person on your team a monthly budget on a virtual prepaid Visa card for books, audiobooks, online courses and assessments. Every purchase is tracked, so there are no reimbursement forms.',
  carouselLabel: 'Budget for growth in',
  primary: { label: 'Create Your Team', href: '/register' },
  secondary: { label: 'See How It Works', href: '/howitworks' },
  /** The sample card beside the hero text (illustration only). */
  card: { holder: 'Jordan Lee', balance: `${budget}.00`, last4: '4821', expiry: '08/29' },
} as const;

export const steps = {
  heading: 'How it works',
  items: [
    {
      title: 'Set up your team',
      text: `Invite people by email and choose a monthly budget for each, ${budget} by default. Add a company card and you are done.`,
    },
    {
      title: 'Employees shop for learning',
      text: 'Each employee gets an instant virtual card and buys the books, audiobooks and courses they choose from our partner merchants.',
    },
    {
      title: 'Upload the receipt',
      text: `A screenshot within ${RECEIPT_DUE_BUSINESS_DAYS} business days, uploaded from the dashboard. Managers see every purchase and receipt in one place.`,
    },
  ],
  more: { label: 'Read the step-by-step guide', href: '/howitworks' },
} as const;

export const benefits = {
  heading: 'Why teams use Learning Budget',
  items: [
    {
      title: 'Every dollar goes to learning',
      text: `An active employee costs their budget, ${budget} a month by default, and all of it goes on their card. No subscription fee.`,
    },
    {
      title: 'No expense reports',
      text: 'Purchases are tracked as they happen. Nobody fills in a reimbursement form or waits weeks to be paid back.',
    },
    {
      title: 'Unspent budget rolls over',
      text: 'What an employee does not spend this month stays on their card for the course they are saving up for.',
    },
    {
      title: 'Move money where it is needed',
      text: 'Reallocate budget between people on your team at no cost, or add a one-time deposit for a bigger course.',
    },
    {
      title: 'You stay in control',
      text: 'Freeze a card in one click, pause an employee, change budgets from next month, and see spending by person.',
    },
    {
      title: 'Nothing expires silently',
      text: 'Cards that go unused get notices well before anything changes, and their money stays with your team.',
    },
  ],
} as const;

export const skillsSection = {
  heading: 'Skills your team can build',
  lead: 'Twelve places to start. Employees choose their own materials; the catalog is organized around seven skill areas.',
  more: { label: 'See the seven skill areas', href: '/faqs#skills' },
} as const;

export interface Quote {
  text: string;
  author: string;
  source: string;
}

/** Quotations about learning, with their sources (no invented testimonials). */
export const quotes: readonly Quote[] = [
  {
    text: 'Leadership and learning are indispensable to each other.',
    author: 'John F. Kennedy',
    source: 'Remarks prepared for delivery in Dallas, 1963',
  },
  {
    text: 'Learning is not attained by chance, it must be sought for with ardor and attended to with diligence.',
    author: 'Abigail Adams',
    source: 'Letter to John Quincy Adams, 1780',
  },
  {
    text: 'The capacity to learn is a gift; the ability to learn is a skill; the willingness to learn is a choice.',
    author: 'Brian Herbert',
    source: 'Dune: House Harkonnen',
  },
];

export const callToAction = {
  heading: 'Give your team a budget to grow',
  text: `${budget} per active employee per month, and every dollar of it goes on their card.`,
  primary: { label: 'Sign Up', href: '/register' },
  secondary: { label: 'See Pricing', href: '/pricing' },
} as const;
