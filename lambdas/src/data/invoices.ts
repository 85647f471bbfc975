/**
 * Invoices and credit notes (shared/src/domain/invoices.ts): stored once,
 * never changed (but for `emailedAt`), numbered from a per-team counter in the
 * same transaction that stores them, so numbers never repeat or skip however
 * many billing runs store one at once.
 *
 * The transaction: the counter goes from the value read to the next (condition:
 * still the value read), the invoice is put under that sequence (condition:
 * new), and its source (the billing run) is put (condition: new). A failed
 * condition means another run took that number, or stored this source's
 * invoice first: the source is read again (its invoice is the answer) or the
 * next number is tried. Nothing is written unless all three are.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type InvoiceDocument, invoiceNumber } from '@shared/domain/invoices';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';
import { failedCondition, sendTransaction } from './transactions';

export interface InvoiceRecord extends InvoiceDocument {
  teamId: string;
  /** The billing run it was made for: a charge id, `DEPOSIT#<request key>`, or a redemption's entry id. */
  sourceId: string;
  /** Set once, by the run that e-mailed it to the manager. */
  emailedAt?: string;
}

export type InvoiceDraft = Omit<InvoiceRecord, 'number' | 'sequence' | 'emailedAt'>;

/** More than this many numbers taken by others while this run tried: something is wrong, give up. */
const MAX_TRIES = 100;

export async function getInvoice(teamId: string, sequence: number): Promise<InvoiceRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.invoice(teamId, sequence), ConsistentRead: true }),
  );
  return result.Item as InvoiceRecord | undefined;
}

async function invoiceOfSource(teamId: string, sourceId: string): Promise<InvoiceRecord | undefined> {
  const source = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.invoiceSource(teamId, sourceId),
      ConsistentRead: true,
    }),
  );
  const sequence = source.Item?.sequence as number | undefined;
  return sequence === undefined ? undefined : getInvoice(teamId, sequence);
}

async function lastSequence(teamId: string): Promise<number> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.invoiceCounter(teamId), ConsistentRead: true }),
  );
  return (result.Item?.lastSequence as number | undefined) ?? 0;
}

/**
 * Stores the draft under the team's next number, once per source: the
 * invoice stored for its source (by this call or any before), and whether
 * this call stored it.
 */
export async function recordInvoice(
  draft: InvoiceDraft,
): Promise<{ invoice: InvoiceRecord; created: boolean }> {
  const { teamId, sourceId } = draft;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const existing = await invoiceOfSource(teamId, sourceId);
    if (existing) return { invoice: existing, created: false };
    const last = await lastSequence(teamId);
    const sequence = last + 1;
    const invoice: InvoiceRecord = { ...draft, sequence, number: invoiceNumber(teamId, sequence) };
    try {
      await sendTransaction([
        {
          Update: {
            TableName: tableName(),
            Key: keys.invoiceCounter(teamId),
            UpdateExpression: 'SET lastSequence = :next, entity = :entity',
            ConditionExpression: last === 0 ? 'attribute_not_exists(lastSequence)' : 'lastSequence = :last',
            ExpressionAttributeValues: {
              ':next': sequence,
              ':entity': 'InvoiceCounter',
              ...(last === 0 ? {} : { ':last': last }),
            },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.invoice(teamId, sequence), entity: 'Invoice', ...invoice },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.invoiceSource(teamId, sourceId), entity: 'InvoiceSource', sourceId, sequence },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]);
      return { invoice, created: true };
    } catch (error) {
      if (!failedCondition(error)) throw error;
      // Another run took this number, or stored this source's invoice: look again.
    }
  }
  throw new Error(`could not number an invoice for ${teamId} after ${MAX_TRIES} tries`);
}

/** Claims the one e-mail of an invoice: true for the one caller that may send it. */
export async function claimInvoiceEmail(teamId: string, sequence: number, at: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoice(teamId, sequence),
        UpdateExpression: 'SET emailedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(emailedAt)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Every invoice and credit note of a team, newest (highest number) first. */
export async function listTeamInvoices(teamId: string): Promise<InvoiceRecord[]> {
  const items: InvoiceRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.team(teamId).pk, ':prefix': 'INVOICE#' },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as InvoiceRecord[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
