#!/usr/bin/env node
/**
 * `npm test`: every layer, one after another (unit, infra, integration, e2e),
 * so the stacks they start never compete for the machine's two cores. Stops at
 * nothing: every layer runs, and the exit code is non-zero if any failed.
 * Ends with one plain summary line, `N passed, N failed`.
 *
 *   npm test                 all layers
 *   npm test -- unit e2e     only these
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const all = ['unit', 'infra', 'integration', 'e2e'];
const chosen = process.argv.slice(2).filter((a) => all.includes(a));
const layers = chosen.length > 0 ? chosen : all;
const dir = mkdtempSync(join(tmpdir(), 'lb-tests-'));

let passed = 0;
let failed = 0;
let skipped = 0;
const failedLayers = [];
const started = Date.now();

for (const layer of layers) {
  const report = join(dir, `${layer}.json`);
  const layerStart = Date.now();
  console.log(`\n=== ${layer} tests ===`);
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      layer,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { stdio: 'inherit' },
  );
  let counts = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
  try {
    counts = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    // No report: the run itself failed (setup error); count it as a failure below.
  }
  passed += counts.numPassedTests;
  failed += counts.numFailedTests;
  skipped += counts.numPendingTests + counts.numTodoTests;
  const seconds = ((Date.now() - layerStart) / 1000).toFixed(1);
  console.log(
    `=== ${layer}: ${counts.numPassedTests} passed, ${counts.numFailedTests} failed (${seconds}s) ===`,
  );
  if (run.status !== 0 || counts.numPassedTests === 0) failedLayers.push(layer);
}
rmSync(dir, { recursive: true, force: true });

const total = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `\nAll layers took ${total}s.${failedLayers.length ? ` Failed: ${failedLayers.join(', ')}.` : ''}`,
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedLayers.length > 0 || failed > 0 ? 1 : 0);
