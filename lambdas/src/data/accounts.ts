/**
 * Teams, users, e-mail claims and invitations: the account records. Writes that
 * must hold together (a new account and its e-mail claim; an employee and the
 * invitation it consumes) are single transactions, so one e-mail is one
 * account and one invitation yields one member.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TIME_ZONE } from '@shared/domain/calendar';
import type { ClosingChoice, SuspendedBy } from '@shared/domain/subscription';
import type { Role, UserStatus } from '@shared/schemas/me';
import type { AppClient } from '../adapters/cognito';
import { REFRESH_TOKEN_VALIDITY_SECONDS } from '../platform/sessionCookie';
import {
  batchGetAll,
  countAll,
  db,
  isConditionFailure,
  projectionOf,
  queryAll,
  tableName,
  updateFields,
} from './client';
import { keys } from './keys';
import { failedCondition, failedConditionItems, sendTransaction, type TransactItem } from './transactions';
import type { UserRecord } from './users';

export interface TeamRecord {
  teamId: string;
  name: string;
  managerId: string;
  createdAt: string;
  /** setup: registered, no billing yet; active; pastDue: the manager's card was declined. */
  status: 'setup' | 'active' | 'pastDue';
  businessName?: string;
  /** The IANA zone every date of the team is printed in (shared/src/domain/calendar.ts); absent: DEFAULT_TIME_ZONE. */
  timeZone?: string;
  stripeCustomerId?: string;
  billingAddress?: { address1: string; address2?: string; city: string; state: string; zip: string };
  /** Day of month (1-31) the billing cycle renews: the setup day. */
  cycleDay?: number;
  /** `yyyy-mm` of setup: the first renewal is the month after. */
  setupMonth?: string;
  pastDueSince?: string;
  /** The subscription's lifecycle (shared/src/domain/subscription.ts); absent: running. */
  subscription?: 'suspended' | 'closed';
  suspendedAt?: string;
  suspendedBy?: SuspendedBy;
  /** The last resume: renewals whose cycle date fell before its day are not charged. */
  resumedAt?: string;
  closedAt?: string;
  /** Closing's money plan, stored before any refund so a retried close refunds the same (services/billing/subscription.ts). */
  closing?: ClosingPlan;
  /** Fund request rules (issue 27): automatic approvals a person a month, and the largest request; null is off. */
  requestRules?: { autoApproveMonthlyCents: number | null; maxRequestCents: number | null };
}

export interface ClosingPlan {
  choice: ClosingChoice;
  amountCents: number;
  feeCents: number;
  netCents: number;
  refunds: { chargeId: string; amountCents: number }[];
  status: 'planned' | 'done';
}

/** Teams are listed by the day their cycle renews (31 partitions, never one hot key). */
export function teamCycleIndex(cycleDay: number, teamId: string) {
  return { gsi2pk: `CYCLEDAY#${String(cycleDay).padStart(2, '0')}`, gsi2sk: `TEAM#${teamId}` };
}

export async function setTeamFields(teamId: string, fields: Partial<TeamRecord> & Record<string, unknown>) {
  await updateFields(keys.team(teamId), fields);
}

/**
 * Replaces a charge attempt stored on a user or team (`joinAttempt`,
 * `cycleAttempt`) only if the stored one is still the one the caller read (by
 * its Stripe key; none read: none stored), with `extra` fields in the same
 * write. False when another run changed it meanwhile.
 */
