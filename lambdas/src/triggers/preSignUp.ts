/**
 * Cognito pre-sign-up trigger. For a first sign-in with Google or Facebook:
 * link the identity to the existing account with that e-mail when both the
 * account and the provider vouch for the address; let Cognito keep it as a
 * user of its own, linked to nothing, when they do not (our API then asks for
 * the account's password before joining them); or refuse (the message reaches
 * the browser). Our own e-mail sign-ups pass untouched.
 */
import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { linkSocialIdentity } from '../adapters/cognito';
import { createLogger } from '../platform/log';
import { decideSocialSignUp } from '../services/accounts';

export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  if (event.triggerSource !== 'PreSignUp_ExternalProvider') return event;
  const log = createLogger({ trigger: 'preSignUp' });
  const decision = await decideSocialSignUp(event.request.userAttributes);
  if (decision.action === 'refuse') {
    log.info('social sign-up refused');
    throw new Error(decision.message);
  }
  if (decision.action === 'askPassword') {
    // Nothing is linked: the tokens Cognito issues are for a user that is none of our accounts,
    // and POST /auth/social asks for the account's password before joining the two.
    log.info('social sign-up kept apart until the account password is given');
    return event;
  }
  // userName is "<Provider>_<provider's user id>", e.g. "Google_1234567890".
  const separator = event.userName.indexOf('_');
  const provider = event.userName.slice(0, separator);
  const providerUserId = event.userName.slice(separator + 1);
  await linkSocialIdentity(event.userPoolId, decision.email, provider, providerUserId);
  log.info('social identity linked to the existing account', { provider });
  // Cognito may still answer this very first attempt with an error once the link is made;
  // every later sign-in with the provider yields the linked account's tokens.
  return event;
}
