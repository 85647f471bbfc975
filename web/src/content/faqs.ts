/**
 * /faqs copy: about, the FAQ accordion and the contact section (the skill
 * areas are in skills.ts). Every answer follows decisions.md: redemption fee
 * 15% or $5 (the spec's "10%" FAQ reading is dropped), none under $5, receipts
 * within 5 business days, rollover, free reallocation inside a team, dormancy
 * at 11/12/12.5/13 months, budget changes from the next cycle.
 */
import {
  DEFAULT_BUDGET_DOLLARS,
  DORMANCY_INACTIVE_AFTER_MONTHS,
  DORMANCY_MANAGER_WARNING_MONTHS,
  DORMANCY_NOTICE_MONTHS,
  formatDollars,
  RECEIPT_DUE_BUSINESS_DAYS,
  RECEIPT_TYPES,
  REDEMPTION_FEE_PERCENT,
  REDEMPTION_MIN_BALANCE_DOLLARS,
  REDEMPTION_MIN_FEE_DOLLARS,
  redemptionFeeCents,
} from './policy';

const budget = `$${DEFAULT_BUDGET_DOLLARS}`;
const minFee = `$${REDEMPTION_MIN_FEE_DOLLARS}`;
const minBalance = `$${REDEMPTION_MIN_BALANCE_DOLLARS}`;
const feeOn = (dollars: number) => formatDollars(redemptionFeeCents(dollars * 100) ?? 0);

export const about: readonly string[] = [
  'Learning Budget gives every employee a monthly budget for their own development, loaded on a virtual prepaid Visa card. Managers set the budget once; employees choose the books, audiobooks, online courses and assessments that help them grow, and buy them from our partner merchants like any other online purchase.',
  'We built it because learning stipends tend to go unused. Expense reports put people off, approvals take weeks, and money set aside for growth quietly goes back into the budget at year end. A card that is already loaded, and a receipt that takes a minute to upload, change that: people learn when the money is in their hands, and managers still see every purchase.',
  'Learning Budget is a technology company, not a bank. The cards are issued by our partner bank through our card issuer; see the [disclosures in our Terms of Use](/terms#disclosures).',
];

export interface Faq {
  /** Anchor on /faqs (`/faqs#faq-rollover`). */
  id: string;
  question: string;
  answer: readonly string[];
}

