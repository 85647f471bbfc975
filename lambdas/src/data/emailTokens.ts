/**
 * Single-use, expiring tokens for links in e-mails (verify address, reset
 * password, join a team). Only the SHA-256 of a token is stored, so a leaked
 * table cannot be turned into working links. Redeeming a reset link deletes the
 * record in the same call; a verification link is marked used instead and kept
 * until it expires, so opening it again can say "already verified"
 * (redeemOnceKeepingTrace). An invitation's link is marked used by the sign-up
 * transaction itself (invitationLinkUse).
 */
import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';
import type { TransactItem } from './transactions';

export type TokenPurpose = 'verifyEmail' | 'resetPassword';

export const TOKEN_LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  verifyEmail: 3 * 24 * 3600,
  resetPassword: 3600,
};

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new random link token stored by its hash, for `purpose`, with `fields`,
 * living `lifetimeSeconds`: every kind of e-mailed link is made here.
 */
async function storeNewToken(
  purpose: string,
  fields: Record<string, string>,
  lifetimeSeconds: number,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.emailToken(hashToken(token)),
        entity: 'EmailToken',
        purpose,
        ...fields,
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + lifetimeSeconds,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return token;
}

/** A stored token of `purpose` still alive (TTL deletion is lazy, so expiry is checked here); else undefined. */
async function liveToken(
  token: string,
  purpose: string,
  now: Date,
): Promise<Record<string, unknown> | undefined> {
  const { Item: item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.emailToken(hashToken(token)), ConsistentRead: true }),
  );
  if (item?.purpose !== purpose || !(Number(item.expiresAt) > Math.floor(now.getTime() / 1000)))
    return undefined;
  return item;
}

export function issueEmailToken(purpose: TokenPurpose, userId: string, now: Date): Promise<string> {
  return storeNewToken(purpose, { userId }, TOKEN_LIFETIME_SECONDS[purpose], now);
}

/**
 * Redeems a token once: returns its user id, or undefined if it is unknown,
 * already used, expired (TTL deletion is lazy, so expiry is checked here) or
 * issued for another purpose.
 */
export async function redeemEmailToken(
  purpose: TokenPurpose,
  token: string,
  now: Date,
): Promise<{ userId: string; createdAt: string } | undefined> {
  try {
    const result = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.emailToken(hashToken(token)),
        ConditionExpression: 'attribute_exists(pk) AND purpose = :purpose AND expiresAt > :now',
        ExpressionAttributeValues: { ':purpose': purpose, ':now': Math.floor(now.getTime() / 1000) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const attributes = result.Attributes;
    return attributes
      ? { userId: String(attributes.userId), createdAt: String(attributes.createdAt) }
      : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

export type Redemption =
  | { kind: 'first'; userId: string }
  /** This very link was redeemed before: only its holder (the e-mail's reader) can learn that. */
  | { kind: 'again'; userId: string };

/**
 * Redeems a token once, marking it used rather than deleting it: a second
 * redemption of the same link is told apart from an unknown, expired or
 * wrong-purpose one (undefined), which lets the page say "already verified"
 * instead of "invalid". One conditional write (and a read when it is refused);
 * the record goes at expiry (TTL).
 */
export async function redeemOnceKeepingTrace(
  purpose: TokenPurpose,
  token: string,
  now: Date,
): Promise<Redemption | undefined> {
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.emailToken(hashToken(token)),
        UpdateExpression: 'SET usedAt = :usedAt',
        ConditionExpression:
          'attribute_exists(pk) AND purpose = :purpose AND expiresAt > :now AND attribute_not_exists(usedAt)',
        ExpressionAttributeValues: {
          ':purpose': purpose,
          ':now': Math.floor(now.getTime() / 1000),
          ':usedAt': now.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const userId = result.Attributes?.userId;
    return typeof userId === 'string' ? { kind: 'first', userId } : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Refused: a link used before (for this purpose, not yet expired) is told apart by reading it.
    const { Item: old } = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.emailToken(hashToken(token)),
        ConsistentRead: true,
      }),
    );
    const expiresAt = Number(old?.expiresAt);
    if (
      old?.purpose === purpose &&
      typeof old.usedAt === 'string' &&
      typeof old.userId === 'string' &&
      expiresAt > Math.floor(now.getTime() / 1000)
    ) {
      return { kind: 'again', userId: old.userId };
    }
    return undefined;
  }
}

