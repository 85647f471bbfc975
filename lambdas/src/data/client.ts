/**
 * The DynamoDB document client, created once per Lambda container. Locally it
 * points at DynamoDB Local through DYNAMODB_ENDPOINT; nothing else differs.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { awsConfig, tableConfig } from '../platform/config';

let documentClient: DynamoDBDocumentClient | undefined;

export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { DYNAMODB_ENDPOINT } = tableConfig();
    const raw = new DynamoDBClient({
      region: awsConfig().AWS_REGION,
      ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
    });
    documentClient = DynamoDBDocumentClient.from(raw, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
}

export function tableName(): string {
  return tableConfig().TABLE_NAME;
}

/** True when DynamoDB refused a write because its condition did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Every item of a query, following DynamoDB's pages (a page stops at 1 MB). */
export async function queryAll<T>(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }),
    );
    items.push(...((page.Items ?? []) as T[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Sets (and removes) named attributes of an existing item, conditioned on it
 * existing and on `condition` (with its own names and values) when given.
 * Undefined values are skipped. Throws ConditionalCheckFailed when a condition fails.
 */
export async function updateFields(
  key: { pk: string; sk: string },
  fields: Record<string, unknown>,
  options: {
    remove?: string[];
    condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  } = {},
): Promise<void> {
  const names: Record<string, string> = { ...options.condition?.names };
  const values: Record<string, unknown> = { ...options.condition?.values };
  const sets = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], i) => {
      names[`#f${i}`] = name;
      values[`:v${i}`] = value;
      return `#f${i} = :v${i}`;
    });
  const removes = (options.remove ?? []).map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: ['attribute_exists(pk)', options.condition?.expression]
        .filter(Boolean)
        .join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
    }),
  );
}
