#!/usr/bin/env node
/**
 * `npm test`: every layer, one after another (unit, infra, integration, e2e).
 * Stops at nothing: every layer runs, and the exit code is non-zero if any
 * failed. Prints each layer's time and the ten slowest test files, and ends
 * with one plain summary line, `N passed, N failed`.
 *
 *   npm test                      all layers
 *   npm test -- unit e2e          only these
 *   npm test -- --changed         only the test files the working tree's change touches
 *                                 (scripts/changedTests.mjs says how they are chosen)
 *
 * The browser tests wait on the product far more than they compute (about 60%
 * of one core), so they run as two halves side by side, each half on a whole
 * local stack of its own: no test can see the other half's data or the jobs it
 * runs (E2E_STACKS=1 runs them on one). Files are split by their last
 * measured time (kept under node_modules/.cache), else by size.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { changedFiles, selectTests } from './changedTests.mjs';

const all = ['unit', 'infra', 'integration', 'e2e'];
const args = process.argv.slice(2);
const chosen = args.filter((a) => all.includes(a));
const layers = chosen.length > 0 ? chosen : all;
const onlyChanged = args.includes('--changed');
const root = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'lb-tests-'));
const DURATIONS = join(root, 'node_modules/.cache/lb-tests/durations.json');
const E2E_STACKS = Math.max(1, Number(process.env.E2E_STACKS ?? 2) || 1);

function readJson(file, fallback) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return fallback;
  }
}

const durations = readJson(DURATIONS, {});

/** Runs one vitest process; with `buffer`, its output is held and printed when it ends (halves side by side). */
function vitest(layer, files, report, buffer) {
  const argv = ['vitest', 'run', '--project', layer, '--reporter=default', '--reporter=json'];
  argv.push(`--outputFile.json=${report}`, ...files);
  return new Promise((resolvePromise) => {
    const child = spawn('npx', argv, { stdio: buffer ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('exit', (code) => {
      if (buffer) process.stdout.write(`\n--- ${buffer} ---\n${Buffer.concat(chunks).toString()}`);
      resolvePromise({ code, result: readJson(report, undefined) });
    });
  });
}

/** `files` in `n` groups of about equal time, longest first into the lightest group. */
function split(files, n) {
  const cost = (f) => durations[f] ?? statSync(join(root, f)).size / 100;
  const groups = Array.from({ length: n }, () => ({ files: [], cost: 0 }));
  for (const f of [...files].sort((a, b) => cost(b) - cost(a))) {
    const lightest = groups.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.files.push(f);
    lightest.cost += cost(f);
  }
  return groups.map((g) => g.files).filter((g) => g.length > 0);
}

/** Every browser test file, repository-relative. */
function allE2eFiles() {
  return readdirSync(join(root, 'test/e2e'))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `test/e2e/${f}`);
}

/** Runs a command with the terminal; resolves to its exit code. */
function run(command, argv) {
  return new Promise((resolvePromise) => {
    spawn(command, argv, { stdio: 'inherit' }).on('exit', resolvePromise);
  });
}

let selected;
if (onlyChanged) {
  const changed = changedFiles(root);
  selected = selectTests(root, layers, changed);
  console.log(`${changed.length} changed file(s); test files chosen:`);
  for (const layer of layers)
    console.log(`  ${layer}: ${selected[layer].length ? selected[layer].join(' ') : 'none'}`);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failedLayers = [];
const layerTimes = [];
const fileTimes = [];
/** Each failed test, kept for the summary: a CI log keeps only its tail, so the tail must name them. */
const failures = [];
const started = Date.now();

for (const layer of layers) {
  const files = selected?.[layer];
  if (files && files.length === 0) continue;
  const layerStart = Date.now();
  console.log(`\n=== ${layer} tests ===`);
  let runs;
  if (layer === 'e2e' && E2E_STACKS > 1) {
    const built = await run('npx', ['tsx', 'scripts/build-web-if-stale.ts']);
    if (built !== 0) console.log('The web build failed; the browser tests will say how.');
    const groups = split(files ?? allE2eFiles(), E2E_STACKS);
    console.log(
      `${groups.length} local stacks side by side: ${groups.map((g) => g.length).join(' + ')} files`,
    );
    runs = await Promise.all(
      groups.map((g, i) =>
        vitest(layer, g, join(dir, `${layer}-${i}.json`), `browser tests, stack ${i + 1}`),
      ),
    );
  } else {
    runs = [await vitest(layer, files ?? [], join(dir, `${layer}.json`))];
  }
  let layerPassed = 0;
  let layerFailed = 0;
  let ok = true;
  for (const { code, result } of runs) {
    if (code !== 0 || !result) ok = false;
    if (!result) continue;
    layerPassed += result.numPassedTests;
    layerFailed += result.numFailedTests;
    // A file that failed before any test ran (an import, a missing fixture) has no failed test: count the file.
    layerFailed += (result.testResults ?? []).filter(
      (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed'),
    ).length;
    skipped += result.numPendingTests + result.numTodoTests;
    for (const file of result.testResults ?? []) {
      const name = relative(root, file.name);
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failedTests) {
        failures.push({ layer, file: name, test: a.fullName ?? a.title, message: a.failureMessages?.[0] });
      }
      if (file.status === 'failed' && failedTests.length === 0) {
        failures.push({ layer, file: name, test: '(the file itself)', message: file.message });
      }
      const ms = file.endTime - file.startTime;
      fileTimes.push({ layer, file: name, ms });
      durations[name] = ms / 1000;
    }
  }
  passed += layerPassed;
  failed += layerFailed;
  const seconds = (Date.now() - layerStart) / 1000;
  layerTimes.push({ layer, seconds, passed: layerPassed, failed: layerFailed });
  console.log(`=== ${layer}: ${layerPassed} passed, ${layerFailed} failed (${seconds.toFixed(1)}s) ===`);
  if (!ok || layerPassed === 0) failedLayers.push(layer);
}
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(root, 'node_modules/.cache/lb-tests'), { recursive: true });
writeFileSync(DURATIONS, JSON.stringify(durations, null, 1));

const total = (Date.now() - started) / 1000;
console.log('\nLayer         time   passed  failed');
for (const t of layerTimes) {
  console.log(
    `${t.layer.padEnd(11)} ${`${t.seconds.toFixed(0)}s`.padStart(6)} ${String(t.passed).padStart(8)} ${String(t.failed).padStart(7)}`,
  );
}
console.log(`${'all'.padEnd(11)} ${`${total.toFixed(0)}s`.padStart(6)}`);
console.log('\nSlowest test files');
for (const f of fileTimes.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
  console.log(`${`${(f.ms / 1000).toFixed(1)}s`.padStart(7)}  ${f.layer.padEnd(11)} ${f.file}`);
}
if (failures.length) {
  console.log('\nFailed tests');
  for (const f of failures) {
    console.log(`  ${f.layer} ${f.file} > ${f.test}`);
    // The first lines of the message say what was expected; the stack below them rarely adds to it.
    const lines = String(f.message ?? '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 6);
    for (const l of lines) console.log(`      ${l.slice(0, 240)}`);
  }
}
if (failedLayers.length) console.log(`\nFailed: ${failedLayers.join(', ')}.`);
if (onlyChanged && layerTimes.length === 0) console.log('\nNo test file touches the change.');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedLayers.length > 0 || failed > 0 ? 1 : 0);
