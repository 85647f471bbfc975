/**
 * POST /auth/invitationCheck - public, rate limited ("Enter your email" on
 * /registerEmployee). E-mails the invitation link if the address is invited;
 * answers the same words either way, so nothing is learnt by asking.
 */
import { httpHandler } from '../platform/http';
import { sendInvitationLink } from '../services/accounts';

export const handler = httpHandler('checkInvitation', async ({ input, now }) => ({
  message: await sendInvitationLink(input.email, now),
}));
