/**
 * The e2e stack's table, for the few arrangements a browser test cannot make
 * through the product (a team's past-due state, a card's receipt freeze, an
 * old purchase): one document client on the stack's DynamoDB Local.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export function e2eTable(env: { dynamodbEndpoint: string }): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.dynamodbEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}