export const faqs: readonly Faq[] = [
  {
    id: 'faq-cost',
    question: 'How much does it cost?',
    answer: [
      `Each active employee costs their monthly budget, ${budget} by default, and **all of it goes onto that employee’s card**. We charge no subscription fee on top. People you have invited but who have not joined yet cost nothing. See [Pricing](/pricing).`,
    ],
  },
  {
    id: 'faq-billing',
    question: 'When is my card charged?',
    answer: [
      'Your team’s monthly cycle starts on the day you finish setting it up. An employee is charged for, and their card funded with, their first month as soon as they finish signing up, even in the middle of a cycle; after that they renew with the rest of the team on the cycle date.',
      'Paused employees are not charged or funded in later cycles. Their card can still spend what it already holds unless you freeze it.',
    ],
  },
  {
    id: 'faq-what-to-buy',
    question: 'What can employees buy with the card?',
    answer: [
      'Learning materials: books, audiobooks, online courses and assessments, from partner merchants such as Amazon, Audible, Udemy, Walmart and The Culture Works. The card is limited to learning merchants, and every purchase needs a receipt.',
    ],
  },
  {
    id: 'faq-physical-card',
    question: 'Is there a physical card?',
    answer: [
      'No. Every employee gets an instant virtual card as soon as they join. It shows a card number, expiration date, security code and a billing address to use at checkout, which is all an online store asks for.',
    ],
  },
  {
    id: 'faq-balance',
    question: 'What happens if something costs more than the balance?',
    answer: [
      'The card only spends what it holds, so the purchase is declined and we show the employee why, for example “$41.20 is above your $12.40 balance”. They can wait for the next monthly budget or ask their manager for an extra deposit.',
    ],
  },
  {
    id: 'faq-rollover',
    question: 'Does unspent budget roll over?',
    answer: [
      'Yes. Whatever an employee does not spend stays on their card and adds to next month’s budget. Nothing is taken back at the end of a month or a year.',
    ],
  },
  {
    id: 'faq-budget-change',
    question: 'Can I change an employee’s budget?',
    answer: [
      'Yes, at any time, in whole dollars. A change takes effect from the next monthly cycle: the current month’s budget stays as it was funded. To add money now, make a one-time extra deposit instead.',
    ],
  },
  {
    id: 'faq-extra-deposit',
    question: 'Can I add money for a single course or book?',
    answer: [
      'Yes. A manager can make a one-time extra deposit to one or more employees. Your card is charged at once, and the money is on their cards as soon as the charge succeeds.',
    ],
  },
  {
    id: 'faq-reallocation',
    question: 'Can I move budget from one employee to another?',
    answer: [
      'Yes, within your own team, and it is **free**. When someone leaves, their remaining balance stays with the team until you reallocate it: split evenly across the employees you choose, or across everyone active. Employees cannot transfer their card or their balance themselves.',
    ],
  },
  {
    id: 'faq-redemption',
    question: 'Can I get unspent money back?',
    answer: [
      `Yes. A manager can redeem an unspent balance back to the team’s card on file. Redemption costs ${REDEMPTION_FEE_PERCENT}% of the amount or ${minFee}, whichever is greater, and is not available for balances under ${minBalance}.`,
      `For example, redeeming $20 costs ${feeOn(20)} (the ${minFee} minimum), so ${formatDollars(2000 - (redemptionFeeCents(2000) ?? 0))} comes back; redeeming $200 costs ${feeOn(200)}, so ${formatDollars(20000 - (redemptionFeeCents(20000) ?? 0))} comes back. Moving the money to another employee instead is free.`,
    ],
  },
  {
    id: 'faq-receipts',
    question: 'When do receipts have to be uploaded?',
    answer: [
      `Within ${RECEIPT_DUE_BUSINESS_DAYS} business days of the purchase (Monday to Friday, not counting US federal holidays). We send a reminder before the deadline. Upload a screenshot or photo that shows the date, amount and item: ${RECEIPT_TYPES}, up to 150 KB. [Here is how](/howitworks/upload).`,
      'If a receipt is late, the card is frozen with the reason “missing receipt”. It unfreezes by itself as soon as every overdue receipt is in.',
    ],
  },
  {
    id: 'faq-dormancy',
    question: 'What happens if a card is not used for a long time?',
    answer: [
      `If a card has no purchases for ${DORMANCY_MANAGER_WARNING_MONTHS} months, we let the manager know. At ${DORMANCY_NOTICE_MONTHS} months without a purchase we send notices to both the employee and the manager. After ${DORMANCY_INACTIVE_AFTER_MONTHS} months the card becomes inactive and the employee is paused, so no new budget is charged for them.`,
      'The money is not lost: it stays with the team for the manager to reallocate or redeem. Nothing expires without warning.',
    ],
  },
  {
    id: 'faq-leaving',
    question: 'What happens when an employee leaves?',
    answer: [
      'Remove them from your team. Their card is cancelled at once and they are not charged for again. Their remaining balance stays with the team for you to reallocate (free) or redeem.',
    ],
  },
  {
    id: 'faq-personal-email',
    question: 'Can employees sign up with a personal email?',
    answer: [
      'Yes, if that is the address their manager invited. An employee signs up with exactly the email the invitation was sent to.',
    ],
  },
  {
    id: 'faq-lost-card',
    question: 'What if someone else gets hold of my card details?',
    answer: [
      'Tell your manager and [contact us](/support) straight away. Your manager can freeze the card from the dashboard in one click, so nothing more can be spent, and we will look into every purchase you did not make. See [Terms of Use](/terms#stolenvirtualcard).',
    ],
  },
  {
    id: 'faq-bank',
    question: 'Is Learning Budget a bank?',
    answer: [
      'No. Learning Budget is a technology company. The virtual prepaid cards are issued by our partner bank through our card issuer, and card numbers are kept by the issuer: our servers never see them.',
    ],
  },
];

export const contact = {
  title: 'Still have a question?',
  text: 'Send us a message about budgets, cards, receipts or your account, and we will answer by email.',
  cta: { label: 'Contact Us', href: '/support' },
} as const;
