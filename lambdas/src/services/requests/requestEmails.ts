/**
 * Fund request e-mails (issue 27): to the manager for each new request (a
 * link that opens it in the app; the link only opens it, approving is a
 * click there, signed in) and each change they did not make themselves; to
 * the employee for each decision.
 */
import { formatCents } from '@shared/domain/money';
import { sendEmail } from '../../adapters/email';
import type { RequestRecord } from '../../data/requests';
import { webConfig } from '../../platform/config';

type Person = { email: string; firstName: string };

/** The address that opens one request in the app (the manager's list, or the employee's Requests page). */
export function requestLink(requestId: string): string {
  return new URL(`/dashboard/requests/${encodeURIComponent(requestId)}`, webConfig().WEB_ORIGIN).toString();
}

function what(request: Pick<RequestRecord, 'title' | 'merchant' | 'amountCents'>): string {
  return `${formatCents(request.amountCents)} for "${request.title}" (${request.merchant})`;
}

export async function requestEmailToManager(
  manager: Person,
  employeeName: string,
  request: RequestRecord,
  _timeZone: string | undefined,
) {
  await sendEmail({
    to: [manager.email],
    subject: `${employeeName} asks for ${formatCents(request.amountCents)}: ${request.title}`,
    text: [
      `Hi ${manager.firstName},`,
      '',
      `${employeeName} asks for ${what(request)}.`,
      ...(request.link ? [`Link: ${request.link}`] : []),
      `Skill area: ${request.skillArea}`,
      '',
      `Why: ${request.why}`,
      '',
      `Open the request to approve or decline it: ${requestLink(request.requestId)}`,
      '',
      'Approving charges the amount to your team’s card as an extra deposit for them. Unanswered requests expire after 14 days.',
    ].join('\n'),
  });
}

export async function requestDecidedEmail(employee: Person, request: RequestRecord) {
  const link = requestLink(request.requestId);
  let subject: string;
  let body: string[];
  if (request.state === 'approved') {
    const cents = request.approvedCents ?? request.amountCents;
    subject = `Approved: ${formatCents(cents)} for ${request.title}`;
    body = [
      `Your request for ${what(request)} was approved${request.automatic ? ' automatically, by your team’s rule' : ''}.`,
      cents < request.amountCents
        ? `${formatCents(cents)} of the ${formatCents(request.amountCents)} asked was added to your card.`
        : `${formatCents(cents)} was added to your card.`,
    ];
  } else if (request.state === 'declined') {
    subject = `Declined: ${request.title}`;
    body = [`Your request for ${what(request)} was declined.`, '', `Reason: ${request.declineReason ?? ''}`];
  } else {
    subject = `Expired: ${request.title}`;
    body = [
      `Your request for ${what(request)} expired: it was not answered within 14 days.`,
      'You can ask again from your Requests page.',
    ];
  }
  await sendEmail({
    to: [employee.email],
    subject,
    text: [`Hi ${employee.firstName},`, '', ...body, '', `See your requests: ${link}`].join('\n'),
  });
}

/** A change the manager did not make: cancelled by the employee, approved by the team's rule, expired. */
export async function requestChangedEmail(
  manager: Person,
  employeeName: string,
  request: RequestRecord,
  change: 'cancelled' | 'approved automatically' | 'expired',
) {
  const lines = {
    cancelled: `${employeeName} cancelled their request for ${what(request)}.`,
    'approved automatically': `${employeeName}'s request for ${what(request)} was approved automatically by your team's rule, and charged to your team's card.`,
    expired: `${employeeName}'s request for ${what(request)} expired: it was not answered within 14 days. Nothing was charged.`,
  };
  const subjects = {
    cancelled: `Cancelled: ${employeeName}'s request for ${request.title}`,
    'approved automatically': `Approved automatically: ${employeeName}'s request for ${request.title}`,
    expired: `Expired: ${employeeName}'s request for ${request.title}`,
  };
  await sendEmail({
    to: [manager.email],
    subject: subjects[change],
    text: [
      `Hi ${manager.firstName},`,
      '',
      lines[change],
      '',
      `See the request: ${requestLink(request.requestId)}`,
    ].join('\n'),
  });
}
