/** Contact messages sent to support. */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys } from './keys';

export interface ContactMessage {
  messageId: string;
  name: string;
  email: string;
  subject?: string;
  message: string;
  createdAt: string;
  /** Set once the support inbox has been e-mailed. */
  emailedAt?: string;
}

export async function putMessage(message: ContactMessage): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.message(message.messageId),
        ...keys.messageByMonth(message.createdAt, message.messageId),
        entity: 'Message',
        ...message,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function markMessageEmailed(messageId: string, at: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.message(messageId),
      UpdateExpression: 'SET emailedAt = :at',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}
