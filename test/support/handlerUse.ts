/**
 * Integration setup file: after each test file, notes which handler and job
 * files it called through the local gateway and scheduler, for
 * `npm test -- --changed` (scripts/changedTests.mjs), which cannot see those
 * calls in any import. Kept under node_modules/.cache, never committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, expect } from 'vitest';
import { calledHandlerFiles } from '../../infra/local/handlerModules';
// @ts-expect-error a plain ES module shared with scripts/run-tests.mjs
import { HANDLER_USE_DIR } from '../../scripts/changedTests.mjs';

afterAll(() => {
  const testPath = expect.getState().testPath;
  if (!testPath) return;
  const dir = join(process.cwd(), HANDLER_USE_DIR);
  mkdirSync(dir, { recursive: true });
  const name = relative(process.cwd(), testPath).replaceAll('/', '__');
  writeFileSync(join(dir, `${name}.json`), JSON.stringify([...calledHandlerFiles].sort()));
});
