/** Users (managers and employees). Key layout in keys.ts. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DormancyRecord } from '@shared/domain/dormancy';
import type { Role, UserStatus } from '@shared/schemas/me';
import { db, tableName } from './client';
import { keys } from './keys';

export interface UserRecord {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  teamId: string;
  status: UserStatus;
  emailVerified: boolean;
  finishedWalkthrough: boolean;
  createdAt: string;
  lastLogin?: string;
  jobRole?: string;
  zip?: string;
  /** This cycle's monthly budget, cents (employees). */
  budgetCents?: number;
  /** Budget from the next cycle on, cents (spec: a change takes effect next month). */
  nextBudgetCents?: number;
  /** Access tokens issued before this (epoch seconds) are refused: set when all sessions end. */
  sessionsValidAfter?: number;
  /** Password-reset links made before this (ISO time) no longer work: a newer link, or a new password, ended them. */
  resetLinksValidAfter?: string;
  deletedAt?: string;
  /** The issuer's card id (ic_...), once a card is issued. */
  cardId?: string;
  /** Joined, but not charged and funded yet (the team had no billing, or the charge was declined). */
  fundingPending?: boolean;
  /** Dormancy clock start (ISO): last purchase, card issue or a manager's reactivation. */
  quietSince?: string;
  /** Dormancy notices sent and the deactivation, each with its time. */
  dormancy?: DormancyRecord;
  /** The last day (`yyyy-mm-dd`, team's calendar) a manager set: the daily job removes them on it (issue 28). */
  lastDay?: string;
  /**
   * Set while a removed person is being reactivated (issue 28): when they were
   * removed and when the reactivation began. Cleared, with the audit entry,
   * once their card and pooled money are back; a run cut off before is resumed.
   */
  restoring?: { deletedAt: string; since: string };
  /** Monthly e-mails turned off (`nudge`, `digest`; data/monthlyEmails.ts). Absent: all on. */
  monthlyEmailsOff?: Set<string>;
}

export async function getUser(userId: string): Promise<UserRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(userId) }));
  return result.Item as UserRecord | undefined;
}

/** The user as last written (a consistent read): for a step that must see a write made a moment ago. */
export async function getUserNow(userId: string): Promise<UserRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: true }),
  );
  return result.Item as UserRecord | undefined;
}
