import { createServer } from 'node:net';
import type { LocalPorts } from '../../infra/local/settings';

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A free port for each piece of a local stack (infra/local/stack.ts), for a stack of its own. */
export async function freeLocalPorts(): Promise<LocalPorts> {
  return {
    web: await freePort(),
    api: await freePort(),
    ses: await freePort(),
    s3: await freePort(),
    dynamodb: await freePort(),
    cognito: await freePort(),
    stripe: await freePort(),
  };
}
