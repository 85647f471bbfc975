/**
 * Receipts (spec §5, decisions.md "Policies"): the browser uploads straight to
 * the private bucket with a presigned POST whose key we choose (team, purchase,
 * random id; never the file name); the confirm call then checks the stored
 * bytes (size, content sniffed with `file-type`, and the image's own structure
 * to its end marker) and only then records it. A refused object is deleted and
 * nothing is recorded. Every upload, accepted or refused, is audited.
 */

import type { AuditAction } from '@shared/domain/auditLog';
import {
  imageStructureProblem,
  isReceiptType,
  RECEIPT_MAX_BYTES,
  textType,
  tooLargeMessage,
  unsupportedFormatMessage,
} from '@shared/domain/receiptFiles';
import { AppError } from '@shared/errors';
import type { CardAfterReceipt, PurchaseRow } from '@shared/schemas/purchases';
import { fileTypeFromBuffer } from 'file-type';
import { newId } from '../../adapters/clock';
import {
  deleteObject,
  presignUpload,
  presignView,
  putObject,
  readObject,
  UPLOAD_EXPIRY_SECONDS,
  VIEW_EXPIRY_SECONDS,
} from '../../adapters/receipts';
import { getTeamZone } from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import { markReceiptSeen, recordReceipt } from '../../data/purchases';
import type { Actor } from '../../platform/auth';
import { toRow, visiblePurchase } from '../purchases';
import { onReceiptReceived } from './receiptPolicy';

/** The object key of one upload: chosen here, from ids only. */
export function receiptKey(teamId: string, purchaseId: string, uploadId: string): string {
  return `receipts/${teamId}/${purchaseId}/${uploadId}`;
}

/**
 * Where a receipt lives once checked and recorded. An upload's presigned POST
 * stays usable until it expires, so a confirmed receipt left at its upload key
 * could be replaced after the manager saw it; no upload policy names a key
 * under `confirmed/`, and the bytes stored there are the ones checked.
 */
export function confirmedReceiptKey(teamId: string, purchaseId: string, uploadId: string): string {
  return `confirmed/${teamId}/${purchaseId}/${uploadId}`;
}

function refuse(message: string): never {
  throw new AppError('RULE_VIOLATED', message);
}

const notReplaceable = 'Your manager has already seen this receipt, so it cannot be replaced.';

export async function createReceiptUpload(
  actor: Actor,
  input: { purchaseId: string; contentType: string; size: number; fileName: string },
  now: Date,
) {
  const purchase = await visiblePurchase(actor, input.purchaseId);
  if (purchase.receiptSeenAt) throw new AppError('CONFLICT', notReplaceable);
  if (!isReceiptType(input.contentType)) refuse(unsupportedFormatMessage(input.contentType, input.fileName));
  if (input.size > RECEIPT_MAX_BYTES) refuse(tooLargeMessage(input.fileName));
  if (input.size === 0) refuse(`'${input.fileName}' is empty.`);
  const uploadId = newId(now);
  const post = await presignUpload(
    receiptKey(purchase.teamId, purchase.purchaseId, uploadId),
    input.contentType,
    RECEIPT_MAX_BYTES,
  );
  return {
    uploadId,
    url: post.url,
    fields: post.fields,
    expiresAt: new Date(now.getTime() + UPLOAD_EXPIRY_SECONDS * 1000).toISOString(),
  };
}

/** What is wrong with the stored object, or undefined when it is a receipt we take. */
async function storedProblem(
  stored: { size: number; contentType: string | undefined; bytes: Uint8Array },
  fileName: string,
): Promise<{ problem: string } | { contentType: 'image/png' | 'image/jpeg' | 'image/gif' }> {
  if (stored.size === 0) return { problem: `'${fileName}' is empty.` };
  if (stored.size > RECEIPT_MAX_BYTES) return { problem: tooLargeMessage(fileName) };
  const detected = await fileTypeFromBuffer(stored.bytes);
  if (!detected || !isReceiptType(detected.mime)) {
    return { problem: unsupportedFormatMessage(detected?.mime ?? textType(stored.bytes), fileName) };
  }
  if (stored.contentType !== detected.mime) {
    return { problem: `'${fileName}' is not the ${stored.contentType ?? 'image'} it says it is.` };
  }
  const broken = imageStructureProblem(stored.bytes, detected.mime);
  if (broken) return { problem: `'${fileName}' is not a valid image: ${broken}.` };
  return { contentType: detected.mime };
}

