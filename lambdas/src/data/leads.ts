/** Waitlist leads, one per e-mail (joining twice refreshes the record). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys } from './keys';

export interface Lead {
  email: string;
  name: string;
  company?: string;
  createdAt: string;
  updatedAt: string;
}

export async function upsertLead(
  input: { email: string; name: string; company?: string },
  at: string,
): Promise<void> {
  // createdAt (and so the month index) is fixed by the first submission.
  const index = keys.leadByMonth(at, input.email);
  // A later submission without a company clears the one given before: the latest form wins.
  const company = input.company === undefined ? ' REMOVE company' : ', company = :company';
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.lead(input.email),
      UpdateExpression:
        'SET entity = :entity, email = :email, #name = :name, updatedAt = :at, ' +
        'createdAt = if_not_exists(createdAt, :at), gsi1pk = if_not_exists(gsi1pk, :gsi1pk), ' +
        `gsi1sk = if_not_exists(gsi1sk, :gsi1sk)${company}`,
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: {
        ':entity': 'Lead',
        ':email': input.email,
        ':name': input.name,
        ...(input.company === undefined ? {} : { ':company': input.company }),
        ':at': at,
        ':gsi1pk': index.gsi1pk,
        ':gsi1sk': index.gsi1sk,
      },
    }),
  );
}
