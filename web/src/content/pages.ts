/**
 * The pre-rendered public pages: address, title and description of each. The
 * build (web/scripts/prerender.ts) writes one HTML file per entry with these in
 * <title>, the description and Open Graph tags, and lists them in sitemap.xml;
 * the SPA sets the same titles when it shows these pages itself.
 */
import { PRODUCT_NAME } from './site';

export interface PageMeta {
  path: string;
  /** Short name: the tab title is `title | Learning Budget` (the landing page has its own). */
  title: string;
  /** Meta and Open Graph description: 70-160 characters, says what the page offers. */
  description: string;
}

export const pages = {
  landing: {
    path: '/',
    title: 'Learning budgets on virtual prepaid cards',
    description:
      'Give every employee a monthly learning budget on a virtual prepaid Visa card for books, courses and audiobooks. Every purchase tracked, no expense reports.',
  },
  pricing: {
    path: '/pricing',
    title: 'Pricing',
    description:
      '$25 per active employee per month, and all of it goes on the employee’s learning card. No subscription fee, no charge for people who have not joined.',
  },
  faqs: {
    path: '/faqs',
    title: 'FAQs',
    description:
      'What Learning Budget is, the seven skill areas and their traits, and answers about budgets, receipts, rollover, reallocation, redemption fees and dormant cards.',
  },
  howItWorks: {
    path: '/howitworks',
    title: 'How It Works',
    description:
      'Set up your team, shop for learning with a virtual card, upload the receipt: a short guide for managers and employees using Learning Budget.',
  },
  howItWorksSetup: {
    path: '/howitworks/setup',
    title: 'How It Works: Setup',
    description:
      'How a manager creates a team, sets the monthly budget and adds a card, and how an invited employee joins the team and gets their virtual card.',
  },
  howItWorksShop: {
    path: '/howitworks/shop',
    title: 'How It Works: Shop',
    description:
      'Find a book, audiobook or course, go to the partner’s site, and pay with your virtual prepaid card and the billing address shown with it.',
  },
  howItWorksUpload: {
    path: '/howitworks/upload',
    title: 'How It Works: Upload a Receipt',
    description:
      'Upload a screenshot of each receipt within 5 business days: what it must show, where to upload it, and what happens if it is late.',
  },
  terms: {
    path: '/terms',
    title: 'Terms of Use',
    description:
      'The terms for using Learning Budget and its virtual prepaid cards: balances, receipts, returns, reallocation, redemption fees, dormancy and termination.',
  },
  privacy: {
    path: '/privacy',
    title: 'Privacy Policy',
    description:
      'What Learning Budget collects about managers and employees, why, who can see it, how long we keep it, and the choices you have.',
  },
} as const satisfies Record<string, PageMeta>;

export type PageKey = keyof typeof pages;

export const pageList: readonly PageMeta[] = Object.values(pages);

/** The tab title: 'Pricing | Learning Budget'; the landing page leads with the product name. */
export function documentTitle(page: PageMeta): string {
  return page.path === '/' ? `${PRODUCT_NAME}: ${page.title}` : `${page.title} | ${PRODUCT_NAME}`;
}
