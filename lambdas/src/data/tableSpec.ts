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
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

export type IndexName = (typeof tableSpec.globalIndexes)[number]['name'];

/** The same spec as a CreateTable request (on-demand), for DynamoDB Local and tests. */
export function createTableInput(tableName: string) {
  const keyAttrs = [
    tableSpec.partitionKey,
    tableSpec.sortKey,
    ...tableSpec.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttrs.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: tableSpec.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableSpec.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: tableSpec.globalIndexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
