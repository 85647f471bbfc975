/**
 * The manager's monthly digest (issue 26, point 5): last month's figures as
 * the Insights screen computes them (services/insights, read from the
 * aggregates the ledger keeps, never every purchase), in the e-mail's words
 * (nudgeEmails.ts). Computed before it is claimed, so a failure to read the
 * figures leaves the digest for the next run rather than losing it.
 */
import { previousMonth } from '@shared/domain/nudges';
import { issueUnsubscribeToken } from '../../data/emailTokens';
import { claimMonthlyEmail } from '../../data/monthlyEmails';
import type { UserRecord } from '../../data/users';
import { teamInsights, teamInsightsPeople } from '../insights';
import { digestEmail, sendMonthlyEmail } from './nudgeEmails';

/** The manager's digest of the month before `month`, if it is due them: true when this call sent it. */
export async function digestManager(manager: UserRecord, month: string, now: Date): Promise<boolean> {
  const last = previousMonth(month);
  const period = { from: last, to: last };
  const [insights, people] = await Promise.all([
    teamInsights(manager.teamId, period, now),
    teamInsightsPeople(manager.teamId, period, now),
  ]);
  if (!(await claimMonthlyEmail(manager.userId, 'digest', month, now))) return false;
  const token = await issueUnsubscribeToken(manager.userId, 'digest', now);
  await sendMonthlyEmail(
    manager.email,
    digestEmail({ firstName: manager.firstName, insights, people, unsubscribeToken: token }),
    token,
  );
  return true;
}
