/** POST /me/identityCode - signed in. E-mails an 8-digit code to the account's verified address: proof for factor changes without a password. */
import { httpHandler } from '../platform/http';
import { sendIdentityCode } from '../services/accounts';

export const handler = httpHandler('sendIdentityCode', ({ actor, now }) => sendIdentityCode(actor, now));
