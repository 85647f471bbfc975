/**
 * Per-recipient daily caps on every e-mail a stranger can make us send
 * (docs/decisions.md "E-mail abuse"): without them anyone could use our sender
 * to flood an address (password recovery, invite-your-manager), or a throwaway
 * manager account could spam invitations. Over the cap the e-mail is not sent
 * and the route answers as on success, so nothing is learnt about the address.
 * The per-client route limits (routes.ts) still apply on top.
 */
import { takeEmailAllowance } from '../../data/rateLimits';
import type { Logger } from '../../platform/log';
import { createLogger } from '../../platform/log';

/** E-mails per recipient per UTC day. */
export const EMAIL_CAPS = {
  passwordReset: 5,
  /** Sign-up sends one; resends are also limited to 3 per 10 minutes per user. */
  verification: 3,
  invitation: 3,
  /** The invitation link asked for again on /registerEmployee ("Enter your email"). */
  invitationLink: 3,
  managerInvitation: 3,
  /** Codes for changing two-step sign-in without a password. */
  identityCode: 5,
} as const;

export type CappedEmail = keyof typeof EMAIL_CAPS;

/** True when `kind` may still be e-mailed to `recipient` today; counts this one. */
export async function mayEmail(
  kind: CappedEmail,
  recipient: string,
  now: Date,
  log: Logger = createLogger({ operationId: 'emailCaps' }),
): Promise<boolean> {
  const allowed = await takeEmailAllowance(kind, recipient, EMAIL_CAPS[kind], now);
  if (!allowed) log.warn('e-mail over its daily cap: not sent', { kind });
  return allowed;
}
