/**
 * The local S3 stand-in answers an upload only once the object is stored, as
 * S3 does (infra/local/s3.ts, durablePutObject): a HeadObject or GetObject
 * straight after sees every byte. s3rver 3.7 on its own answered before the
 * file was written, and a receipt confirmed at once could read as empty.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixedLog } from '../../infra/local/processes';
import { startS3 } from '../../infra/local/s3';
import { freePort } from '../support/ports';

const BUCKET = 'durability-test';
let s3: Awaited<ReturnType<typeof startS3>>;
let client: S3Client;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lb-s3-'));
  s3 = await startS3({
    port: await freePort(),
    dataDir: dir,
    bucket: BUCKET,
    webOrigin: 'http://127.0.0.1:5173',
    log: prefixedLog('s3', true),
  });
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** 1 MB of bytes that differ per object, so a short or mixed file cannot pass. */
function body(seed: number): Buffer {
  return Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => (i * 31 + seed) & 255));
}

async function expectStored(key: string, expected: Buffer) {
  const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
  expect(head.ContentLength).toBe(expected.length);
  const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  const bytes = Buffer.from(
    await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  );
  expect(bytes.equals(expected)).toBe(true);
}

describe('the local S3 stand-in', () => {
  it('has every byte of a PutObject as soon as it answers', async () => {
    await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const key = `put/${n}`;
        const data = body(n);
        await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: data }));
        await expectStored(key, data);
      }),
    );
  });

  it('has every byte of a browser’s presigned POST as soon as it answers', async () => {
    await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const key = `post/${n}`;
        const data = body(100 + n);
        const post = await createPresignedPost(client, { Bucket: BUCKET, Key: key, Expires: 60 });
        const form = new FormData();
        for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
        form.append('file', new Blob([new Uint8Array(data)]), 'receipt.bin');
        const answer = await fetch(post.url, { method: 'POST', body: form });
        expect(answer.status).toBeLessThan(300);
        await expectStored(key, data);
      }),
    );
  });
});
