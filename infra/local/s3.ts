/**
 * s3rver, a local S3. It checks no signatures and no presigned-POST conditions,
 * so the product never relies on S3 for validation (local-stack.md).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import S3rver from 's3rver';
import type { LogSink } from './processes';

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
  await server.run();
  options.log(`bucket ${options.bucket} ready`);
  return { endpoint: `http://127.0.0.1:${options.port}`, stop: () => server.close() };
}
