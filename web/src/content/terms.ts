/**
 * /terms. The section ids are the anchors of spec §2 and must not change
 * (links and the e2e test use them). Rules follow decisions.md; where the
 * spec's wording conflicts (a 5% reallocation note, a 10% redemption fee,
 * funds that "may expire") decisions.md wins.
 */
import type { LegalDocument } from './legal';
import {
  DEFAULT_BUDGET_DOLLARS,
  DORMANCY_INACTIVE_AFTER_MONTHS,
  DORMANCY_MANAGER_WARNING_MONTHS,
  DORMANCY_NOTICE_MONTHS,
  formatDollars,
  NOTICE_RECEIVED_AFTER_HOURS,
  RECEIPT_DUE_BUSINESS_DAYS,
  REDEMPTION_FEE_PERCENT,
  REDEMPTION_MIN_BALANCE_DOLLARS,
  REDEMPTION_MIN_FEE_DOLLARS,
  redemptionFeeCents,
} from './policy';

const minFee = `$${REDEMPTION_MIN_FEE_DOLLARS}`;
const minBalance = `$${REDEMPTION_MIN_BALANCE_DOLLARS}`;
const fee = (dollars: number) => formatDollars(redemptionFeeCents(dollars * 100) ?? 0);

/** The 15 anchors of spec §2, in order. */
export const TERMS_SECTION_IDS = [
  'virtualcards',
  'purchasevalidation',
  'virtualbalance',
  'returns',
  'greatervalue',
  'unauthorizedtransactions',
  'expiration',
  'cardtransfer',
  'redemptionfees',
  'updates',
  'reallocation',
  'managertermination',
  'stolenvirtualcard',
  'disclosures',
  'termination',
] as const;

