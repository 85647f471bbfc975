/**
 * The local web server while the app is rebuilt under it (the tests rebuild
 * web/dist while `npm start` may be serving it): the next page load gets the
 * new app shell, not a kept copy naming assets the build removed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer } from '../../infra/local/webServer';
import { freePort } from '../support/ports';

let dist: string;
let server: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'lb-web-rebuild-'));
  writeFileSync(join(dist, 'app.html'), '<!doctype html><script src="/assets/index-old.js"></script>');
  server = await startWebServer({
    port: await freePort(),
    distDir: dist,
    runtimeConfig: {},
    gatewayUrl: 'http://127.0.0.1:9',
    csp: { connect: [], img: [], frame: [] },
    log: () => undefined,
  });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('the local web server during a rebuild', () => {
  it('serves the rebuilt app shell on the next load, compressed or not', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const before = await fetch(`${server.url}/dashboard`, { headers: { 'accept-encoding': encoding } });
      expect(await before.text()).toContain('index-old.js');
    }
    writeFileSync(
      join(dist, 'app.html'),
      '<!doctype html><script src="/assets/index-new-build.js"></script>',
    );
    for (const encoding of ['br', 'gzip', 'identity']) {
      const after = await fetch(`${server.url}/dashboard`, { headers: { 'accept-encoding': encoding } });
      expect(await after.text()).toContain('index-new-build.js');
    }
  });
});
