/**
 * s3rver, a local S3. It checks no signatures and no presigned-POST conditions,
 * so the product never relies on S3 for validation (local-stack.md).
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import type { LogSink } from './processes';

type Store = S3rver['store'];

/**
 * s3rver 3.7's putObject answers before the object is on disk: it resolves
 * when the data has passed its hash, not when the file is written, so a
 * HeadObject right after an upload can see 0 bytes (a confirmed receipt then
 * reads "is empty" on a busy machine). S3 answers only once the object is
 * stored; this does the same, and is otherwise the store's own code.
 */
function durablePutObject(store: Store): Store['putObject'] {
  return async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    if (Buffer.isBuffer(object.content)) {
      await writeFile(objectPath, object.content);
      md5.update(object.content);
      size = object.content.length;
    } else {
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          md5.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      await pipeline(object.content, measure, createWriteStream(objectPath));
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

function corsXml(origin: string): string {
  return `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

export async function startS3(options: {
  port: number;
  dataDir: string;
  bucket: string;
  webOrigin: string;
  log: LogSink;
}) {
  const directory = resolve(options.dataDir);
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [corsXml(options.webOrigin)] }],
  });
  server.store.putObject = durablePutObject(server.store);
  await server.run();
  options.log(`bucket ${options.bucket} ready`);
  return { endpoint: `http://127.0.0.1:${options.port}`, stop: () => server.close() };
}
