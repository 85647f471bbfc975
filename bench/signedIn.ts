/**
 * The signed-in app's first screen (part of `npm run bench:web -- --console`):
 * Lighthouse, as for the public pages (mobile, simulated throttling, median of
 * a few runs), on signed-in routes, each a fresh load with a cold cache.
 *
 * One Chromium per person: Playwright signs the demo manager (or employee) in
 * on /login through the same browser (the refresh cookie and the session
 * marker in localStorage are then the browser's), and Lighthouse then loads
 * each route. Lighthouse clears the HTTP cache before every run but keeps
 * cookies and localStorage, so each run is a signed-in person's first load of
 * that route: the shell restores the session (POST /auth/refresh, GET /me)
 * and loads the route's code and data with nothing cached.
 *
 * Prints, per route: Lighthouse's LCP (simulated, comparable with the public
 * pages' ~1.0 s), the LCP Chromium observed unthrottled, and the gzip size of
 * the JavaScript the load fetched. With `--waterfall` it also prints, for the
 * median run of each route, when each request of our origin started and ended
 * (observed, unthrottled) and what started it, which shows what waits on what.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { chromium } from 'playwright-core';
import { DEMO_EMPLOYEE, DEMO_MANAGER } from '../infra/local/seed';
import type { LocalStack } from '../infra/local/stack';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../test/support/browser';
import { finishWalkthrough, gzipOfScripts, signIn } from './support';

const RUNS = 3;

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** The signed-in routes measured, by who opens them (web/src/app/App.tsx). */
export const SIGNED_IN_ROUTES = {
  manager: [
    '/dashboard',
    '/dashboard/employees',
    '/dashboard/activity',
    '/dashboard/subscription',
    '/dashboard/insights',
  ],
  employee: ['/shop', '/dashboard/purchasehistory', '/dashboard/statement'],
} as const;

export interface RouteFigures {
  who: 'manager' | 'employee';
  path: string;
  lcpMs: number;
  observedLcpMs: number;
  fcpMs: number;
  jsGzipBytes: number;
  jsFiles: number;
  /** The element Lighthouse counted as the largest paint (its HTML, shortened). */
  lcpElement: string;
  waterfall: string[];
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  networkRequestTime?: number;
  networkEndTime?: number;
  transferSize?: number;
}

function networkItems(lhr: Lhr): NetworkItem[] {
  return (
    ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter(
      (item) => typeof item.url === 'string',
    ) ?? []
  );
}

/** Each request of our origin (and the API behind it): start and end, ms after the navigation started. */
function waterfallOf(lhr: Lhr, origin: string): string[] {
  const items = networkItems(lhr).filter((item) => item.url.startsWith(origin));
  const start = Math.min(...items.map((item) => item.networkRequestTime ?? Number.POSITIVE_INFINITY));
  return items
    .sort((a, b) => (a.networkRequestTime ?? 0) - (b.networkRequestTime ?? 0))
    .map((item) => {
      const from = Math.round((item.networkRequestTime ?? 0) - start);
      const to = Math.round((item.networkEndTime ?? 0) - start);
      const path = new URL(item.url).pathname;
      return `${String(from).padStart(6)} -> ${String(to).padStart(6)} ms  ${(item.resourceType ?? '').padEnd(10)} ${path}`;
    });
}

/** The largest-contentful-paint element's snippet, as Lighthouse reports it. */
function lcpElementOf(lhr: Lhr): string {
  type Node = { type?: string; snippet?: string; nodeLabel?: string };
  type Table = { items?: Array<{ node?: Node; items?: Array<{ node?: Node }> }> };
  const details = lhr.audits['largest-contentful-paint-element']?.details as Table | undefined;
  const first = details?.items?.[0];
  const node = first?.node ?? first?.items?.[0]?.node;
  const text = node ? `${node.snippet ?? ''} "${node.nodeLabel ?? ''}"` : '(none)';
  return text.length > 140 ? `${text.slice(0, 137)}...` : text;
}