export async function confirmReceipt(
  actor: Actor,
  input: { purchaseId: string; uploadId: string; title: string; fileName: string },
  now: Date,
): Promise<{ purchase: PurchaseRow; card: CardAfterReceipt }> {
  const purchase = await visiblePurchase(actor, input.purchaseId);
  const key = receiptKey(purchase.teamId, purchase.purchaseId, input.uploadId);
  const stored = await readObject(key, RECEIPT_MAX_BYTES);
  if (!stored) refuse('The file did not arrive; please upload it again.');
  const audit = (action: AuditAction, after: Record<string, unknown>) =>
    recordAudit({
      teamId: purchase.teamId,
      actorId: actor.userId,
      action,
      // The person whose purchase it is (the log's "To whom" and person filter); the purchase beside.
      targetId: purchase.userId,
      at: now.toISOString(),
      ...(purchase.receipt ? { before: { key: purchase.receipt.key, title: purchase.title } } : {}),
      after: { purchaseId: purchase.purchaseId, ...after },
    });
  const verdict = await storedProblem(stored, input.fileName);
  if ('problem' in verdict) {
    await deleteObject(key);
    await audit('receipt.refused', { key, size: stored.size, reason: verdict.problem });
    refuse(verdict.problem);
  }
  if (purchase.receiptSeenAt) {
    await deleteObject(key);
    throw new AppError('CONFLICT', notReplaceable);
  }
  const confirmedKey = confirmedReceiptKey(purchase.teamId, purchase.purchaseId, input.uploadId);
  await putObject(confirmedKey, stored.bytes, verdict.contentType);
  await deleteObject(key);
  const receipt = {
    key: confirmedKey,
    contentType: verdict.contentType,
    size: stored.size,
    uploadedAt: now.toISOString(),
    uploadedBy: actor.userId,
  };
  let updated: Awaited<ReturnType<typeof recordReceipt>>;
  try {
    updated = await recordReceipt(purchase.purchaseId, input.title, receipt);
  } catch (error) {
    await deleteObject(confirmedKey);
    throw error;
  }
  await audit(purchase.receipt ? 'receipt.replaced' : 'receipt.uploaded', {
    key: confirmedKey,
    size: stored.size,
    contentType: verdict.contentType,
    title: input.title,
  });
  // The replaced file stays recoverable for 30 days as a noncurrent version (statefulStack.ts).
  if (purchase.receipt && purchase.receipt.key !== confirmedKey) await deleteObject(purchase.receipt.key);
  // A card frozen for missing receipts is unfrozen now, not at the next daily run,
  // once none is overdue (never when the manager froze it too).
  const { card } = await onReceiptReceived(purchase.userId, now);
  return { purchase: toRow(updated, now, await getTeamZone(purchase.teamId)), card };
}

export async function receiptUrl(actor: Actor, purchaseId: string, now: Date) {
  const purchase = await visiblePurchase(actor, purchaseId);
  if (!purchase.receipt) throw new AppError('NOT_FOUND', 'This purchase has no receipt yet.');
  const { key, contentType } = purchase.receipt;
  if (!isReceiptType(contentType)) throw new AppError('NOT_FOUND', 'This purchase has no receipt yet.');
  if (actor.role === 'manager' && !purchase.receiptSeenAt) {
    if (await markReceiptSeen(purchase.purchaseId, now.toISOString())) {
      await recordAudit({
        teamId: purchase.teamId,
        actorId: actor.userId,
        action: 'receipt.seen',
        targetId: purchase.userId,
        at: now.toISOString(),
        after: { purchaseId: purchase.purchaseId, key, ...(purchase.title ? { title: purchase.title } : {}) },
      });
    }
  }
  return {
    url: await presignView(key, contentType, now),
    expiresAt: new Date(now.getTime() + VIEW_EXPIRY_SECONDS * 1000).toISOString(),
    contentType,
    title: purchase.title ?? null,
  };
}
