/**
 * Catalogue items (access pattern #19). Keys: `MERCH#<id>` / `MERCH`, listed per
 * category on gsi1 `CATALOGUE#<category>` / `<lower name>#<id>`: seven
 * partitions read side by side, never a Scan and never one hot partition.
 * Each item carries `contentHash` (of its catalogue fields) so an import can
 * tell unchanged items without comparing every field.
 */
import { BatchWriteCommand, type BatchWriteCommandInput, GetCommand } from '@aws-sdk/lib-dynamodb';
import { categories } from '@shared/domain/skills';
import { type CatalogueItem, catalogueItem } from '@shared/schemas/catalogue';
import { db, queryAll, tableName } from './client';
import { keys } from './keys';

/** What the import needs to know of a stored item. */
export interface StoredCatalogueEntry {
  id: string;
  contentHash: string;
}

/** DynamoDB's BatchWriteItem limit. */
const BATCH_SIZE = 25;
const MAX_ATTEMPTS = 8;

function byCategory(category: string) {
  return {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.merchByCategory(category, '', '').gsi1pk },
  };
}

/** The whole catalogue, category by category, each in name order. */
export async function listCatalogue(): Promise<CatalogueItem[]> {
  const pages = await Promise.all(
    categories.map((category) => queryAll<Record<string, unknown>>(byCategory(category))),
  );
  // The schema keeps the catalogue fields and drops keys and bookkeeping (strictObject would refuse them).
  const fields = Object.keys(catalogueItem.shape);
  return pages.flat().map((stored) => {
    const item: Record<string, unknown> = {};
    for (const name of fields) if (stored[name] !== undefined) item[name] = stored[name];
    return item as CatalogueItem;
  });
}

/** Whether an item of this id is in the catalogue (one GetItem, projected to the key). */
export async function catalogueItemExists(id: string): Promise<boolean> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.merch(id), ProjectionExpression: 'pk' }),
  );
  return result.Item !== undefined;
}

/** Ids and content hashes of every stored item (projected: the import reads little). */
export async function listCatalogueEntries(): Promise<StoredCatalogueEntry[]> {
  const pages = await Promise.all(
    categories.map((category) =>
      queryAll<StoredCatalogueEntry>({
        ...byCategory(category),
        ProjectionExpression: 'id, contentHash',
      }),
    ),
  );
  return pages.flat();
}

/** Runs batch writes, retrying what DynamoDB hands back unprocessed (with backoff). */
async function batchWrite(requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string]) {
  for (let i = 0; i < requests.length; i += BATCH_SIZE) {
    let pending = requests.slice(i, i + BATCH_SIZE);
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS)
        throw new Error(`catalogue write: ${pending.length} items left unprocessed`);
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = result.UnprocessedItems?.[tableName()] ?? [];
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

/** Stores items whole (a changed name moves the item's gsi1 sort key with it). */
export async function putCatalogueItems(items: { item: CatalogueItem; contentHash: string }[]) {
  await batchWrite(
    items.map(({ item, contentHash }) => ({
      PutRequest: {
        Item: {
          ...keys.merch(item.id),
          ...keys.merchByCategory(item.category, item.name, item.id),
          entity: 'CatalogueItem',
          ...item,
          contentHash,
        },
      },
    })),
  );
}

export async function deleteCatalogueItems(ids: string[]) {
  await batchWrite(ids.map((id) => ({ DeleteRequest: { Key: keys.merch(id) } })));
}

/** One catalogue item by id (its catalogue fields), or undefined. */
export async function getCatalogueItem(id: string): Promise<CatalogueItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.merch(id) }));
  if (!result.Item) return undefined;
  const item: Record<string, unknown> = {};
  for (const name of Object.keys(catalogueItem.shape))
    if (result.Item[name] !== undefined) item[name] = result.Item[name];
  return item as CatalogueItem;
}
