/**
 * Provisioning (SCIM): the team's provisioning tokens and the people its
 * identity provider created.
 *
 * Keys (keys.ts):
 *   TEAM#<teamId> / PROVTOKEN#<tokenId>   a token as the manager sees it (never the token itself)
 *   PROVKEY#<sha256> / PROVKEY            the lookup of a presented token, revoked with the token
 *   SCIM#<teamId> / USER#<scimId>         a SCIM user: what the IdP sent, the invitation address, state
 *   SCIM#<teamId> / NAME#|MAIL#|EXT#<v>   uniqueness claims holding the scimId
 *
 * A claim is taken in the transaction that writes its user, so two creates of
 * the same person racing store one; a create refused later (the daily limit)
 * marks its claims `released`, which a later claim may take over (no deletes:
 * the functions need no DeleteItem).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ScimUserFields } from '@shared/domain/scim';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';
import { failedConditionItems, sendTransaction, type TransactItem } from './transactions';

// --- Tokens ------------------------------------------------------------------------

export interface ProvisioningTokenRecord {
  teamId: string;
  tokenId: string;
  name: string;
  /** The token's first characters (`lbscim_ab12`), so a manager can tell tokens apart. */
  hint: string;
  /** SHA-256 of the token (hex): the lookup item's key, for revoking it. */
  tokenHash: string;
  createdAt: string;
  createdBy: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

/** What the lookup of a presented token holds: enough to act without a second read. */
export interface ProvisioningTokenLookup {
  teamId: string;
  tokenId: string;
  name: string;
  createdBy: string;
  revokedAt?: string;
}

export async function putProvisioningToken(record: ProvisioningTokenRecord, audit: TransactItem) {
  const lookup: ProvisioningTokenLookup = {
    teamId: record.teamId,
    tokenId: record.tokenId,
    name: record.name,
    createdBy: record.createdBy,
  };
  await sendTransaction([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.provisioningToken(record.teamId, record.tokenId),
          entity: 'ProvisioningToken',
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.provisioningTokenHash(record.tokenHash), entity: 'ProvisioningTokenKey', ...lookup },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    audit,
  ]);
}

export function listProvisioningTokens(teamId: string): Promise<ProvisioningTokenRecord[]> {
  return queryAll<ProvisioningTokenRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':prefix': 'PROVTOKEN#' },
  });
}

export async function getProvisioningToken(
  teamId: string,
  tokenId: string,
): Promise<ProvisioningTokenRecord | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.provisioningToken(teamId, tokenId),
      ConsistentRead: true,
    }),
  );
  return Item as ProvisioningTokenRecord | undefined;
}

/**
 * Revokes both items at once, the lookup first in meaning: a call already
 * authenticated may finish, the next one is refused. False when it was
 * already revoked (the audit entry is then not written twice).
 */
export async function revokeProvisioningToken(
  record: ProvisioningTokenRecord,
  at: string,
  audit: TransactItem,
): Promise<boolean> {
  try {
    await sendTransaction([
      {
        Update: {
          TableName: tableName(),
          Key: keys.provisioningToken(record.teamId, record.tokenId),
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':at': at },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.provisioningTokenHash(record.tokenHash),
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at },
        },
      },
      audit,
    ]);
    return true;
  } catch (error) {
    if (failedConditionItems(error).length > 0) return false;
    throw error;
  }
}

/** The token presented, read consistently: a revocation a moment ago refuses it. */
export async function lookupProvisioningToken(
  tokenHash: string,
): Promise<ProvisioningTokenLookup | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.provisioningTokenHash(tokenHash),
      ConsistentRead: true,
    }),
  );
  return Item as ProvisioningTokenLookup | undefined;
}

