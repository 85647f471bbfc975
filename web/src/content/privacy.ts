/** /privacy (spec §1: the service is not for children under 13). */
import type { LegalDocument } from './legal';

export const privacy: LegalDocument = {
  title: 'Privacy Policy',
  updated: 'Last updated November 21, 2026',
  intro: [
    'This policy explains what Learning Budget collects when a company uses our service to give its employees learning budgets on virtual prepaid cards, why we collect it, who can see it and what choices you have. It applies to our website, the dashboard and the cards.',
    'We collect what we need to run budgets and cards, and nothing for advertising. We do not sell personal information.',
  ],
  sections: [
    {
      id: 'collect',
      title: 'What we collect',
      blocks: [
        {
          list: [
            '**Account details:** first and last name, email address, password (stored only as a secure hash by our sign-in service), company name (managers) and zip code (employees), job role if you add one, and whether you finished the dashboard tour.',
            '**Team and budget details:** who invited whom, each employee’s budget, status (invited, active, paused or removed) and card status.',
            '**Purchases:** for each card purchase, the merchant, amount, date and time, and whether it was approved or declined and why; the title and receipt image the employee uploads.',
            '**Payment details of the employer:** the company card is handled by our payment provider; we receive only its last four digits and billing address. Virtual card numbers and security codes stay with the card issuer and are never sent to our servers.',
            '**Messages:** what you send us through the contact form or the waitlist (name, email, company, subject and message).',
            '**Technical data:** sign-in times, and server logs with IP address and browser type, used to keep the service secure and working.',
          ],
        },
      ],
    },
    {
      id: 'use',
      title: 'How we use it',
      blocks: [
        {
          list: [
            'to create accounts and cards, fund budgets, approve or decline purchases, and show balances;',
            'to show managers their team’s purchases and receipts, and employees their own;',
            'to send the emails the service depends on: invitations, verification, receipt reminders, inactive-card notices, and answers to your messages;',
            'to prevent fraud and misuse, and to meet the legal obligations of a prepaid card program;',
            'to fix problems and improve the service, using aggregated information.',
          ],
        },
        'We do not use your information for advertising and we do not sell it or share it for cross-site tracking.',
      ],
    },
    {
      id: 'visibility',
      title: 'Who can see what',
      blocks: [
        'An employee sees their own card, balance, purchases and receipts. Their manager sees the team’s budgets, card statuses, purchases and receipts, because that is how the employer accounts for its money. Managers cannot see card numbers of their employees’ cards. Employees cannot see each other’s information.',
      ],
    },
    {
      id: 'sharing',
      title: 'Who we share it with',
      blocks: [
        'We share information only with the service providers that run parts of the service for us, under contracts that limit their use of it to that purpose:',
        {
          list: [
            'our card issuer and its partner bank, which issue the cards and process card payments;',
            'our payment provider, which charges the employer’s card;',
            'Amazon Web Services, which hosts the service, stores data and sends our emails.',
          ],
        },
        'We may also disclose information when the law requires it, to protect people from fraud or harm, or as part of a sale or merger of our business, in which case this policy keeps applying to it.',
      ],
    },
    {
      id: 'cookies',
      title: 'Cookies and local storage',
      blocks: [
        'We use no advertising or analytics cookies. When you sign in, the browser stores your session and a note of whether you are a manager or an employee, so the site can show the right buttons. Signing out removes them.',
      ],
    },
    {
      id: 'retention',
      title: 'How long we keep it',
      blocks: [
        'We keep account and team information while the account is open. Records of money movements and purchases, with their receipts, are kept as long as financial and card-program rules require, usually several years after a team closes. Messages and waitlist entries are deleted when they are no longer needed to answer you. Removing an employee or deleting an account stops further processing, except for the records the law requires us to keep.',
      ],
    },
    {
      id: 'security',
      title: 'How we protect it',
      blocks: [
        'Data is encrypted in transit and at rest. Every request is checked on our servers: a manager can reach only their own team, an employee only their own data. Receipts are stored privately and shown only through short-lived links. Card numbers never pass through our servers.',
      ],
    },
    {
      id: 'choices',
      title: 'Your choices and rights',
      blocks: [
        'You can see and correct your name and profile in the dashboard, and delete your account from the profile page. You can ask us for a copy of your information, or to correct or delete it, by [contacting us](/support); we answer within the time the law gives. Employees can also ask their manager, who controls the team’s account.',
        'If you live in a state with its own privacy law, such as California, you have the rights that law gives, including to know, correct and delete your information and not to be treated differently for using them. We do not sell or share personal information as those laws define it.',
      ],
    },
    {
      id: 'children',
      title: 'Children',
      blocks: [
        '**The service is not for children under 13.** It is a workplace service for employers and their employees, and we do not knowingly collect information from anyone under 13. If you believe a child under 13 has given us information, [contact us](/support) and we will delete it.',
      ],
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      blocks: [
        'If we change this policy we will update the date at the top, and for material changes we will email managers before the change takes effect.',
      ],
    },
    {
      id: 'contact',
      title: 'Contact',
      blocks: ['Questions about privacy? Write to us through the [contact form](/support).'],
    },
  ],
};
