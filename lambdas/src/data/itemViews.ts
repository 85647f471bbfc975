/**
 * Shop item views (analytics, access pattern #29). Keys: `ITEMVIEWS#<teamId>#<yyyy-mm>`
 * / `VIEW#<viewedAt>#<viewId>`: a team's views of a month in time order with
 * one Query. Each view expires a year after it happened (TTL `expiresAt`), so
 * nobody's browsing is kept longer than the insights need.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '@shared/schemas/me';
import { db, queryAll, tableName } from './client';
import { keys } from './keys';

/** How long a view is kept: one year (leap years are not worth a second rule). */
export const ITEM_VIEW_RETENTION_SECONDS = 365 * 24 * 3600;

export interface ItemView {
  viewId: string;
  teamId: string;
  userId: string;
  role: Role;
  itemId: string;
  viewedAt: string;
}

export async function putItemView(view: ItemView): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.itemView(view.teamId, view.viewedAt, view.viewId),
        // The person's views (gsi2): what a purchase's skill area is inferred from (issue 26).
        ...keys.itemViewByUser(view.userId, view.viewedAt, view.viewId),
        entity: 'ItemView',
        ...view,
        expiresAt: Math.floor(Date.parse(view.viewedAt) / 1000) + ITEM_VIEW_RETENTION_SECONDS,
      },
      // The id is a fresh ULID; the condition only guards against a colliding retry.
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A team's views in the month of `at`, oldest first (for insights; also what the tests read). */
export async function listTeamItemViews(teamId: string, at: string): Promise<ItemView[]> {
  const { pk } = keys.itemView(teamId, at, '');
  return queryAll<ItemView>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :view)',
    ExpressionAttributeValues: { ':pk': pk, ':view': 'VIEW#' },
  });
}

/** Up to `limit` of one person's views between two instants (both included), newest first (gsi2). */
export async function userItemViewsBetween(
  userId: string,
  fromIso: string,
  toIso: string,
  limit: number,
): Promise<ItemView[]> {
  const { gsi2pk } = keys.itemViewByUser(userId, '', '');
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': gsi2pk, ':from': `VIEW#${fromIso}`, ':to': `VIEW#${toIso}#\uffff` },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as ItemView[];
}
