/**
 * What inviting commits the team's card to, month after month (issue 24,
 * attack 2; services/money/commitments.ts says why it counts against the daily
 * deposit limit and the step-up threshold): for each address that would be
 * invited, the monthly budget offered; for an address the team has already
 * invited, only what the new budget adds to the pending invitation's.
 * Addresses that would be refused (invalid, already registered) commit nothing.
 */
import { isInvitableEmail } from '@shared/schemas/invitations';
import { getEmailOwner, getInvitation } from '../../data/accounts';
import type { Actor } from '../../platform/auth';
import { commitmentNeedsFreshFactor } from '../money';

/** The commitment one invitation stored adds, from what its write replaced (`replacedCents` of this team's). */
export function committedBy(budgetCents: number, replacedCents: number | undefined): number {
  return Math.max(0, budgetCents - (replacedCents ?? 0));
}

/**
 * Before anything is stored: what inviting `emails` at `budgetCents` would
 * commit. Read consistently, so an invitation sent a moment ago counts as
 * pending. Another team's invitation counts in full (it may be stale and
 * taken over); the count is lowered to what was stored once the invitations
 * are written.
 */
export async function invitationCommitment(
  actor: Actor,
  emails: readonly string[],
  budgetCents: number,
): Promise<number> {
  let cents = 0;
  for (const email of emails) {
    if (!isInvitableEmail(email) || (await getEmailOwner(email))) continue;
    const pending = await getInvitation(email, true);
    cents += committedBy(budgetCents, pending?.teamId === actor.teamId ? pending.budgetCents : undefined);
  }
  return cents;
}

/**
 * POST /invitations/preview: whether inviting `emails` at `budgetCents` (from
 * /inviteMembers, or the setup wizard's last step) would ask for a fresh
 * factor, counted as the invitation counts it. Stores nothing.
 */
export async function previewInvitations(
  actor: Actor,
  emails: readonly string[],
  budgetCents: number,
  now: Date,
): Promise<{ needsFreshFactor: boolean }> {
  const cents = await invitationCommitment(actor, emails, budgetCents);
  return { needsFreshFactor: await commitmentNeedsFreshFactor(actor, cents, now) };
}
