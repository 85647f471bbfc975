/**
 * Invitation links (issue 24, attack 3; decisions.md "Invitations carry a
 * single-use link"). An invitation is keyed by its address, which others can
 * learn, so the secret is the link e-mailed to that address: sign-up needs it
 * (accounts.ts registerEmployee). Without the link, "Enter your email" e-mails
 * it to the address if it is invited, and answers the same words either way,
 * so asking tells nobody whether an address is invited.
 */
import { INVITATION_LINK_SENT } from '@shared/schemas/auth';
import { getEmailOwner, getInvitation, getTeam, type InvitationRecord } from '../../data/accounts';
import { issueInvitationToken } from '../../data/emailTokens';
import { getUser } from '../../data/users';
import { sendInvitationEmail, sendInvitationLinkEmail } from './accountEmails';
import { mayEmail } from './emailCaps';

/** What a refused link is told (expired, replaced by a newer invitation, or not a link of ours). */
export const INVITATION_LINK_INVALID =
  'This invitation link has expired or was replaced by a newer one. Enter your email and we will send you a new link.';

/**
 * The manager's invitation e-mail (services/employees calls it once the
 * invitation is stored), with a new link for exactly this invitation: one sent
 * again has a new `invitedAt`, which ends the earlier links.
 */
export async function sendInvitation(
  invitation: Pick<InvitationRecord, 'email' | 'teamId' | 'invitedAt' | 'budgetCents'>,
  managerName: string,
  company: string,
  options: { replacesBudgetCents?: number },
  now: Date,
): Promise<void> {
  const token = await issueInvitationToken(invitation, now);
  await sendInvitationEmail(invitation.email, token, managerName, company, invitation.budgetCents, options);
}

/**
 * "Enter your email" (POST /auth/invitationCheck, public): e-mails a new link
 * to the address if it has a pending invitation, at most EMAIL_CAPS.invitationLink
 * times a day; otherwise nothing. The answer is the same words in every case.
 */
export async function sendInvitationLink(email: string, now: Date): Promise<typeof INVITATION_LINK_SENT> {
  // Consistent: an invitation withdrawn a moment ago gets no new link.
  const invitation = await getInvitation(email, true);
  if (invitation && !(await getEmailOwner(email)) && (await mayEmail('invitationLink', email, now))) {
    const [team, manager] = await Promise.all([getTeam(invitation.teamId), getUser(invitation.managerId)]);
    if (team && manager) {
      const token = await issueInvitationToken(invitation, now);
      await sendInvitationLinkEmail(email, token, `${manager.firstName} ${manager.lastName}`, team.name);
    }
  }
  return INVITATION_LINK_SENT;
}
