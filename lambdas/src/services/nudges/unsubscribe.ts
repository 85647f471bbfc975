/**
 * One-click unsubscribe from the monthly e-mails, without signing in: the
 * link's token (data/emailTokens.ts, stored as its hash) names the person and
 * the kind. Only a POST changes anything (the mail client's RFC 8058 one-click,
 * or the button on the /unsubscribe page), never the page's GET, which mail
 * scanners open on their own. Unsubscribing twice is still unsubscribed.
 */
import { AppError } from '@shared/errors';
import { readUnsubscribeToken } from '../../data/emailTokens';
import { setMonthlyEmail } from '../../data/monthlyEmails';
import { getUser } from '../../data/users';
import { SETTING_LABEL } from './nudgeEmails';

export const UNSUBSCRIBE_LINK_INVALID = 'This unsubscribe link is not valid or has expired.';

export async function unsubscribe(token: string, now: Date) {
  const link = await readUnsubscribeToken(token, now);
  const user = link ? await getUser(link.userId) : undefined;
  if (!link || !user) throw new AppError('NOT_FOUND', UNSUBSCRIBE_LINK_INVALID);
  await setMonthlyEmail(user.userId, link.kind, false);
  return { kind: link.kind, setting: SETTING_LABEL[link.kind] };
}
