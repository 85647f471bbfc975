/**
 * Which test files the working tree's change touches (`npm test -- --changed`).
 *
 * A test file runs when it changed itself, or when anything it imports,
 * however indirectly, changed: imports are read from the sources (relative,
 * `@shared/...`, and `import('...')` with a literal), the same graph tsc sees.
 *
 * The local gateway and scheduler load handlers by the route table at run
 * time, so no import leads from an integration test to the handlers it calls.
 * Each integration run records which handler and job files each test file
 * loaded (test/support/handlerUse.ts, kept under node_modules/.cache); a
 * change to a handler, or to anything a handler imports, selects the files
 * that loaded it. A test file never recorded (a fresh clone) counts as
 * loading every handler, so it runs until a full run has recorded it.
 *
 * Browser tests run the whole stack and the built app: they are selected when
 * they or their support files change, or when a web feature they are named
 * after changes (web/src/features/shop -> test/e2e/shop.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'cdk.out', '.git', '.local-data', 'coverage']);
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'];
const IMPORT = /(?:(?:import|export)\s[^'"]*?from\s+|import\s*\(\s*|import\s+)(['"])([^'"]+)\1/g;

export const HANDLER_USE_DIR = 'node_modules/.cache/lb-tests/handler-use';

/** Where a web feature folder's browser tests are, when the names differ. */
const E2E_FOR_FEATURE = {
  activity: ['consoleFrame'],
  auth: ['accounts', 'passwordChange', 'secondFactor', 'socialSignIn'],
  dashboard: ['consoleFrame', 'employees'],
  employees: ['employees', 'commitments'],
  dormancy: ['employees'],
  faqs: ['publicSite'],
  howitworks: ['publicSite'],
  landing: ['publicSite'],
  legal: ['publicSite'],
  pricing: ['publicSite'],
  profile: ['accounts', 'passwordChange', 'secondFactor', 'commitments'],
  setup: ['billing'],
  stepUp: ['secondFactor', 'employees', 'commitments'],
  support: ['publicForms'],
  waitlist: ['publicForms'],
};

function walk(root, dir = root) {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(root, path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [relative(root, path)] : [];
  });
}

function resolveImport(root, from, spec) {
  let base;
  if (spec.startsWith('@shared/')) base = join(root, 'shared/src', spec.slice('@shared/'.length));
  else if (spec.startsWith('.')) base = resolve(root, dirname(from), spec);
  else return undefined;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  // `./x.js` written for a `./x.ts` source.
  const ts = base.replace(/\.m?js$/, '.ts');
  return existsSync(ts) ? relative(root, ts) : undefined;
}

/** Files changed against HEAD, staged or not, plus new files git does not ignore. */
export function changedFiles(root) {
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  return [
    ...new Set([...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')]),
  ];
}

/** Every file that imports one of `changed`, directly or through others (the changed files included). */
function affectedBy(root, changed) {
  const importers = new Map();
  for (const file of walk(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(root, file, match[2]);
      if (!target) continue;
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target).add(file);
    }
  }
  const affected = new Set(changed);
  const queue = [...changed];
  while (queue.length > 0) {
    for (const importer of importers.get(queue.pop()) ?? []) {
      if (!affected.has(importer)) {
        affected.add(importer);
        queue.push(importer);
      }
    }
  }
  return affected;
}

function recordedHandlers(root, testFile) {
  const file = join(root, HANDLER_USE_DIR, `${testFile.replaceAll('/', '__')}.json`);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The test files of each layer that the change touches: `{ unit: [...], infra: [...], ... }`. */
export function selectTests(root, layers, changed = changedFiles(root)) {
  const affected = affectedBy(root, changed);
  const handlerChanged = [...affected].some((f) => /^lambdas\/src\/(http|jobs|webhooks|triggers)\//.test(f));
  const features = new Set(
    changed.map((f) => /^web\/src\/features\/([^/]+)\//.exec(f)?.[1]).filter((name) => name !== undefined),
  );
  const selected = {};
  for (const layer of layers) {
    const tests = walk(root, join(root, 'test', layer)).filter((f) => /\.test\.tsx?$/.test(f));
    selected[layer] = tests.filter((test) => {
      if (affected.has(test)) return true;
      if (layer === 'integration' && handlerChanged) {
        const used = recordedHandlers(root, test);
        return used === undefined || used.some((handler) => affected.has(handler));
      }
      if (layer === 'e2e') {
        const name = test.slice('test/e2e/'.length).replace(/\.test\.ts$/, '');
        return [...features].some((feature) => feature === name || E2E_FOR_FEATURE[feature]?.includes(name));
      }
      return false;
    });
  }
  return selected;
}
