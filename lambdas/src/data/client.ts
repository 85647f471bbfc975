/**
 * The DynamoDB document client, created once per Lambda container. Locally it
 * points at DynamoDB Local through DYNAMODB_ENDPOINT; nothing else differs.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
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
 * A ProjectionExpression for attribute paths (`joinAttempt.fundedAt` reads one
 * field of a map), with the names it needs: every part gets a placeholder, so
 * reserved words (`status`, `role`) are fine.
 */
export function projectionOf(attributes: readonly string[]): {
  ProjectionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
} {
  const names: Record<string, string> = {};
  const projection = attributes.map((path) =>
    path
      .split('.')
      .map((part) => {
        const name = `#p${Object.keys(names).length}`;
        names[name] = part;
        return name;
      })
      .join('.'),
  );
  return { ProjectionExpression: projection.join(', '), ExpressionAttributeNames: names };
}

/** Every Query page's count (Select COUNT): how many items match, without returning them. */
export async function countAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select'>,
): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), Select: 'COUNT', ExclusiveStartKey: start }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * The items of many keys (BatchGet, 100 keys a call, several calls at once),
 * projected to `attributes` when given; keys DynamoDB leaves unprocessed
 * (throttling) are asked again. Missing items are simply absent.
 */
export async function batchGetAll<T>(
  itemKeys: { pk: string; sk: string }[],
  attributes?: readonly string[],
): Promise<T[]> {
  const chunks: { pk: string; sk: string }[][] = [];
  for (let i = 0; i < itemKeys.length; i += 100) chunks.push(itemKeys.slice(i, i + 100));
  const items: T[] = [];
  const projection = attributes ? projectionOf(attributes) : undefined;
  const PARALLEL = 4;
  for (let i = 0; i < chunks.length; i += PARALLEL) {
    await Promise.all(
      chunks.slice(i, i + PARALLEL).map(async (chunk) => {
        let keysLeft: Record<string, unknown>[] = chunk;
        for (let attempt = 0; keysLeft.length > 0; attempt++) {
          if (attempt > 0)
            await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
          const result = await db().send(
            new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keysLeft, ...projection } } }),
          );
          items.push(...((result.Responses?.[tableName()] ?? []) as T[]));
          keysLeft = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
        }
      }),
    );
  }
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
