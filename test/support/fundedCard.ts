/**
 * An employee of a team of their own, with a card, funded through the ledger
 * (a joining credit): the smallest world a card authorization or settlement
 * test needs, written straight to the table instead of through sign-up.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { funding } from '@shared/domain/ledger';
import { putCard } from '../../lambdas/src/data/cards';
import { keys } from '../../lambdas/src/data/keys';
import { post } from '../../lambdas/src/data/ledger';
import type { IntegrationStack } from './integrationStack';

export interface FundedCard {
  userId: string;
  teamId: string;
  cardId: string;
}

export async function fundedCard(
  stack: Pick<IntegrationStack, 'doc' | 'tableName'>,
  cents: number,
  options: { userStatus?: string; cardStatus?: 'active' | 'inactive' } = {},
): Promise<FundedCard> {
  const userId = `u-${randomUUID()}`;
  const teamId = `t-${randomUUID()}`;
  const cardId = `ic_${randomUUID().replace(/-/g, '')}`;
  await stack.doc.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: {
        ...keys.user(userId),
        entity: 'User',
        userId,
        teamId,
        role: 'employee',
        status: options.userStatus ?? 'active',
        email: `${userId}@example.com`,
        firstName: 'C',
        lastName: 'H',
        emailVerified: true,
        finishedWalkthrough: false,
        createdAt: new Date().toISOString(),
      },
    }),
  );
  await putCard({
    cardId,
    cardholderId: 'ich_test',
    userId,
    teamId,
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
    status: options.cardStatus ?? 'active',
    lifetimeLimitCents: cents,
    createdAt: new Date().toISOString(),
  });
  if (cents > 0) {
    await post(
      funding({
        entryId: `JOIN#${userId}`,
        teamId,
        userId,
        amountCents: cents,
        description: 'Budget',
        chargeId: 'ch_test',
      }),
    );
  }
  return { userId, teamId, cardId };
}
