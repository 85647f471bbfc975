/**
 * Pending-member funding: members who joined before billing worked, were
 * declined, or were cut off mid-way are funded again after setup, after a card
 * is added or made primary, and by the daily job. A team past due returns to
 * active once nothing it owes is unpaid.
 */
import { teamMayCharge } from '@shared/domain/subscription';
import { getTeam, listTeamUsers, setTeamFields } from '../../data/accounts';
import type { UserRecord } from '../../data/users';
import { errorFields, type Logger } from '../../platform/log';
import { AttemptRaced } from './chargeAttempts';
import { activateEmployee, type MemberRecord } from './joining';
import type { RenewableTeam } from './renewals';

export interface PendingFunding {
  funded: number;
  declined: number;
  failed: number;
}

/** Waiting for their joining money. A member who has not verified their e-mail waits for that instead. */
function isPendingMember(member: UserRecord): boolean {
  return (
    member.role === 'employee' &&
    member.status === 'active' &&
    Boolean(member.fundingPending) &&
    (member.emailVerified || (member as MemberRecord).joinAttempt?.status === 'pending')
  );
}

/** The team's members still waiting for their joining money (by user id). */
export async function pendingMembers(teamId: string): Promise<string[]> {
  return (await listTeamUsers(teamId)).filter(isPendingMember).map((member) => member.userId);
}

/**
 * Funds the team's members who are still pending: joined before billing worked,
 * declined, or cut off mid-way. Called after setup, after a card is added or
 * made primary, and by the daily job. One member's error does not stop the
 * others; a decline does, since every member is charged to the same card.
 * `retryDeclinedForDays` (the daily job) leaves out members whose declines
 * started longer ago: they wait for the manager to change the card.
 */
export async function fundPendingMembers(
  teamId: string,
  now: Date,
  log: Logger,
  options: { retryDeclinedForDays?: number } = {},
): Promise<PendingFunding> {
  const outcome: PendingFunding = { funded: 0, declined: 0, failed: 0 };
  const team = await getTeam(teamId);
  // Suspended or closed: members stay pending until a resume funds them.
  if (!team || !teamMayCharge(team)) return outcome;
  for (const member of (await listTeamUsers(teamId)) as MemberRecord[]) {
    if (!isPendingMember(member)) continue;
    const since = member.joinAttempt?.status === 'declined' ? member.joinAttempt.declinedSince : undefined;
    if (
      options.retryDeclinedForDays !== undefined &&
      since &&
      now.getTime() - Date.parse(since) >= options.retryDeclinedForDays * 86_400_000
    )
      continue;
    try {
      const result = await activateEmployee(member.userId, now, log);
      if (result === 'funded') outcome.funded++;
      if (result === 'declined') {
        outcome.declined++;
        break;
      }
    } catch (error) {
      if (error instanceof AttemptRaced) {
        // Another run is funding this member right now.
        log.info('pending member is being funded by another run', { userId: member.userId });
        continue;
      }
      outcome.failed++;
      log.error('funding a pending member failed; retried later', {
        userId: member.userId,
        ...errorFields(error),
      });
    }
  }
  if (outcome.funded > 0) await settleTeamStatus(teamId);
  return outcome;
}

/**
 * A team past due returns to active once nothing it owes is unpaid: no member
 * left pending and no declined renewal still open.
 */
async function settleTeamStatus(teamId: string): Promise<void> {
  const team = (await getTeam(teamId)) as RenewableTeam | undefined;
  if (team?.status !== 'pastDue') return;
  const cycle = team.cycleAttempt;
  const cycleUnpaid = cycle?.status === 'declined' && !((team.lastRenewedMonth ?? '') >= cycle.month);
  if (cycleUnpaid || (await listTeamUsers(teamId)).some(isPendingMember)) return;
  await setTeamFields(teamId, { status: 'active' });
}
