/**
 * The e2e stack's table, for the few arrangements a browser test cannot make
 * through the product (a team's past-due state, a card's receipt freeze, an
 * old purchase): one document client on the stack's DynamoDB Local.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../lambdas/src/data/keys';

export function e2eTable(env: { dynamodbEndpoint: string }): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.dynamodbEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}

/**
 * As if the factor proven at sign-in were older than the 5-minute window (made,
 * not waited for): the person's step-up records go.
 */
export async function ageTheFactor(env: { dynamodbEndpoint: string; tableName: string }, userId: string) {
  const db = e2eTable(env);
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: env.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': 'STEPUP#' },
    }),
  );
  for (const { pk, sk } of Items)
    await db.send(new DeleteCommand({ TableName: env.tableName, Key: { pk, sk } }));
  db.destroy();
}
