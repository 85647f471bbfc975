/**
 * `npm run bench:web`: how fast, accessible and findable the public pages are.
 *
 * Builds the site (the same `vite build` as npm run build:web), serves web/dist
 * on 127.0.0.1 with the local stack's web server (compressed, as CloudFront
 * serves it, with the same security headers), and runs Lighthouse (mobile
 * profile, simulated throttling) three times per page with Debian's Chromium;
 * prints the median run's scores, LCP, TBT, CLS and the gzip size of the
 * JavaScript each page loads.
 *
 *   npm run bench:web                  / /pricing /faqs
 *   npm run bench:web -- /terms /       other pages
 *   npm run bench:web -- --no-build     reuse web/dist
 *   npm run bench:web -- --check        exit 1 when a target is missed
 *   npm run bench:web -- --console      only the signed-in app (bench/signedIn.ts, bench/console.ts)
 *   npm run bench:web -- --console --waterfall   and each signed-in route's requests
 *   npm run bench:web -- --console --no-team     the signed-in first loads only (no 1,000-employee team)
 *   npm run bench:web -- --public       only the public pages
 *   npm run bench:web -- --shop         only the shop (bench/shop.ts)
 *   npm run bench:web -- --no-shop      everything but the shop
 *
 * Targets (issue #5): performance >= 95; accessibility, best practices and
 * SEO 100; the landing page's JavaScript <= 60 KB gzip. Then the signed-in
 * app's first load of several routes, signed in with a cold cache
 * (bench/signedIn.ts): Lighthouse's LCP and the JavaScript per route. Then the manager
 * console with a 1,000-employee team (bench/console.ts): time to the first row,
 * to a search result and to a re-sort, and the signed-in app's initial
 * JavaScript (aim <= 150 KB gzip). Then the shop with a 5,000-item catalogue
 * (bench/shop.ts): time to first results, to a filter's new count, and the
 * JavaScript /shop loads.
 * CHROME_PATH (or CHROMIUM_PATH, as for the tests) overrides /usr/bin/chromium.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { startWebServer } from '../infra/local/webServer';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../test/support/browser';
import { benchConsole, printConsoleFigures } from './console';
import { benchShop, printShopFigures } from './shop';
import { benchSignedIn, printSignedInFigures } from './signedIn';
import { withBenchStack } from './support';

const root = fileURLToPath(new URL('..', import.meta.url));
const distDir = join(root, 'web/dist');
const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
const LANDING_JS_TARGET_BYTES = 60 * 1024;
const CHROME_FLAGS = ['--headless', ...CHROMIUM_FLAGS];

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

interface PageFigures {
  path: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsFiles: number;
  jsGzipBytes: number;
  jsTransferBytes: number;
  failedAudits: string[];
}

const args = process.argv.slice(2);
const pages = args.filter((a) => a.startsWith('/'));
const paths = pages.length > 0 ? pages : ['/', '/pricing', '/faqs'];

function build() {
  console.log('building web/dist ...');
  const vite = join(root, 'node_modules/.bin/vite');
  const result = spawnSync(vite, ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/** Gzip (level 9, as the server and CloudFront compress) of each script the page loaded, read from dist. */
function scriptFigures(lhr: Lhr, origin: string) {
  const items =
    (lhr.audits['network-requests']?.details as { items?: Array<Record<string, unknown>> })?.items ?? [];
  const scripts = items.filter(
    (item) => item.resourceType === 'Script' && String(item.url).startsWith(origin),
  );
  let gzipBytes = 0;
  let transferBytes = 0;
  for (const script of scripts) {
    const file = normalize(join(distDir, new URL(String(script.url)).pathname));
    if (!file.startsWith(distDir)) continue;
    gzipBytes += gzipSync(readFileSync(file), { level: 9 }).length;
    transferBytes += Number(script.transferSize ?? 0);
  }
  return { files: scripts.length, gzipBytes, transferBytes };
}

async function runLighthouse(url: string): Promise<Lhr> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