/** How stale "last used" may get: one write a minute per token, not one per call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function touchProvisioningToken(teamId: string, tokenId: string, now: Date): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.provisioningToken(teamId, tokenId),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':stale': new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString(),
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

// --- SCIM users ---------------------------------------------------------------------

export interface ScimUserRecord extends ScimUserFields {
  teamId: string;
  scimId: string;
  /**
   * creating: claimed, the invitation not yet settled; created: invited (or a
   * member of the team adopted); refused: the invitation was refused (the
   * daily limit), so the person does not exist and the claims are released.
   */
  state: 'creating' | 'created' | 'refused' | 'deleted';
  /** The member it became, once known (joined, or adopted as a member at creation). */
  userId?: string;
  /** The monthly budget the invitation offered, in cents. */
  budgetCents: number;
  createdAt: string;
  updatedAt: string;
  /** The token that created it. */
  createdBy: string;
}

type ClaimKind = 'NAME' | 'MAIL' | 'EXT';

/** Refused creates and deleted users are gone for the IdP (GET answers 404). */
function isListed(user: ScimUserRecord): boolean {
  return user.state !== 'refused' && user.state !== 'deleted';
}

/** The Activity Log's actor id for what a provisioning token did (services/team names it by the token). */
export function provisioningActorId(tokenId: string): string {
  return `provisioning:${tokenId}`;
}

function claimValues(user: ScimUserFields): [ClaimKind, string | undefined][] {
  return [
    ['NAME', user.userName.toLowerCase()],
    ['MAIL', user.email],
    ['EXT', user.externalId],
  ];
}

function takeClaim(teamId: string, kind: ClaimKind, value: string, scimId: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.scimClaim(teamId, kind, value), entity: 'ScimClaim', scimId },
      ConditionExpression: 'attribute_not_exists(pk) OR released = :released OR scimId = :scimId',
      ExpressionAttributeValues: { ':released': true, ':scimId': scimId },
    },
  };
}

function releaseClaim(teamId: string, kind: ClaimKind, value: string, scimId: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.scimClaim(teamId, kind, value),
      UpdateExpression: 'SET released = :released',
      ConditionExpression: 'scimId = :scimId',
      ExpressionAttributeValues: { ':released': true, ':scimId': scimId },
    },
  };
}

/** Which attribute's uniqueness refused a write. */
export class ScimClaimTaken extends Error {
  constructor(readonly attribute: 'userName' | 'email' | 'externalId') {
    super(attribute);
  }
}

const ATTRIBUTE_OF: Record<ClaimKind, 'userName' | 'email' | 'externalId'> = {
  NAME: 'userName',
  MAIL: 'email',
  EXT: 'externalId',
};

async function sendWithClaims(items: TransactItem[], claimKinds: (ClaimKind | undefined)[]) {
  try {
    await sendTransaction(items);
  } catch (error) {
    const failed = failedConditionItems(error);
    const kind = failed.map((i) => claimKinds[i]).find(Boolean);
    if (kind) throw new ScimClaimTaken(ATTRIBUTE_OF[kind]);
    throw error;
  }
}

/** Stores a new SCIM user with its claims; ScimClaimTaken when another user of the team holds one. */
export async function createScimUser(user: ScimUserRecord): Promise<void> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.scimUser(user.teamId, user.scimId), entity: 'ScimUser', ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  const kinds: (ClaimKind | undefined)[] = [undefined];
  for (const [kind, value] of claimValues(user)) {
    if (value === undefined) continue;
    items.push(takeClaim(user.teamId, kind, value, user.scimId));
    kinds.push(kind);
  }
  await sendWithClaims(items, kinds);
}

/**
 * Replaces a stored user (read as `before`) with `after`: claims for changed
 * values are taken and the old ones released, in one transaction guarded by
 * `before.updatedAt`, so of two racing changes one wins and the other is
 * refused (ScimUserChanged) to be read and tried again.
 */
export class ScimUserChanged extends Error {}

export async function replaceScimUser(before: ScimUserRecord, after: ScimUserRecord): Promise<void> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.scimUser(after.teamId, after.scimId), entity: 'ScimUser', ...after },
        ConditionExpression: 'updatedAt = :updatedAt',
        ExpressionAttributeValues: { ':updatedAt': before.updatedAt },
      },
    },
  ];
  const kinds: (ClaimKind | undefined)[] = [undefined];
  const old = new Map(claimValues(before));
  for (const [kind, value] of claimValues(after)) {
    const was = old.get(kind);
    if (value === was) continue;
    if (value !== undefined) {
      items.push(takeClaim(after.teamId, kind, value, after.scimId));
      kinds.push(kind);
    }
    // A released claim's failure is not a uniqueness refusal: the user changed meanwhile.
    if (was !== undefined) {
      items.push(releaseClaim(after.teamId, kind, was, after.scimId));
      kinds.push(undefined);
    }
  }
  try {
    await sendWithClaims(items, kinds);
  } catch (error) {
    if (error instanceof ScimClaimTaken) throw error;
    if (failedConditionItems(error).length > 0) throw new ScimUserChanged();
    throw error;
  }
}

