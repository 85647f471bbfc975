/** POST /auth/invitationCheck - public, rate limited. Only whether an invitation exists. */
import { httpHandler } from '../platform/http';
import { checkInvitation } from '../services/accounts';

export const handler = httpHandler('checkInvitation', async ({ input }) => ({
  invited: await checkInvitation(input.email),
}));
