/**
 * A purchase as the card settlement records it, awaiting its receipt, written
 * straight to a test stack's table: how tests get purchases of a chosen age
 * (an overdue one, one on a given day) without waiting for the calendar.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { purchaseItem } from '../../lambdas/src/data/purchases';
import type { IntegrationStack } from './integrationStack';

let count = 0;

export async function putAwaitingPurchase(
  stack: Pick<IntegrationStack, 'doc' | 'tableName'>,
  employee: { userId: string; cardId: string },
  teamId: string,
  purchase: { createdAt: string; amountCents?: number; merchant?: string },
): Promise<string> {
  const purchaseId = `ipi_awaiting_${Date.now()}_${count++}`;
  await stack.doc.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: purchaseItem({
        purchaseId,
        userId: employee.userId,
        teamId,
        cardId: employee.cardId,
        amountCents: purchase.amountCents ?? 1299,
        merchant: purchase.merchant ?? 'Powell’s Books',
        category: 'book_stores',
        createdAt: purchase.createdAt,
        receiptStatus: 'awaiting',
      }),
    }),
  );
  return purchaseId;
}
