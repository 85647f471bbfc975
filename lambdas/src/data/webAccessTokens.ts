/**
 * The web client's access tokens our API issued (docs/security.md "Sessions").
 * The web client is public, so anyone with a person's Google password could
 * run the hosted UI's code flow themselves and take its tokens straight from
 * Cognito, past POST /auth/social and its authenticator step. Those tokens
 * verify like ours; this record is what tells ours apart (platform/auth.ts).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys } from './keys';

export async function recordWebAccessToken(
  userId: string,
  tokenId: string,
  expiresAt: number,
): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.webAccessToken(userId, tokenId), entity: 'WebAccessToken', expiresAt },
    }),
  );
}

export async function isWebAccessTokenOurs(userId: string, tokenId: string): Promise<boolean> {
  const result = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.webAccessToken(userId, tokenId),
      ProjectionExpression: 'pk',
    }),
  );
  return result.Item !== undefined;
}
