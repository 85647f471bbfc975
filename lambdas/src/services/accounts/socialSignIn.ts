/**
 * Social sign-in (Google, Facebook through Cognito's identity providers).
 * Accounts are only ever created by our registration flows, which know the
 * team and role; a social identity can only ever join an account that already
 * exists for its e-mail, never create a second one.
 *
 * It joins at once only when both sides vouch for the address: our account's
 * e-mail is verified (its link was opened) and the provider says the address
 * is verified (Google's `email_verified`, mapped by the user pool; Facebook
 * says nothing, so it never counts). Otherwise anyone could register an
 * address first and be joined by its owner's later Google sign-in, or claim
 * an address at Facebook. Then Cognito keeps the provider's sign-in as a user
 * of its own, linked to nothing, and our API asks for the account's password
 * once before joining them (socialSession.ts).
 */
import { normalizeEmail } from '@shared/schemas/fields';
import { getEmailOwner } from '../../data/accounts';
import { getUser } from '../../data/users';

export type SocialDecision =
  /** Both vouch for the address: link the identity to the account now. */
  | { action: 'link'; email: string }
  /** An account has the address, but not both vouch for it: join only after its password. */
  | { action: 'askPassword'; email: string }
  | { action: 'refuse'; message: string };

export const NO_ACCOUNT_FOR_SOCIAL =
  'There is no account for this email yet. Register first (Create New Team, or Join an Existing Team with your invitation), then sign in with Google or Facebook.';

export async function decideSocialSignUp(attributes: {
  email?: string;
  email_verified?: string;
}): Promise<SocialDecision> {
  if (!attributes.email)
    return { action: 'refuse', message: 'Your provider did not share an email address.' };
  const email = normalizeEmail(attributes.email);
  const userId = await getEmailOwner(email);
  const user = userId ? await getUser(userId) : undefined;
  if (!user || user.status === 'deleted') return { action: 'refuse', message: NO_ACCOUNT_FOR_SOCIAL };
  // Cognito passes attributes as strings: only the provider's explicit "true" counts.
  const providerVouches = attributes.email_verified === 'true';
  if (user.emailVerified && providerVouches) return { action: 'link', email };
  return { action: 'askPassword', email };
}
