/** /pricing copy (spec §1; decisions.md "Money": price = the budget, all of it to the card, no fee). */
import {
  DEFAULT_BUDGET_DOLLARS,
  REDEMPTION_FEE_PERCENT,
  REDEMPTION_MIN_BALANCE_DOLLARS,
  REDEMPTION_MIN_FEE_DOLLARS,
} from './policy';

const budget = `$${DEFAULT_BUDGET_DOLLARS}`;

export const pricingCard = {
  name: 'Learning Budget',
  amount: budget,
  unit: 'per active employee per month',
  summary: `All ${budget} goes to the employee’s learning budget. There is no fee at subscription.`,
  features: [
    `${budget} a month on each employee’s virtual card, or any whole-dollar budget you choose; you pay exactly the budget`,
    'An instant virtual prepaid Visa card for every employee',
    'Every purchase and receipt in your dashboard',
    'Unspent budget rolls over month to month',
    'Reallocate budget within your team for free',
    'Invited people cost nothing until they join',
  ],
  cta: { label: 'Create Your Team', href: '/register' },
} as const;

export const example = {
  heading: 'An example',
  text: `A team of 8 at the default ${budget} budget: you are charged $200 a month and $200 goes onto the eight cards. If two of them have not joined yet, the cycle costs $150, and each of the other two is charged $25 on the day they join.`,
} as const;

export const billingDetails = {
  heading: 'How billing works',
  items: [
    'Your monthly cycle starts on the day you finish setting up your team.',
    'An employee is charged for, and funded with, their first month when they finish signing up, then renews with the team on the cycle date.',
    'Budget changes take effect from the next cycle.',
    'One-time extra deposits are charged at once and reach the employee’s card when the charge succeeds.',
    'Paused employees are not charged or funded; removed employees are not charged again.',
  ],
} as const;

export const fees = {
  heading: 'Fees',
  rows: [
    { item: 'Subscription', fee: 'None: you pay only the budgets, and they all go on the cards' },
    { item: 'Virtual cards', fee: 'Included' },
    { item: 'Reallocating budget within your team', fee: 'Free' },
    {
      item: 'Redeeming unspent budget back to your card',
      fee: `${REDEMPTION_FEE_PERCENT}% of the amount or $${REDEMPTION_MIN_FEE_DOLLARS}, whichever is greater; not available for balances under $${REDEMPTION_MIN_BALANCE_DOLLARS}`,
    },
  ],
  more: 'More answers in the [FAQs](/faqs#faq-cost) and the [Terms of Use](/terms#redemptionfees).',
} as const;