/**
 * An invitation's link (issue 24, attack 3): the secret that sign-up needs, so
 * knowing an invited address is not enough to join in that person's place. It
 * names the invitation it was made for by address, team and `invitedAt`; the
 * manager inviting again writes a new `invitedAt`, which ends every earlier
 * link. One the person asks for again ("Enter your email") is made for the
 * same invitation and leaves the earlier ones working, so a stranger asking
 * cannot break the link already in someone's mailbox.
 */
const JOIN_TEAM = 'joinTeam';

/** How long an invitation's link works. After it, the person asks for a new one with their address. */
export const INVITATION_LINK_DAYS = 7;

export interface InvitationLink {
  email: string;
  teamId: string;
  invitedAt: string;
  /** Set by the sign-up that used it. */
  usedAt?: string;
}

export function issueInvitationToken(
  invitation: { email: string; teamId: string; invitedAt: string },
  now: Date,
): Promise<string> {
  const { email, teamId, invitedAt } = invitation;
  return storeNewToken(JOIN_TEAM, { email, teamId, invitedAt }, INVITATION_LINK_DAYS * 24 * 3600, now);
}

/**
 * The invitation link a token is, used or not; undefined when it is unknown,
 * expired or a link of another kind.
 */
export async function readInvitationToken(token: string, now: Date): Promise<InvitationLink | undefined> {
  const item = await liveToken(token, JOIN_TEAM, now);
  if (!item) return undefined;
  return {
    email: String(item.email),
    teamId: String(item.teamId),
    invitedAt: String(item.invitedAt),
    ...(typeof item.usedAt === 'string' ? { usedAt: item.usedAt } : {}),
  };
}

/**
 * The sign-up transaction's use of the link: once, and only while it lives.
 * Kept (marked used) until it expires, so opening it again can say the person
 * already joined.
 */
export function invitationLinkUse(token: string, now: Date): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.emailToken(hashToken(token)),
      UpdateExpression: 'SET usedAt = :usedAt',
      ConditionExpression:
        'attribute_exists(pk) AND purpose = :purpose AND expiresAt > :now AND attribute_not_exists(usedAt)',
      ExpressionAttributeValues: {
        ':purpose': JOIN_TEAM,
        ':now': Math.floor(now.getTime() / 1000),
        ':usedAt': now.toISOString(),
      },
    },
  };
}

/**
 * Unsubscribe links of the monthly e-mails (issue 26): one token per e-mail
 * sent, naming the person and the kind of e-mail. Not single-use: a mail
 * client's one-click POST and the person's own click on the page may both
 * arrive, and unsubscribing twice is still unsubscribed. Only the hash is
 * stored; the link works for UNSUBSCRIBE_LINK_DAYS (well beyond the next
 * e-mail, which brings a new one).
 */
const UNSUBSCRIBE = 'unsubscribe';
export const UNSUBSCRIBE_LINK_DAYS = 180;

export function issueUnsubscribeToken(userId: string, kind: 'nudge' | 'digest', now: Date): Promise<string> {
  return storeNewToken(UNSUBSCRIBE, { userId, kind }, UNSUBSCRIBE_LINK_DAYS * 24 * 3600, now);
}

/** The person and kind an unsubscribe token names; undefined when unknown, expired or another kind of link. */
export async function readUnsubscribeToken(
  token: string,
  now: Date,
): Promise<{ userId: string; kind: 'nudge' | 'digest' } | undefined> {
  const item = await liveToken(token, UNSUBSCRIBE, now);
  if (!item || (item.kind !== 'nudge' && item.kind !== 'digest')) return undefined;
  return { userId: String(item.userId), kind: item.kind };
}
