/**
 * The account e-mails. Links point at the web app (WEB_ORIGIN); tokens appear
 * only in the link, never in logs.
 */
import { safeNameForEmail } from '@shared/domain/emailText';
import { formatCents } from '@shared/domain/money';
import { sendEmail } from '../../adapters/email';
import { INVITATION_LINK_DAYS } from '../../data/emailTokens';
import { webConfig } from '../../platform/config';

const PRODUCT = 'Learning Budget';

function link(path: string, params: Record<string, string> = {}): string {
  const url = new URL(path, webConfig().WEB_ORIGIN);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export async function sendVerificationEmail(to: string, firstName: string, token: string): Promise<void> {
  const url = link('/verify', { token });
  await sendEmail({
    to: [to],
    subject: `Verify your email address for ${PRODUCT}`,
    text: [
      `Hi ${firstName},`,
      '',
      `Please confirm that ${to} is your email address by opening this link:`,
      url,
      '',
      'The link works once and expires in 3 days. If you did not sign up, ignore this email.',
    ].join('\n'),
  });
}

export async function sendPasswordResetEmail(to: string, token: string): Promise<void> {
  const url = link('/forgotpassword', { token });
  await sendEmail({
    to: [to],
    subject: `Reset your ${PRODUCT} password`,
    text: [
      'Someone asked to reset the password of your account.',
      '',
      'To choose a new password, open this link:',
      url,
      '',
      'The link works once and expires in 1 hour. If it was not you, ignore this email; your password stays as it is.',
    ].join('\n'),
  });
}

/** The invitation's link: the address fills the sign-up form, the token is what lets the person join. */
function invitationLink(to: string, token: string): string {
  return link('/registerEmployee', { email: to, token });
}

function invitationLinkNote(): string {
  return `The link is yours alone: it works once and expires in ${INVITATION_LINK_DAYS} days. For a new one, open ${link('/registerEmployee')} and enter this address.`;
}

/**
 * The invitation. Sent again (the manager invited the address again), it says
 * it replaces the earlier one and, when the budget changed, from what to what:
 * the person may have read the first e-mail's amount. Its link (`token`) ends
 * the earlier ones.
 */
export async function sendInvitationEmail(
  to: string,
  token: string,
  managerName: string,
  company: string,
  budgetCents: number,
  options: { replacesBudgetCents?: number } = {},
) {
  const url = invitationLink(to, token);
  const previous = options.replacesBudgetCents;
  const replaces =
    previous === undefined
      ? []
      : [
          previous === budgetCents
            ? `This invitation replaces the one ${managerName} sent you before; nothing else changed.`
            : `This invitation replaces the one ${managerName} sent you before: your monthly budget is now ${formatCents(budgetCents)} instead of ${formatCents(previous)}.`,
          '',
        ];
  await sendEmail({
    to: [to],
    subject:
      previous === undefined
        ? `${managerName} invited you to ${PRODUCT}`
        : `${managerName} updated your invitation to ${PRODUCT}`,
    text: [
      `${managerName} at ${company} invited you to ${PRODUCT}.`,
      '',
      ...replaces,
      budgetCents > 0
        ? `You will get a virtual prepaid card with a monthly learning budget of ${formatCents(budgetCents)} to spend on books, audiobooks, courses and assessments.`
        : // A $0 budget is allowed (the manager decides later): promising '$0.00 a month' reads as a mistake.
          `You will get a virtual prepaid card to spend on books, audiobooks, courses and assessments. Your monthly learning budget is not set yet; ${managerName} will set it.`,
      '',
      `Join your team here, using this email address (${to}):`,
      url,
      '',
      invitationLinkNote(),
    ].join('\n'),
  });
}

/**
 * The link again, asked for on /registerEmployee ("Enter your email"), perhaps
 * by someone else: it goes only to the invited address, and says nothing the
 * invitation did not.
 */
export async function sendInvitationLinkEmail(
  to: string,
  token: string,
  managerName: string,
  company: string,
) {
  await sendEmail({
    to: [to],
    subject: `Your link to join ${company} on ${PRODUCT}`,
    text: [
      `Someone asked for a link to join your team on ${PRODUCT} with this address. ${managerName} at ${company} invited you.`,
      '',
      'Join your team here:',
      invitationLink(to, token),
      '',
      invitationLinkNote(),
      'If you did not ask for it, ignore this email: nobody can join with your address without this link.',
    ].join('\n'),
  });
}

/**
 * Sent at a stranger's request: the only text of theirs in it is their name,
 * made safe by safeNameForEmail (no links, no control or bidi characters, 40
 * characters at most). The address they typed is not included: it is free
 * text we cannot vouch for.
 */
export async function sendManagerInvitationEmail(to: string, fromName: string | undefined) {
  const url = link('/registerManager');
  const who = safeNameForEmail(fromName) ?? 'Someone on your team';
  await sendEmail({
    to: [to],
    subject: `${who} would like a learning budget at work`,
    text: [
      `${who} would like your team to use ${PRODUCT}.`,
      '',
      `${PRODUCT} gives every employee a monthly learning budget on a virtual prepaid card, for books, audiobooks, courses and assessments. You choose the budget; all of it goes to the employee's card.`,
      '',
      'Create your team here:',
      url,
    ].join('\n'),
  });
}

/** The code that proves it is the account's owner before a change to two-step sign-in (no password needed). */
export async function sendIdentityCodeEmail(to: string, code: string, minutes: number): Promise<void> {
  await sendEmail({
    to: [to],
    subject: `Your ${PRODUCT} code: ${code}`,
    text: [
      `Your code is ${code}.`,
      '',
      `Enter it to confirm it is you before changing two-step sign-in. It works once and expires in ${minutes} minutes.`,
      '',
      `If you did not ask for it, someone may be signed in as you: sign out everywhere from your profile and change your password (${link('/forgotpassword')}).`,
    ].join('\n'),
  });
}

export type FactorChange = 'added' | 'turnedOff' | 'newRecoveryCodes';

const FACTOR_CHANGES: Record<FactorChange, { subject: string; what: string }> = {
  added: {
    subject: 'An authenticator app was added to your account',
    what: 'An authenticator app was added to your account: from now on it asks for its code when you sign in.',
  },
  turnedOff: {
    subject: 'Two-step sign-in was turned off for your account',
    what: 'Two-step sign-in was turned off for your account: the authenticator app and the recovery codes no longer work.',
  },
  newRecoveryCodes: {
    subject: 'New recovery codes were made for your account',
    what: 'New recovery codes were made for your account: the earlier ones no longer work.',
  },
};

/**
 * Every change to the account's second factor is told to its address: a change
 * made with a stolen session is seen by the owner, who can act on it.
 */
export async function sendFactorChangeEmail(to: string, change: FactorChange, at: Date): Promise<void> {
  const { subject, what } = FACTOR_CHANGES[change];
  await sendEmail({
    to: [to],
    subject,
    text: [
      what,
      `When: ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      '',
      `If this was not you, reset your password now (${link('/forgotpassword')}), then sign in and check two-step sign-in on your profile (${link('/editProfile')}). Resetting the password signs every session out.`,
    ].join('\n'),
  });
}