export async function replaceAttempt(
  key: { pk: string; sk: string },
  field: 'joinAttempt' | 'cycleAttempt',
  next: { key: string },
  previousKey: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<boolean> {
  try {
    await updateFields(
      key,
      { ...extra, [field]: next },
      {
        condition:
          previousKey === undefined
            ? { expression: 'attribute_not_exists(#att)', names: { '#att': field } }
            : {
                expression: '#att.#key = :previous',
                names: { '#att': field, '#key': 'key' },
                values: { ':previous': previousKey },
              },
      },
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function teamsRenewingOn(cycleDay: number): Promise<TeamRecord[]> {
  return queryAll<TeamRecord>({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': teamCycleIndex(cycleDay, '').gsi2pk },
  });
}

/**
 * Every team that ever set up billing (only they have cards and purchases):
 * the 31 cycle-day partitions list them all; a team keeps its listing when
 * suspended or closed.
 */
export async function teamsWithBilling(): Promise<TeamRecord[]> {
  const teams = new Map<string, TeamRecord>();
  for (let day = 1; day <= 31; day++) {
    for (const team of await teamsRenewingOn(day)) teams.set(team.teamId, team);
  }
  return [...teams.values()];
}

export interface InvitationRecord {
  email: string;
  teamId: string;
  managerId: string;
  budgetCents: number;
  invitedAt: string;
}

/** A team's pending invitations (access pattern 11: gsi1 `TEAM#<teamId>`, `INVITE#` prefix), every page. */
export function listTeamInvitations(teamId: string): Promise<InvitationRecord[]> {
  return queryAll<InvitationRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':prefix': 'INVITE#' },
  });
}

/** Thrown when a transaction's condition shows the e-mail is already an account. */
export class AccountConflict extends Error {}

/**
 * Thrown by the employee sign-up when the invitation it read is no longer
 * there for its team (withdrawn meanwhile) and the address is still free.
 */
export class InvitationGone extends Error {}

/** `consistent`: a strongly consistent read, for a decision right after a write that may have lost a race. */
export async function getEmailOwner(email: string, consistent = false): Promise<string | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.emailClaim(email), ConsistentRead: consistent }),
  );
  return result.Item?.userId as string | undefined;
}

export async function getTeam(teamId: string): Promise<TeamRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.team(teamId) }));
  return result.Item as TeamRecord | undefined;
}

function userItem(user: UserRecord) {
  return { ...keys.user(user.userId), ...keys.userByTeam(user.teamId, user.userId), entity: 'User', ...user };
}

/** Manager sign-up: the team, its manager and the e-mail claim, all or nothing. */
/** The zone a team's dates are printed in: its own, or the default for a team that never chose one. */
export function zoneOf(team: Pick<TeamRecord, 'timeZone'> | undefined): string {
  return team?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** The team's zone, read on its own (one GetItem) where the team record is not at hand. */
export async function getTeamZone(teamId: string): Promise<string> {
  return zoneOf(await getTeam(teamId));
}

export async function createTeamWithManager(team: TeamRecord, manager: UserRecord): Promise<void> {
  try {
    await sendTransaction([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.emailClaim(manager.email), entity: 'EmailClaim', userId: manager.userId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: tableName(), Item: { ...keys.team(team.teamId), entity: 'Team', ...team } } },
      {
        Put: {
          TableName: tableName(),
          Item: userItem(manager),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    // The address is taken (or was, a moment ago, by a racing sign-up); contention alone was retried.
    if (failedCondition(error)) throw new AccountConflict(manager.email);
    throw error;
  }
}

/** Thrown by the employee sign-up when its invitation link was used or ended meanwhile. */
export class InvitationLinkRefused extends Error {}

/**
 * Employee sign-up: consumes the invitation (it must still be the very one
 * read: same team, same `invitedAt`) and uses its link (`linkUse`, from
 * emailTokens.ts), and creates the member and the e-mail claim, in one
 * transaction.
 */
export async function createMemberFromInvitation(
  invitation: InvitationRecord,
  member: UserRecord,
  linkUse: TransactItem,
): Promise<void> {
  const INVITATION_DELETE = 0;
  const LINK_USE = 3;
  try {
    await sendTransaction([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.invitation(invitation.email),
          ConditionExpression: 'attribute_exists(pk) AND teamId = :teamId AND invitedAt = :invitedAt',
          ExpressionAttributeValues: { ':teamId': invitation.teamId, ':invitedAt': invitation.invitedAt },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.emailClaim(member.email), entity: 'EmailClaim', userId: member.userId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: userItem(member),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      linkUse,
    ]);
  } catch (error) {
    // Contention alone was retried. The address taken (a racing sign-up, which
    // also used the invitation) is a conflict; otherwise the invitation gone or
    // sent again while the address is still free means it was withdrawn or
    // replaced meanwhile, and the link alone refusing means it ended meanwhile.
    const failed = failedConditionItems(error);
    if (failed.some((item) => item !== INVITATION_DELETE && item !== LINK_USE))
      throw new AccountConflict(member.email);
    if (failed.includes(INVITATION_DELETE)) throw new InvitationGone(member.email);
    if (failed.includes(LINK_USE)) throw new InvitationLinkRefused(member.email);
    throw error;
  }
}

/**
 * A manager withdraws one pending invitation: deleted only while it is still
 * the very invitation read (this team's, same `invitedAt`), with its audit
 * entry in the same transaction. False when it is not: the person signed up
 * with it meanwhile (the sign-up deletes it in its own transaction, so only
 * one of the two can happen), or it was sent again or withdrawn meanwhile.
 */
export async function withdrawInvitation(
  invitation: InvitationRecord,
  audit: TransactItem,
): Promise<boolean> {
  try {
    await sendTransaction([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.invitation(invitation.email),
          ConditionExpression: 'teamId = :teamId AND invitedAt = :invitedAt',
          ExpressionAttributeValues: { ':teamId': invitation.teamId, ':invitedAt': invitation.invitedAt },
        },
      },
      audit,
    ]);
    return true;
  } catch (error) {
    if (failedCondition(error)) return false;
    throw error;
  }
}

/**
 * Withdraws a team's pending invitations (a closed team takes nobody new). Each
 * delete is conditional on the invitation still being this team's, so one a
 * newer team took over meanwhile stays.
 */
export async function withdrawTeamInvitations(teamId: string): Promise<number> {
  const pending = await listTeamInvitations(teamId);
  let withdrawn = 0;
  for (const invitation of pending) {
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.invitation(invitation.email),
          ConditionExpression: 'teamId = :teamId',
          ExpressionAttributeValues: { ':teamId': teamId },
        }),
      );
      withdrawn++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return withdrawn;
}

