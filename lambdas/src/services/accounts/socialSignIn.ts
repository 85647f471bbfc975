/**
 * Social sign-in (Google, Facebook through Cognito's identity providers).
 * Accounts are only ever created by our registration flows, which know the
 * team and role; a social identity can only be linked to an account that
 * already exists for the same verified e-mail, never create a second one.
 */
import { normalizeEmail } from '@shared/schemas/fields';
import { getEmailOwner } from '../../data/accounts';
import { getUser } from '../../data/users';

export type SocialDecision = { action: 'link'; email: string } | { action: 'refuse'; message: string };

export const NO_ACCOUNT_FOR_SOCIAL =
  'There is no account for this email yet. Register first (Create New Team, or Join an Existing Team with your invitation), then sign in with Google or Facebook.';

export async function decideSocialSignUp(attributes: {
  email?: string;
  email_verified?: string;
}): Promise<SocialDecision> {
  if (!attributes.email)
    return { action: 'refuse', message: 'Your provider did not share an email address.' };
  // Google and Facebook vouch for the addresses they send; an unverified one could belong to someone else.
  if (attributes.email_verified !== undefined && attributes.email_verified !== 'true') {
    return { action: 'refuse', message: 'Please verify your email address with your provider first.' };
  }
  const email = normalizeEmail(attributes.email);
  const userId = await getEmailOwner(email);
  const user = userId ? await getUser(userId) : undefined;
  if (!user || user.status === 'deleted') return { action: 'refuse', message: NO_ACCOUNT_FOR_SOCIAL };
  return { action: 'link', email };
}
