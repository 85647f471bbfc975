import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import type { LocalPorts } from '../../infra/local/settings';

/**
 * Ports handed out below Linux's ephemeral range (32768-60999): a port the OS
 * picked for us there (listen on 0) is also where it picks the source port of
 * every outgoing connection, and with the suite's many short connections one
 * took a port between this check and the stack's listen (EADDRINUSE, a
 * stack that never started). Here only another test's pick can collide, and
 * each pick is checked free first.
 */
const RANGE_START = 20_000;
const RANGE_SIZE = 12_000;
/** Never the same port twice from one process: a stack's seven picks are not listening yet when the next is made. */
const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port that was free a moment ago on 127.0.0.1, outside the range outgoing connections use. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = RANGE_START + randomInt(RANGE_SIZE);
    if (handedOut.has(port) || !(await isFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found between ${RANGE_START} and ${RANGE_START + RANGE_SIZE}`);
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