/**
 * A create refused after its claims were taken (`refused`), or a user the
 * IdP deleted (`deleted`): gone for the IdP, their claims free again.
 */
export async function releaseScimUser(
  user: ScimUserRecord,
  state: 'refused' | 'deleted',
  at: string,
): Promise<void> {
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.scimUser(user.teamId, user.scimId),
        UpdateExpression: 'SET #state = :state, active = :false, updatedAt = :at',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state, ':false': false, ':at': at },
      },
    },
  ];
  for (const [kind, value] of claimValues(user)) {
    if (value !== undefined) items.push(releaseClaim(user.teamId, kind, value, user.scimId));
  }
  await sendTransaction(items);
}

/** A create settled: invited (at `budgetCents`) or a member adopted (`userId`). */
export async function settleScimUser(
  user: ScimUserRecord,
  fields: { budgetCents: number; userId?: string },
  at: string,
): Promise<ScimUserRecord> {
  const settled: ScimUserRecord = { ...user, ...fields, state: 'created', updatedAt: at };
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.scimUser(user.teamId, user.scimId),
      UpdateExpression: 'SET #state = :state, updatedAt = :at, budgetCents = :budget'.concat(
        fields.userId ? ', userId = :userId' : '',
      ),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':state': 'created',
        ':at': at,
        ':budget': fields.budgetCents,
        ...(fields.userId ? { ':userId': fields.userId } : {}),
      },
    }),
  );
  return settled;
}

/** A user of the team by its SCIM id; refused creates are not there. */
export async function getScimUser(teamId: string, scimId: string): Promise<ScimUserRecord | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.scimUser(teamId, scimId), ConsistentRead: true }),
  );
  const user = Item as ScimUserRecord | undefined;
  return user && isListed(user) ? user : undefined;
}

/** The user holding a claim (userName, address or externalId), if any. */
export async function findScimUser(
  teamId: string,
  attribute: 'userName' | 'email' | 'externalId',
  value: string,
): Promise<ScimUserRecord | undefined> {
  const kind: ClaimKind = attribute === 'userName' ? 'NAME' : attribute === 'email' ? 'MAIL' : 'EXT';
  const claimValue =
    attribute === 'userName' ? value.toLowerCase() : attribute === 'email' ? value.toLowerCase() : value;
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.scimClaim(teamId, kind, claimValue),
      ConsistentRead: true,
    }),
  );
  if (!Item || Item.released === true) return undefined;
  return getScimUser(teamId, Item.scimId as string);
}

/**
 * Every SCIM user of the team, oldest first (ULID ids). One partition per
 * team, read in pages; a company's few thousand people are a few queries.
 */
export async function listScimUsers(teamId: string): Promise<ScimUserRecord[]> {
  const items = await queryAll<ScimUserRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `SCIM#${teamId}`, ':prefix': 'USER#' },
  });
  return items.filter(isListed);
}

/**
 * Someone removed outside SCIM (the manager's delete, their last day): their
 * SCIM user, if the team's identity provider made one for the address, reads
 * `active: false` from now on, so the IdP sees the removal (and may send
 * `active: true` to reactivate). Nothing when there is none or it already is.
 */
export async function markScimUserInactive(teamId: string, email: string, at: string): Promise<void> {
  const user = await findScimUser(teamId, 'email', email);
  if (!user?.active) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.scimUser(teamId, user.scimId),
        UpdateExpression: 'SET active = :false, updatedAt = :at',
        ConditionExpression: 'active = :true',
        ExpressionAttributeValues: { ':false': false, ':true': true, ':at': at },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
