/**
 * aws-ses-v2-local: accepts SES v2 SendEmail and shows every message in a web
 * mailbox at its root; GET /store returns them as JSON (tests read links there).
 * The mailbox lives in memory: it is empty after a restart.
 */
import type { Server } from 'node:http';
import sesModule from 'aws-ses-v2-local';
import type { LogSink } from './processes';

// The package is CommonJS with `exports.default`; Node's ESM interop wraps it once more.
type SesServer = (config: { host: string; port: number }) => Promise<unknown>;
const sesServer = ((sesModule as unknown as { default?: SesServer }).default ?? sesModule) as SesServer;

export async function startSes(options: { port: number; log: LogSink }) {
  const server = (await sesServer({ host: '127.0.0.1', port: options.port })) as unknown as Server;
  options.log(`mailbox at http://127.0.0.1:${options.port}/`);
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