export async function getInvitation(
  email: string,
  consistent = false,
): Promise<InvitationRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.invitation(email), ConsistentRead: consistent }),
  );
  return result.Item as InvitationRecord | undefined;
}

/**
 * How long a pending invitation belongs to the team that sent it. Within it,
 * another team cannot take the person over (they would silently vanish from the
 * first team's list and be charged to the other); after it, the invitation is
 * stale and the latest team's wins.
 */
export const INVITATION_HELD_DAYS = 30;

/**
 * Creates or refreshes an invitation, in one conditional write: refreshed by
 * the same team at any time, taken over by another team only once stale. A
 * refresh answers the invitation it replaced, so the manager can be told what
 * changed (its budget).
 */
export async function putInvitation(
  invitation: InvitationRecord,
  now: Date,
): Promise<
  | { outcome: 'created' }
  | { outcome: 'updated'; replaced: InvitationRecord }
  | { outcome: 'heldByAnotherTeam' }
> {
  const staleBefore = new Date(now.getTime() - INVITATION_HELD_DAYS * 86_400_000).toISOString();
  let replaced: InvitationRecord | undefined;
  try {
    const result = await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.invitation(invitation.email),
          ...keys.invitationByTeam(invitation.teamId, invitation.email),
          entity: 'Invitation',
          ...invitation,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR teamId = :team OR invitedAt < :staleBefore',
        ExpressionAttributeValues: { ':team': invitation.teamId, ':staleBefore': staleBefore },
        // The item this write replaced, read in the same write: no separate read to go stale.
        ReturnValues: 'ALL_OLD',
      }),
    );
    replaced = result.Attributes as InvitationRecord | undefined;
  } catch (error) {
    if (isConditionFailure(error)) return { outcome: 'heldByAnotherTeam' };
    throw error;
  }
  // Taking over another team's stale invitation is, for this team, a new one.
  return replaced?.teamId === invitation.teamId ? { outcome: 'updated', replaced } : { outcome: 'created' };
}

export async function listTeamUsers(teamId: string): Promise<UserRecord[]> {
  return queryAll<UserRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':prefix': 'USER#' },
  });
}

/**
 * The team's users with only the named attributes (a path like `joinAttempt.fundedAt`
 * reads one field of a map): the same Query as listTeamUsers, a fraction of the
 * bytes, for readers of a whole team that use a few fields (insights, next charge).
 */
export async function listTeamUsersProjected<K extends string>(
  teamId: string,
  attributes: readonly K[],
): Promise<Partial<UserRecord>[]> {
  return queryAll<Partial<UserRecord>>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':prefix': 'USER#' },
    ...projectionOf(attributes),
  });
}

