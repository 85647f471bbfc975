/**
 * What the browser benchmarks (bench/console.ts, bench/shop.ts) share: a whole
 * local stack on free ports with the demo data, signing a demo person in (tour
 * already seen, so it covers nothing measured), the gzip size of the scripts a
 * page loaded, and the median of a few runs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { type LocalStack, startLocalStack } from '../infra/local/stack';
import { freeLocalPorts } from '../test/support/ports';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The whole local stack (in-memory database, demo data, the built web app) for one benchmark. */
export async function withBenchStack<T>(name: string, run: (stack: LocalStack) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), `lb-bench-${name}-`));
  const stack = await startLocalStack({
    ports: await freeLocalPorts(),
    dataDir,
    inMemoryDatabase: true,
    buildWeb: false,
    quiet: true,
    scheduledJobs: false,
  });
  try {
    return await run(stack);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Stores that the person has seen the dashboard tour, through the API as the browser would. */
export async function finishWalkthrough(apiUrl: string, who: { email: string; password: string }) {
  const json = { 'content-type': 'application/json' };
  const signedIn = await fetch(`${apiUrl}/auth/signIn`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  const { accessToken } = (await signedIn.json()) as { accessToken: string };
  const done = await fetch(`${apiUrl}/me/walkthrough`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${accessToken}` },
    body: '{}',
  });
  if (!done.ok) throw new Error(`POST /me/walkthrough answered ${done.status}`);
}

/** Signs in on /login and waits for the dashboard. */
export async function signIn(page: Page, webUrl: string, who: { email: string; password: string }) {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Work Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.waitForURL(`${webUrl}/dashboard`);
}

export interface ScriptSizes {
  bytes: number;
  files: number;
  /** Largest first. */
  each: Array<{ name: string; bytes: number }>;
}

/** Gzip (level 9, as served) of every script the page loaded from our origin, read from web/dist. */
export function gzipOfScripts(urls: string[], webUrl: string, distDir: string): ScriptSizes {
  const each: ScriptSizes['each'] = [];
  for (const url of new Set(urls)) {
    if (!url.startsWith(webUrl)) continue;
    const file = normalize(join(distDir, new URL(url).pathname));
    if (!file.startsWith(distDir)) continue;
    each.push({ name: new URL(url).pathname, bytes: gzipSync(readFileSync(file), { level: 9 }).length });
  }
  each.sort((a, b) => b.bytes - a.bytes);
  return { bytes: each.reduce((sum, f) => sum + f.bytes, 0), files: each.length, each };
}
