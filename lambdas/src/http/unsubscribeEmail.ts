/**
 * POST /email/unsubscribe?token=... - public (the link is the proof), rate
 * limited. Turns the monthly e-mail the token names off; the same again is
 * still off. Takes the mail client's one-click form body (RFC 8058) as well as JSON.
 */
import { httpHandler } from '../platform/http';
import { unsubscribe } from '../services/nudges';

export const handler = httpHandler('unsubscribeEmail', ({ input, now }) => unsubscribe(input.token, now));
