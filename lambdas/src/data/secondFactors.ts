/**
 * The second factor's records: one item per user holding the TOTP secret
 * (pending until confirmed with a code) and the SHA-256 of each unused recovery
 * code, and one short-lived item per access token that proved a fresh factor
 * (step-up). A recovery code is used up by a conditional write, so two
 * requests with the same code cannot both pass.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

export interface SecondFactorRecord {
  userId: string;
  /** The TOTP secret awaiting its first code (enrolment not finished), sealed (adapters/factorKey.ts). */
  pendingSecret?: string;
  /** The TOTP secret in force, sealed; set once a code confirmed it. Plain base32 if stored before sealing. */
  totpSecret?: string;
  enabledAt?: string;
  /** SHA-256 (hex) of each recovery code not yet used. */
  recoveryCodeHashes?: string[];
  /** The last TOTP time step accepted: a code is good once (RFC 6238 §5.2). */
  lastTotpStep?: number;
}

export async function getSecondFactor(userId: string): Promise<SecondFactorRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.secondFactor(userId), ConsistentRead: true }),
  );
  return result.Item as SecondFactorRecord | undefined;
}

/** Starts (or restarts) an enrolment; a factor already in force is kept until a new one is confirmed. */
export async function putPendingSecret(userId: string, secret: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.secondFactor(userId),
      UpdateExpression: 'SET pendingSecret = :secret, entity = :entity, userId = :userId',
      ExpressionAttributeValues: { ':secret': secret, ':entity': 'SecondFactor', ':userId': userId },
    }),
  );
}

/** Puts the pending secret (`pending`, as stored) in force as `sealed`, with fresh recovery codes; false if the pending secret changed meanwhile. */
export async function enableTotp(
  userId: string,
  pending: string,
  sealed: string,
  recoveryCodeHashes: string[],
  step: number,
  now: Date,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.secondFactor(userId),
        UpdateExpression:
          'SET totpSecret = :secret, enabledAt = :now, recoveryCodeHashes = :codes, lastTotpStep = :step REMOVE pendingSecret',
        ConditionExpression: 'pendingSecret = :pending',
        ExpressionAttributeValues: {
          ':pending': pending,
          ':secret': sealed,
          ':now': now.toISOString(),
          ':codes': recoveryCodeHashes,
          ':step': step,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Records a TOTP step as used; false if it (or a later one) was already used: a replayed code. */
export async function spendTotpStep(userId: string, step: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.secondFactor(userId),
        UpdateExpression: 'SET lastTotpStep = :step',
        ConditionExpression:
          'attribute_exists(totpSecret) AND (attribute_not_exists(lastTotpStep) OR lastTotpStep < :step)',
        ExpressionAttributeValues: { ':step': step },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Uses up one recovery code; false if it is not (or no longer) among the unused ones. */
export async function spendRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
  const record = await getSecondFactor(userId);
  const index = record?.recoveryCodeHashes?.indexOf(codeHash) ?? -1;
  if (index < 0) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.secondFactor(userId),
        // The condition pins the list entry, so a concurrent use of the same code fails here.
        UpdateExpression: `REMOVE recoveryCodeHashes[${index}]`,
        ConditionExpression: `recoveryCodeHashes[${index}] = :hash`,
        ExpressionAttributeValues: { ':hash': codeHash },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Replaces a secret stored before sealing with its sealed form, unless it changed meanwhile. */
export async function resealTotpSecret(userId: string, plain: string, sealed: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.secondFactor(userId),
        UpdateExpression: 'SET totpSecret = :sealed',
        ConditionExpression: 'totpSecret = :plain',
        ExpressionAttributeValues: { ':sealed': sealed, ':plain': plain },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export async function replaceRecoveryCodes(userId: string, recoveryCodeHashes: string[]): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.secondFactor(userId),
      UpdateExpression: 'SET recoveryCodeHashes = :codes',
      ConditionExpression: 'attribute_exists(totpSecret)',
      ExpressionAttributeValues: { ':codes': recoveryCodeHashes },
    }),
  );
}

/**
 * Turns the authenticator off: the secret and every recovery code go (an
 * unfinished enrolment too). An update, not a delete, so the grant stays
 * `table:write`. False when it was not on (a second request lost the race).
 */
export async function turnOffTotp(userId: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.secondFactor(userId),
        UpdateExpression: 'REMOVE totpSecret, enabledAt, recoveryCodeHashes, pendingSecret, lastTotpStep',
        ConditionExpression: 'attribute_exists(totpSecret)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function removeSecondFactor(userId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.secondFactor(userId) }));
}

/** Notes that the holder of access token `tokenId` proved a factor at `now`; kept `seconds` after. */
export async function putStepUp(userId: string, tokenId: string, now: Date, seconds: number): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.stepUp(userId, tokenId),
        entity: 'StepUp',
        provedAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + seconds,
      },
    }),
  );
}

/** When the holder of this access token last proved a factor, if still on record. */
export async function getStepUp(userId: string, tokenId: string): Promise<Date | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.stepUp(userId, tokenId), ConsistentRead: true }),
  );
  return result.Item ? new Date(String(result.Item.provedAt)) : undefined;
}
