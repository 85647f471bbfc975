/**
 * The receipts bucket: presigned POST (upload straight from the browser),
 * reading back what arrived, deleting refused files, presigned GET (viewing).
 * s3rver locally checks neither signatures nor POST conditions, so nothing here
 * relies on them for safety: the service checks every stored object itself.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { awsConfig, receiptsConfig } from '../platform/config';

let client: S3Client | undefined;

function s3(): S3Client {
  if (!client) {
    const { S3_ENDPOINT } = receiptsConfig();
    client = new S3Client({
      region: awsConfig().AWS_REGION,
      // Presigned URLs with a checksum parameter are refused by S3 (local-stack.md).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      // s3rver accepts only its own fixed key pair (it is local-only; never a real credential).
      ...(S3_ENDPOINT
        ? {
            endpoint: S3_ENDPOINT,
            forcePathStyle: true,
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          }
        : {}),
    });
  }
  return client;
}

function bucket(): string {
  return receiptsConfig().RECEIPTS_BUCKET;
}

export const UPLOAD_EXPIRY_SECONDS = 300;
export const VIEW_EXPIRY_SECONDS = 60;

/** A POST policy that pins the key, the content type and 1..maxBytes bytes. */
export async function presignUpload(key: string, contentType: string, maxBytes: number) {
  // The package pins its own copy of client-s3; the client is the same at runtime.
  const presign = createPresignedPost as unknown as (
    client: unknown,
    options: Parameters<typeof createPresignedPost>[1],
  ) => ReturnType<typeof createPresignedPost>;
  return presign(s3(), {
    Bucket: bucket(),
    Key: key,
    Conditions: [
      ['eq', '$key', key],
      ['eq', '$Content-Type', contentType],
      ['content-length-range', 1, maxBytes],
    ],
    Fields: { 'Content-Type': contentType },
    Expires: UPLOAD_EXPIRY_SECONDS,
  });
}

export interface StoredObject {
  size: number;
  contentType: string | undefined;
  /** The first `limit` bytes at most. */
  bytes: Uint8Array;
}

/** What is stored under `key` (reading at most `limit` bytes), or undefined when nothing is. */
export async function readObject(key: string, limit: number): Promise<StoredObject | undefined> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    const size = head.ContentLength ?? 0;
    if (size === 0 || size > limit) return { size, contentType: head.ContentType, bytes: new Uint8Array() };
    const object = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
    return { size: bytes.length, contentType: head.ContentType, bytes };
  } catch (error) {
    if (error instanceof NotFound || error instanceof NoSuchKey) return undefined;
    if (error instanceof Error && error.name === 'NotFound') return undefined;
    throw error;
  }
}

/** Stores `bytes` under `key` (the server's own write: no presigned policy names such a key). */
export async function putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: contentType }),
  );
}

export async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}

/** A presigned GET valid for VIEW_EXPIRY_SECONDS from `now`, shown inline with its pinned type. */
export async function presignView(key: string, contentType: string, now: Date): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: 'inline',
    }),
    { expiresIn: VIEW_EXPIRY_SECONDS, signingDate: now },
  );
}