function figuresOf(who: RouteFigures['who'], path: string, lhr: Lhr, origin: string, distDir: string) {
  const scripts = networkItems(lhr)
    .filter((item) => item.resourceType === 'Script')
    .map((item) => item.url);
  const js = gzipOfScripts(scripts, origin, distDir);
  const metrics = (lhr.audits.metrics?.details as { items?: Array<Record<string, number>> } | undefined)
    ?.items?.[0];
  return {
    who,
    path,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    observedLcpMs: metrics?.observedLargestContentfulPaint ?? Number.NaN,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    jsGzipBytes: js.bytes,
    jsFiles: js.files,
    lcpElement: lcpElementOf(lhr),
    waterfall: waterfallOf(lhr, origin),
  } satisfies RouteFigures;
}

async function benchPerson(
  who: RouteFigures['who'],
  person: { email: string; password: string },
  paths: readonly string[],
  stack: LocalStack,
  distDir: string,
): Promise<RouteFigures[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
    chromeFlags: ['--headless', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  });
  try {
    // Sign in once in this browser: its cookie jar and localStorage then hold the session.
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    await signIn(page, stack.webUrl, person);
    await page.close();
    await browser.close();

    const rows: RouteFigures[] = [];
    for (const path of paths) {
      const runs: Lhr[] = [];
      for (let i = 0; i < RUNS; i++) {
        process.stdout.write(`lighthouse (signed in as ${who}) ${path} run ${i + 1}/${RUNS}     \r`);
        const result = await lighthouse(`${stack.webUrl}${path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
        if (result.lhr.runtimeError) throw new Error(`${path}: ${result.lhr.runtimeError.message}`);
        // Still signed in (not sent to / or /login by the route guard)?
        const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
        if (landed !== path) throw new Error(`${path} ended on ${landed}: the session was not restored`);
        runs.push(result.lhr);
      }
      rows.push(figuresOf(who, path, computeMedianRun(runs) as Lhr, stack.webUrl, distDir));
    }
    return rows;
  } finally {
    chrome.kill();
  }
}

/** Lighthouse on the signed-in routes, as the manager and as the employee. */
export async function benchSignedIn(distDir: string, stack: LocalStack): Promise<RouteFigures[]> {
  await finishWalkthrough(stack.apiUrl, DEMO_MANAGER);
  await finishWalkthrough(stack.apiUrl, DEMO_EMPLOYEE);
  const manager = await benchPerson('manager', DEMO_MANAGER, SIGNED_IN_ROUTES.manager, stack, distDir);
  const employee = await benchPerson('employee', DEMO_EMPLOYEE, SIGNED_IN_ROUTES.employee, stack, distDir);
  process.stdout.write(`${' '.repeat(70)}\r`);
  return [...manager, ...employee];
}

export function printSignedInFigures(rows: RouteFigures[], waterfall: boolean) {
  console.log(
    `\nSigned-in first load, cold cache: Lighthouse ${RUNS}x per route, median run (mobile, simulated throttling)\n`,
  );
  const header = ['who', 'route', 'LCP ms', 'FCP ms', 'LCP observed', 'JS files', 'JS gzip'];
  const lines = rows.map((r) => [
    r.who,
    r.path,
    r.lcpMs.toFixed(0),
    r.fcpMs.toFixed(0),
    r.observedLcpMs.toFixed(0),
    String(r.jsFiles),
    `${(r.jsGzipBytes / 1024).toFixed(1)} KB`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log(
    '\nLCP/FCP: simulated (comparable with the public pages); LCP observed: unthrottled, as Chromium saw it.',
  );
  if (!waterfall) return;
  for (const row of rows) {
    console.log(`\n${row.who} ${row.path}: requests of the median run (observed, unthrottled)`);
    console.log(`  largest paint: ${row.lcpElement}`);
    for (const line of row.waterfall) console.log(`  ${line}`);
  }
}