export const terms: LegalDocument = {
  title: 'Terms of Use',
  updated: 'Last updated November 21, 2026',
  intro: [
    'These terms are an agreement between Learning Budget (“we”, “us”) and the company that subscribes (the “employer”), the manager who sets up and runs its team, and each employee who joins that team. They cover the website, the dashboard and the virtual prepaid cards. By creating a team or joining one you accept them; if you do not agree, please do not use the service.',
    'We have written them in plain English. The card itself is also governed by the cardholder terms of the bank that issues it, which we show you when your card is created.',
  ],
  sections: [
    {
      id: 'virtualcards',
      title: 'Virtual cards',
      blocks: [
        'Each employee who joins a team gets a virtual prepaid Visa card. There is no physical card: the card number, expiration date, security code and billing address are shown in the dashboard, and the card is meant for online purchases of learning materials (books, audiobooks, online courses and assessments) from learning merchants.',
        'The card is issued by our partner bank through our card issuer; [Learning Budget is not a bank](#disclosures). The card belongs to the issuing bank and can be suspended or cancelled as these terms describe. It is loaded only with money the employer provides; it is not a credit card and cannot be used to borrow.',
        'A card is personal to the employee it was issued to. Only that employee may use it, and only for their own learning.',
      ],
    },
    {
      id: 'purchasevalidation',
      title: 'Purchase validation and receipts',
      blocks: [
        `Every purchase needs a receipt. The employee must upload an image of the receipt (showing the date, the amount and what was bought) and give the purchase a title within ${RECEIPT_DUE_BUSINESS_DAYS} business days of the purchase. Business days are Monday to Friday, not counting US federal holidays. We send reminders before the deadline.`,
        'If a receipt is overdue, the card is frozen with the reason “missing receipt”: it cannot make new purchases until every overdue receipt is uploaded, and then it unfreezes by itself. A freeze a manager applied is never lifted this way; only the manager can lift it.',
        'The manager sees every purchase and receipt of their team. A purchase that is not for learning materials, or that has no receipt, may lead the manager or us to freeze or deactivate the card.',
      ],
    },
    {
      id: 'virtualbalance',
      title: 'The virtual balance',
      blocks: [
        'A card can spend only the balance it holds. A purchase larger than the balance is declined, and we tell the employee why. There is no overdraft and no credit.',
        'Balances are kept in US dollars in our ledger, which records every credit, purchase, refund and reallocation. Monthly budgets are credited when the employer’s payment for them succeeds. Unspent balance rolls over from month to month. Balances earn no interest.',
        `The money on a card is the employer’s, set aside for the employee’s learning. Each active employee costs the employer their monthly budget (${formatDollars(DEFAULT_BUDGET_DOLLARS * 100)} by default) and all of it is credited to the card; we charge no subscription fee. A change to a budget takes effect from the next monthly cycle.`,
      ],
    },
    {
      id: 'returns',
      title: 'Returns and refunds',
      blocks: [
        'Returns are handled by the merchant you bought from, under the merchant’s own return policy. Ask the merchant, not us, for a return.',
        'When a merchant refunds a purchase, the money goes back onto the card that paid, as card balance. Refunds are never paid out in cash or to a personal account.',
      ],
    },
    {
      id: 'greatervalue',
      title: 'Purchases of greater value than the balance',
      blocks: [
        'If an item costs more than the card’s balance, the purchase is declined in full; the card cannot pay part of a price. The employee can wait for the next monthly budget, or ask their manager for a one-time extra deposit. Extra deposits are charged to the employer at once and credited to the card when the charge succeeds.',
      ],
    },
    {
      id: 'unauthorizedtransactions',
      title: 'Unauthorized transactions',
      blocks: [
        'A purchase is unauthorized if it is made by anyone other than the employee the card was issued to, or if it is for something other than the employee’s learning.',
        'If an employee makes unauthorized purchases, the manager or we may deactivate the card and the employee’s account. Money spent on unauthorized purchases may not be recoverable. The remaining balance stays with the team for the manager to reallocate or redeem.',
        'If you see a purchase you did not make, report it as described under [Lost or stolen card details](#stolenvirtualcard). We review it with the card issuer under the card network’s dispute rules.',
      ],
    },
    {
      id: 'expiration',
      title: 'Expiration and inactive cards',
      blocks: [
        'Each card shows an expiration date (MM/YY). The balance belongs to the employee’s budget in our ledger, not to a card number, so it carries over to the card that replaces an expired or cancelled one.',
        `If a card makes no purchase for ${DORMANCY_MANAGER_WARNING_MONTHS} months, we tell the manager. At ${DORMANCY_NOTICE_MONTHS} months without a purchase we send notices to the employee and the manager. After ${DORMANCY_INACTIVE_AFTER_MONTHS} months the card becomes inactive and the employee is paused, which means the employer is no longer charged their monthly budget.`,
        'We do not take an inactive card’s money and nothing expires without notice: the balance stays with the team for the manager to [reallocate](#reallocation) to someone else on the team, free of charge, or to [redeem](#redemptionfees).',
      ],
    },
    {
      id: 'cardtransfer',
      title: 'No card transfers',
      blocks: [
        'Cards and balances cannot be transferred by the employee, to another person, another team or another account. Only the team’s manager can move money between people, and only within the same team (see [Reallocation](#reallocation)).',
      ],
    },
    {
      id: 'redemptionfees',
      title: 'Redemption fees',
      blocks: [
        `A manager may redeem unspent balance back to the team’s card on file. Redemption carries a fee of ${REDEMPTION_FEE_PERCENT}% of the amount redeemed or ${minFee}, whichever is greater. Redemption is not available for balances under ${minBalance}.`,
        `For example: redeeming $20 costs ${fee(20)}; redeeming $100 costs ${fee(100)}; redeeming $400 costs ${fee(400)}. The fee is taken from the amount redeemed and the rest is refunded to the card on file.`,
        'Reallocating a balance to another employee on the same team is free; only redemption carries a fee.',
      ],
    },
    {
      id: 'updates',
      title: 'Changes to these terms and notices',
      blocks: [
        'We may change these terms, for example when the law or the service changes. We will email managers before a material change takes effect and show the date of the latest version at the top of this page. If you keep using the service after a change takes effect, the new terms apply; if you do not agree, you can end the subscription as described under [Termination](#termination).',
        `We send notices by email to the address on the account, or show them in the dashboard. A notice counts as received ${NOTICE_RECEIVED_AFTER_HOURS} hours after we send it. Please keep your email address up to date.`,
      ],
    },
    {
      id: 'reallocation',
      title: 'Reallocation',
      blocks: [
        'A manager may move budget between employees on the same team at no cost. When an employee is removed, their remaining balance stays with the team until the manager reallocates it, split evenly across the employees the manager chooses or across all active employees, or redeems it. Any cents that do not split evenly are assigned by a fixed rule, so the total is always exact.',
        'Money cannot be reallocated to another team.',
      ],
    },
    {
      id: 'managertermination',
      title: 'Removing employees and manager actions',
      blocks: [
        'A manager may, at any time:',
        {
          list: [
            'pause an employee: they are not charged or funded in later cycles, and their card still spends what it holds unless it is frozen;',
            'freeze or reactivate an employee’s card; a freeze takes effect at once;',
            'remove an employee: their card is cancelled at once, they are not charged again, and their balance stays with the team for reallocation or redemption;',
            'change budgets (from the next cycle) and make one-time extra deposits.',
          ],
        },
        'The manager is responsible for giving access only to people who work with the employer, and for removing people who leave. An employee who leaves the employer must stop using the card.',
      ],
    },
    {
      id: 'stolenvirtualcard',
      title: 'Lost or stolen card details',
      blocks: [
        'If you think someone else has your card number or security code, tell your manager and [contact us](/support) straight away. The manager can freeze the card from the dashboard at once; after that no new purchase is approved. We then cancel the card and issue a new one carrying the same balance.',
        'Purchases made before the card was frozen are reviewed with the card issuer under the card network’s dispute rules. Reporting quickly limits what can be spent.',
      ],
    },
    {
      id: 'disclosures',
      title: 'Disclosures',
      blocks: [
        '**Learning Budget is not a bank.** We are a technology company. The virtual prepaid cards are issued by our partner bank through our card issuer, pursuant to a license from Visa. Visa is a trademark of Visa International Service Association.',
        'Card numbers and security codes are kept by the card issuer and shown to the employee in the issuer’s own secure frame; our servers never see or store them.',
        'Fees: no subscription fee and no fee for issuing cards; reallocation within a team is free; redemption costs the fee described under [Redemption fees](#redemptionfees). Merchants may charge their own prices, taxes and shipping.',
        'The service is for businesses and their employees in the United States, and for people aged 18 or over.',
      ],
    },
    {
      id: 'termination',
      title: 'Termination',
      blocks: [
        'The employer, through its manager, may end the subscription at any time. No further monthly budgets are charged after that. Before closing the team, the manager can reallocate remaining balances among the team or redeem them under [Redemption fees](#redemptionfees).',
        'We may suspend or close an account, or deactivate cards, if these terms are broken, if we suspect fraud or unauthorized use, if a payment fails and is not fixed, or if the law or the card issuer requires it. Where the law allows, we tell the manager first and explain why.',
        'Ending the subscription does not end the employer’s right to the money on its cards: the manager can still redeem it under [Redemption fees](#redemptionfees). If you have questions about these terms, [contact us](/support).',
      ],
    },
  ],
};
