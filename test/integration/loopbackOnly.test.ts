/**
 * Nothing the local stack starts accepts connections from another machine:
 * every piece of `npm start` / `npm run dev` (DynamoDB Local's Java process,
 * cognito-local's Node process, s3rver, the SES stand-in, the Stripe emulator,
 * the gateway, Vite's dev server and the built app's server) is started here,
 * and the listening sockets of this test run's processes are read from /proc,
 * as `ss -ltnp` shows them. The test run's own stand-ins (global setup, other
 * files' gateways) are in the same process tree and are held to the same rule.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixedLog } from '../../infra/local/processes';
import type { LocalPorts } from '../../infra/local/settings';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { startWebServer } from '../../infra/local/webServer';
import { isLoopback, listeningSocketsOf } from '../support/listeningSockets';
import { freeLocalPorts, freePort } from '../support/ports';

let dataDir: string;
let stack: LocalStack | undefined;
let builtApp: { stop(): Promise<void> } | undefined;
let ports: LocalPorts;
let builtAppPort: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lb-loopback-'));
  ports = await freeLocalPorts();
  // `npm run dev` (Vite's dev server) needs no web build; the built app's server is
  // started beside it on a stub folder, so this layer never waits for a production build.
  stack = await startLocalStack({
    ports,
    dataDir,
    inMemoryDatabase: true,
    quiet: true,
    seed: false,
    dev: true,
  });
  const dist = join(dataDir, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'app.html'), '<!doctype html><title>app</title>');
  builtAppPort = await freePort();
  builtApp = await startWebServer({
    port: builtAppPort,
    distDir: dist,
    runtimeConfig: {},
    gatewayUrl: stack.apiUrl,
    csp: { connect: [], img: [], frame: [] },
    log: prefixedLog('web', true),
  });
}, 180_000);

afterAll(async () => {
  await builtApp?.stop();
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the local stack listens on loopback only', () => {
  it('sees a listening socket for every piece, DynamoDB Local among them', () => {
    const sockets = listeningSocketsOf(process.ppid);
    const listened = new Set(sockets.map((s) => s.port));
    for (const [piece, port] of Object.entries({ ...ports, builtApp: builtAppPort })) {
      expect({ piece, listening: listened.has(port) }).toEqual({ piece, listening: true });
    }
    const java = sockets.find((s) => s.port === ports.dynamodb);
    expect(java?.command).toBe('java');
  });

  it('binds every socket of this test run to 127.0.0.1 or ::1', () => {
    const sockets = listeningSocketsOf(process.ppid);
    expect(sockets.length).toBeGreaterThanOrEqual(Object.keys(ports).length);
    const exposed = sockets.filter((s) => !isLoopback(s.address));
    expect(exposed.map((s) => `${s.command} (pid ${s.pid}) on ${s.address}:${s.port}`)).toEqual([]);
  });
});