function figuresOf(path: string, lhr: Lhr, origin: string): PageFigures {
  const score = (id: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])) as PageFigures['scores'];
  const js = scriptFigures(lhr, origin);
  const failedAudits = Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
    .map((audit) => audit.id);
  return {
    path,
    scores,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    jsFiles: js.files,
    jsGzipBytes: js.gzipBytes,
    jsTransferBytes: js.transferBytes,
    failedAudits,
  };
}

function printTable(rows: PageFigures[]) {
  const header = [
    'page',
    'perf',
    'a11y',
    'best',
    'seo',
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS files',
    'JS gzip',
    'JS wire',
  ];
  const lines = rows.map((r) => [
    r.path,
    String(r.scores.performance),
    String(r.scores.accessibility),
    String(r.scores['best-practices']),
    String(r.scores.seo),
    r.lcpMs.toFixed(0),
    r.tbtMs.toFixed(0),
    r.cls.toFixed(3),
    String(r.jsFiles),
    `${(r.jsGzipBytes / 1024).toFixed(1)} KB`,
    `${(r.jsTransferBytes / 1024).toFixed(1)} KB`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  console.log(`\nLighthouse ${RUNS}x per page, median run (mobile, simulated throttling)\n`);
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log('\nJS gzip: level-9 gzip of the scripts the page loaded; JS wire: bytes sent (brotli).');
}

function misses(rows: PageFigures[]): string[] {
  const out: string[] = [];
  for (const row of rows) {
    for (const id of CATEGORIES) {
      if (row.scores[id] < TARGETS[id]) out.push(`${row.path} ${id} ${row.scores[id]} < ${TARGETS[id]}`);
    }
    if (row.path === '/' && row.jsGzipBytes > LANDING_JS_TARGET_BYTES) {
      out.push(`/ JavaScript ${row.jsGzipBytes} B gzip > ${LANDING_JS_TARGET_BYTES} B`);
    }
  }
  return out;
}

async function main() {
  if (!args.includes('--no-build')) build();
  const missed: string[] = [];
  const only = ['--console', '--public', '--shop'].filter((flag) => args.includes(flag));
  const runs = (flag: string) => only.length === 0 || only.includes(flag);
  if (runs('--public')) missed.push(...(await benchPublicPages()));
  const consoleBench = runs('--console');
  const shopBench = runs('--shop') && !args.includes('--no-shop');
  // One local stack for both: the data layer keeps its first database client
  // for the process, so a second stack's database would not be reached.
  if (consoleBench || shopBench) {
    await withBenchStack('browser', async (stack) => {
      if (consoleBench) {
        printSignedInFigures(await benchSignedIn(distDir, stack), args.includes('--waterfall'));
        if (!args.includes('--no-team'))
          missed.push(...printConsoleFigures(await benchConsole(distDir, stack)));
      }
      if (shopBench) missed.push(...printShopFigures(await benchShop(distDir, stack)));
    });
  }
  console.log(missed.length === 0 ? '\nAll targets met.' : `\nMissed targets:\n  ${missed.join('\n  ')}`);
  if (missed.length > 0 && args.includes('--check')) process.exitCode = 1;
}

async function benchPublicPages(): Promise<string[]> {
  const server = await startWebServer({
    port: 0,
    distDir,
    runtimeConfig: {
      stage: 'local',
      apiUrl: 'http://127.0.0.1:9',
      region: 'us-east-1',
      userPoolId: 'local_bench',
      userPoolClientId: 'bench',
    },
    // Nothing listens there: the public pages call no API.
    gatewayUrl: 'http://127.0.0.1:9',
    csp: { connect: [], img: [], frame: [] },
    log: () => {},
  });
  const rows: PageFigures[] = [];
  try {
    for (const path of paths) {
      const runs: Lhr[] = [];
      for (let i = 0; i < RUNS; i++) {
        process.stdout.write(`lighthouse ${path} run ${i + 1}/${RUNS}\r`);
        runs.push(await runLighthouse(`${server.url}${path}`));
      }
      const median = computeMedianRun(runs) as Lhr;
      const figures = figuresOf(path, median, server.url);
      rows.push(figures);
      if (figures.failedAudits.length > 0) {
        console.log(`${path}: failed audits: ${figures.failedAudits.join(', ')}`);
      }
    }
  } finally {
    await server.stop();
  }
  printTable(rows);
  return misses(rows);
}

await main();