/** Some users by id, with only the named attributes (BatchGet); ids with no user are absent. */
export async function getUsersProjected(
  userIds: readonly string[],
  attributes: readonly string[],
): Promise<Partial<UserRecord>[]> {
  return batchGetAll<Partial<UserRecord>>(
    [...new Set(userIds)].map((id) => keys.user(id)),
    [...new Set(['userId', ...attributes])],
  );
}

/** The key condition of a team's employees whose dormancy clock started before `before` (gsi4). */
function quietBefore(teamId: string, before: string) {
  return {
    IndexName: 'gsi4',
    KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk < :before',
    ExpressionAttributeValues: { ':pk': keys.userByQuietSince(teamId, '', '').gsi4pk, ':before': before },
  };
}

/**
 * A team's employees whose dormancy clock started before `before` (ISO), the
 * quietest first (gsi4, keys.userByQuietSince), with only the named
 * attributes; at most `limit` when given. Removed people are not listed.
 */
export async function quietEmployees(
  teamId: string,
  before: string,
  attributes: readonly string[],
  limit?: number,
): Promise<Partial<UserRecord>[]> {
  const query = { ...quietBefore(teamId, before), ...projectionOf(attributes) };
  if (limit === undefined) return queryAll<Partial<UserRecord>>(query);
  const page = await db().send(new QueryCommand({ ...query, TableName: tableName(), Limit: limit }));
  return (page.Items ?? []) as Partial<UserRecord>[];
}

/** How many of a team's employees have had their dormancy clock running since before `before` (ISO). */
export function countQuietEmployees(teamId: string, before: string): Promise<number> {
  return countAll(quietBefore(teamId, before));
}

export async function setUserFields(userId: string, fields: Record<string, unknown>, remove: string[] = []) {
  await updateFields(keys.user(userId), fields, { remove });
}

export type { Role, UserStatus };

// --- Sessions ---------------------------------------------------------------

/** A session record lives as long as its refresh token can. */
const SESSION_TTL_SECONDS = REFRESH_TOKEN_VALIDITY_SECONDS;

/**
 * `createdAt` is also when the sign-in proved its factor(s): a refresh carries
 * that time to its new token. `issuedTo` is the app client whose refresh token
 * it is (a social sign-in's is the web client's), kept only when not `server`.
 */
export async function putSession(
  userId: string,
  refreshTokenHash: string,
  now: Date,
  issuedTo: AppClient = 'server',
): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.session(userId, refreshTokenHash),
        entity: 'Session',
        createdAt: now.toISOString(),
        ...(issuedTo === 'server' ? {} : { issuedTo }),
        expiresAt: Math.floor(now.getTime() / 1000) + SESSION_TTL_SECONDS,
      },
    }),
  );
}

export interface LiveSession {
  signedInAt: Date;
  issuedTo: AppClient;
}

/** The live session with this refresh token, or undefined if it is gone or expired. */
export async function liveSession(
  userId: string,
  refreshTokenHash: string,
  now: Date,
): Promise<LiveSession | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.session(userId, refreshTokenHash) }),
  );
  if (!result.Item || Number(result.Item.expiresAt) <= now.getTime() / 1000) return undefined;
  return {
    signedInAt: new Date(String(result.Item.createdAt)),
    issuedTo: result.Item.issuedTo === 'web' ? 'web' : 'server',
  };
}

export async function deleteSession(userId: string, refreshTokenHash: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.session(userId, refreshTokenHash) }));
}

/**
 * Ends every session of a user: refresh tokens stop working, and older access
 * tokens are refused. The cut-off is compared with tokens' `iat`, which the
 * user pool stamps by the real clock, so it is taken from the real clock too,
 * not the product's date (which the local stack can move forward: a cut-off in
 * that future refused every new sign-in until the real date caught up).
 */
export async function endAllSessions(
  userId: string,
  realNowMs: number = Date.now(),
  /** The one session to spare (its refresh token's hash): its holder refreshes past the cut-off. */
  keepRefreshTokenHash?: string,
): Promise<void> {
  const sessions = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': 'SESSION#' },
    ProjectionExpression: 'pk, sk',
  });
  const kept = keepRefreshTokenHash ? keys.session(userId, keepRefreshTokenHash).sk : undefined;
  for (const { pk, sk } of sessions) {
    if (sk === kept) continue;
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk } }));
  }
  await setUserFields(userId, { sessionsValidAfter: Math.floor(realNowMs / 1000) });
}
