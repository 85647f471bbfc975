/**
 * /howitworks copy: the three parts of spec §2 (Setup for managers and
 * employees, Shop, Upload receipt), each a list of steps.
 */
import {
  DEFAULT_BUDGET_DOLLARS,
  PASSWORD_MIN_LENGTH,
  RECEIPT_DUE_BUSINESS_DAYS,
  RECEIPT_TYPES,
} from './policy';

export interface Step {
  title: string;
  text: string;
}

export interface GuideSection {
  /** Anchor (`/howitworks/setup#manager`). */
  id: string;
  title: string;
  intro: string;
  steps: readonly Step[];
  /** Closing notes under the steps. */
  notes?: readonly string[];
}

export interface GuidePart {
  key: 'setup' | 'shop' | 'upload';
  path: string;
  /** Name in the side menu. */
  menuLabel: string;
  heading: string;
  lead: string;
  /** One line for the overview page. */
  summary: string;
  sections: readonly GuideSection[];
}

export const overview = {
  heading: 'How It Works',
  lead: 'Three things happen with Learning Budget: a manager sets up the team, employees shop for learning with their virtual card, and each purchase gets a receipt. Pick a part to see it step by step.',
} as const;

export const guide: readonly GuidePart[] = [
  {
    key: 'setup',
    path: '/howitworks/setup',
    menuLabel: 'Setup',
    heading: 'Setup',
    lead: 'A manager creates the team and invites people; each employee then joins with the email they were invited at.',
    summary: 'The manager registers, invites the team and adds a card; employees join from their invitation.',
    sections: [
      {
        id: 'manager',
        title: 'Manager',
        intro: 'About five minutes, with your team’s email addresses and a company credit card at hand.',
        steps: [
          {
            title: 'Register your team',
            text: `Choose [Sign Up](/register), then **Create New Team**. Enter your first and last name, your work email, a password of at least ${PASSWORD_MIN_LENGTH} characters and your company name.`,
          },
          {
            title: 'Verify your email',
            text: 'We send a link to your work email. Open it to confirm the address; setting up the team comes right after.',
          },
          {
            title: 'Invite your team and set the budget',
            text: `Under **Invite team**, enter your employees’ emails separated by commas and the monthly budget for each person in whole dollars ($${DEFAULT_BUDGET_DOLLARS} by default). The summary shows the number of people times the budget: your expected monthly total.`,
          },
          {
            title: 'Add a card',
            text: 'Under **Billing Info**, add the company card and its billing address, check the summary and submit. Each employee is charged their budget when they finish signing up, then monthly with the rest of the team.',
          },
        ],
        notes: [
          'From your dashboard you can later invite more people, change budgets (from the next cycle), pause or remove employees, freeze a card, and see every purchase and receipt.',
        ],
      },
      {
        id: 'employee',
        title: 'Employee',
        intro: 'Your manager has invited you. Joining takes two minutes.',
        steps: [
          {
            title: 'Check your invitation email',
            text: 'Look for the invitation from Learning Budget in the inbox your manager used: usually your work email, sometimes a personal one.',
          },
          {
            title: 'Enter the invited email',
            text: 'Choose [Sign Up](/register), then **Join an Existing Team**, type the email the invitation was sent to and select **Verify**. If no invitation is found, check the spelling or try your other address, or invite your manager to the product.',
          },
          {
            title: 'Register',
            text: `Enter your first and last name, your email, a password of at least ${PASSWORD_MIN_LENGTH} characters and your zip code, then confirm your email from the link we send. Your virtual card is ready, loaded with your first month’s budget.`,
          },
        ],
      },
    ],
  },
  {
    key: 'shop',
    path: '/howitworks/shop',
    menuLabel: 'Shop',
    heading: 'Shop',
    lead: 'Find something worth learning, buy it on the partner’s site and pay with your virtual card.',
    summary: 'Search the catalog, go to the partner’s site and pay with your virtual prepaid card.',
    sections: [
      {
        id: 'steps',
        title: 'Buying with your card',
        intro: 'Your remaining budget is shown at the top of every page once you are signed in.',
        steps: [
          {
            title: 'Search',
            text: 'Search by title, author or skill, and narrow the results by price, category, media type (books, audiobooks, online courses, assessments) and partner.',
          },
          {
            title: 'Click the item',
            text: 'Your virtual card opens with the card number, expiration date, security code and billing address, and the item’s page opens on the partner’s site, such as Amazon, Audible, Udemy or Walmart.',
          },
          {
            title: 'Add it to your cart',
            text: 'Shop on the partner’s site as you normally would and go to checkout.',
          },
          {
            title: 'Pay with your prepaid card',
            text: 'Enter your virtual card’s number, expiration date and security code, and the **billing address shown with your card**, not your home address; a different address can make the payment fail.',
          },
        ],
        notes: [
          'The card spends only what it holds. If an item costs more than your balance, the payment is declined and we show you why; ask your manager for an extra deposit or wait for next month’s budget.',
          `Keep the order confirmation: you need a receipt within ${RECEIPT_DUE_BUSINESS_DAYS} business days. [Uploading it](/howitworks/upload) takes a minute.`,
        ],
      },
    ],
  },
  {
    key: 'upload',
    path: '/howitworks/upload',
    menuLabel: 'Upload receipt',
    heading: 'Upload a receipt',
    lead: `Every purchase needs a receipt within ${RECEIPT_DUE_BUSINESS_DAYS} business days. That is how your manager sees what the budget bought, and why there are no expense reports.`,
    summary: `Screenshot the receipt and upload it from your dashboard within ${RECEIPT_DUE_BUSINESS_DAYS} business days.`,
    sections: [
      {
        id: 'steps',
        title: 'Uploading a receipt',
        intro: 'Do it right after checkout and you will never think about it again.',
        steps: [
          {
            title: 'Screenshot the receipt',
            text: `Take a screenshot or photo of the order confirmation or receipt showing the **date**, the **amount** and the **item’s title**. ${RECEIPT_TYPES}, up to 150 KB.`,
          },
          {
            title: 'Go to your dashboard',
            text: 'Sign in and open your dashboard. New purchases appear in your purchase history marked **Awaiting Receipt**.',
          },
          {
            title: 'Click Upload on the item',
            text: 'Select **Upload** next to the purchase and give it a title; we suggest merchant names as you type.',
          },
          {
            title: 'Drag or browse for the image',
            text: 'Drag the image onto the upload area, or browse for it, then save. The purchase now shows its receipt, for you and your manager.',
          },
        ],
        notes: [
          `The deadline is ${RECEIPT_DUE_BUSINESS_DAYS} business days after the purchase, Monday to Friday, not counting US federal holidays. We remind you before it passes.`,
          'If a receipt is late, the card is frozen with the reason “missing receipt” and unfreezes by itself as soon as every overdue receipt is uploaded.',
        ],
      },
    ],
  },
];
