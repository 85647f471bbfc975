/**
 * The single table's physical shape. CDK creates the AWS table from this, and
 * the local stack and tests create theirs from it too, so they cannot drift.
 * Logical layout (what lives under which key) is in keys.ts and docs/data-model.md.
 */
export const tableSpec = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after this. */
  ttlAttribute: 'expiresAt',
  /**
   * Every index projects all attributes: gsi1 and gsi2 serve lists that show
   * whole items, and gsi3 is sparse (only purchases awaiting a receipt), so
   * a full copy of its few items costs little and saves a read per item.
   * gsi4 lists only employees (by their dormancy clock): the insights lists
   * show their names and dormancy day straight from it.
   */
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  ],
} as const;

export type IndexName = (typeof tableSpec.globalIndexes)[number]['name'];
type IndexSpec = (typeof tableSpec.globalIndexes)[number];

const stringAttribute = (name: string) => ({ AttributeName: name, AttributeType: 'S' as const });

/** One index as CreateTable (and UpdateTable's Create) takes it. */
export function globalIndexInput(index: IndexSpec) {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
}

/** The key attributes an index needs defined on the table. */
export function indexAttributeDefinitions(index: IndexSpec) {
  return [stringAttribute(index.partitionKey), stringAttribute(index.sortKey)];
}

/** The same spec as a CreateTable request (on-demand), for DynamoDB Local and tests. */
export function createTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [
      stringAttribute(tableSpec.partitionKey),
      stringAttribute(tableSpec.sortKey),
      ...tableSpec.globalIndexes.flatMap(indexAttributeDefinitions),
    ],
    KeySchema: [
      { AttributeName: tableSpec.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableSpec.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: tableSpec.globalIndexes.map(globalIndexInput),
  };
}
