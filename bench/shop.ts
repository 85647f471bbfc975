/**
 * The shop under a large catalogue (part of `npm run bench:web`; skip it with
 * --no-shop, run only it with --shop):
 *
 * - starts the whole local stack (in-memory database, free ports, demo data);
 * - replaces the catalogue with 5,000 items made from the real file (each real
 *   item repeated with a new id and an edition number in its name), imported
 *   through the same service as `npm run catalogue:import`;
 * - signs the demo employee in with Debian's Chromium and measures, as medians
 *   of a few runs: the time from opening /shop to the first results (a fresh
 *   browser, so the catalogue crosses the wire) and on a reload (the ETag makes
 *   it a 304), and the time from ticking a filter to the new result count -
 *   which includes the spec's 500 ms filter delay, printed beside it;
 * - prints the gzip size (level 9, as served) of the JavaScript /shop loads
 *   and of the catalogue's JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { applyShopQuery, emptyQuery, FILTER_DELAY_MS, resultsHeading } from '@shared/domain/shopFilter';
import { type CatalogueItem, parseCatalogueJsonl } from '@shared/schemas/catalogue';
import type { Page } from 'playwright-core';
import { DEMO_EMPLOYEE } from '../infra/local/seed';
import type { LocalStack } from '../infra/local/stack';
import { finishWalkthrough, gzipOfScripts, median, type ScriptSizes, signIn } from './support';

const CATALOGUE_SIZE = 5_000;
const RUNS = 3;
/** What /shop may add to the signed-in app's first screen's JavaScript (gzip). */
const SHOP_EXTRA_JS_AIM_BYTES = 30 * 1024;

export interface ShopFigures {
  items: number;
  firstResultsMs: number;
  firstResultsRevisitMs: number;
  filterChangeMs: number;
  shopJsGzipBytes: number;
  shopJsFiles: number;
  /** Loaded on the way from /dashboard to /shop: the shop's own chunks. */
  shopExtraJsGzipBytes: number;
  shopExtraJsFiles: number;
  catalogueJsonBytes: number;
  catalogueGzipBytes: number;
}

/** 5,000 valid items: the real ones, then copies with new ids and an edition in the name. */
export function bigCatalogue(size = CATALOGUE_SIZE): CatalogueItem[] {
  const parsed = parseCatalogueJsonl(
    readFileSync(join(import.meta.dirname, '../shared/data/catalogue.jsonl'), 'utf8'),
  );
  if (!parsed.ok) throw new Error('the catalogue file is invalid');
  const real = parsed.items;
  return Array.from({ length: size }, (_, i) => {
    const base = real[i % real.length] as CatalogueItem;
    const copy = Math.floor(i / real.length);
    return copy === 0
      ? base
      : { ...base, id: `${base.id.slice(0, 90)}-e${copy}`, name: `${base.name} (Edition ${copy + 1})` };
  });
}

async function waitForHeading(page: Page, heading: string) {
  await page.waitForFunction(
    (text) => document.querySelector('[data-testid="shop-results-count"]')?.textContent === text,
    heading,
    { polling: 'raf' },
  );
}

export async function benchShop(distDir: string, stack: LocalStack): Promise<ShopFigures> {
  // Imported once the stack has set the environment the data layer reads.
  const { launchBrowser } = await import('../test/support/browser');
  const { importCatalogue } = await import('../lambdas/src/services/shop/catalogue');
  const items = bigCatalogue();
  process.stdout.write(`importing ${items.length} catalogue items ...\n`);
  const imported = await importCatalogue(items);
  if (imported.added + imported.updated + imported.unchanged !== items.length) {
    throw new Error(`import stored ${JSON.stringify(imported)}`);
  }
  await finishWalkthrough(stack.apiUrl, DEMO_EMPLOYEE);

  const everything = resultsHeading(items.length, '');
  const filter = { ...emptyQuery, categories: ['Communication'] };
  const filtered = resultsHeading(applyShopQuery(items, filter).length, '');

  const first: number[] = [];
  const revisit: number[] = [];
  const filterChange: number[] = [];
  let js: ScriptSizes = { bytes: 0, files: 0, each: [] };
  let extra: ScriptSizes = { bytes: 0, files: 0, each: [] };
  // What GET /catalogue sends: this JSON, gzipped by the handler wrapper (zlib's default level).
  const catalogueJson = Buffer.from(JSON.stringify({ items }));
  for (let run = 0; run < RUNS; run++) {
    const browser = await launchBrowser({ width: 1280, height: 900 });
    try {
      const page = await browser.context.newPage();
      const scripts: string[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') scripts.push(r.url());
      });
      await signIn(page, stack.webUrl, DEMO_EMPLOYEE);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.waitForLoadState('networkidle');
      const beforeShop = new Set(scripts);

      // In-app navigation from the dashboard, as a person goes to the shop.
      let t = performance.now();
      await page.getByRole('banner').getByRole('link', { name: 'Shop' }).click();
      await waitForHeading(page, everything);
      await page.locator('.shop-card').first().waitFor();
      first.push(performance.now() - t);
      extra = gzipOfScripts(
        scripts.filter((u) => !beforeShop.has(u)),
        stack.webUrl,
        distDir,
      );

      // A full reload: the browser revalidates the catalogue (304) and rebuilds the page.
      scripts.length = 0;
      t = performance.now();
      await page.reload();
      await waitForHeading(page, everything);
      await page.locator('.shop-card').first().waitFor();
      revisit.push(performance.now() - t);
      await page.waitForLoadState('networkidle');
      js = gzipOfScripts(scripts, stack.webUrl, distDir);

      t = performance.now();
      await page.getByRole('checkbox', { name: 'Communication' }).check();
      await waitForHeading(page, filtered);
      filterChange.push(performance.now() - t);
    } finally {
      await browser.close();
    }
  }
  return {
    items: items.length,
    firstResultsMs: median(first),
    firstResultsRevisitMs: median(revisit),
    filterChangeMs: median(filterChange),
    shopJsGzipBytes: js.bytes,
    shopJsFiles: js.files,
    shopExtraJsGzipBytes: extra.bytes,
    shopExtraJsFiles: extra.files,
    catalogueJsonBytes: catalogueJson.length,
    catalogueGzipBytes: gzipSync(catalogueJson).length,
  };
}

export function printShopFigures(f: ShopFigures): string[] {
  console.log(
    `\nShop, catalogue of ${f.items.toLocaleString('en-US')} items (median of ${RUNS} runs, Chromium):`,
  );
  console.log(`  dashboard -> /shop to first results   ${Math.round(f.firstResultsMs)} ms`);
  console.log(
    `  reload of /shop to first results      ${Math.round(f.firstResultsRevisitMs)} ms (catalogue 304)`,
  );
  console.log(
    `  tick a filter to new result count     ${Math.round(f.filterChangeMs)} ms (${FILTER_DELAY_MS} ms of it the spec's delay, ${Math.round(f.filterChangeMs - FILTER_DELAY_MS)} ms work)`,
  );
  console.log(
    `  JavaScript of a fresh /shop load      ${(f.shopJsGzipBytes / 1024).toFixed(1)} KB gzip in ${f.shopJsFiles} files`,
  );
  console.log(
    `  of which the shop's own (after /dashboard) ${(f.shopExtraJsGzipBytes / 1024).toFixed(1)} KB gzip in ${f.shopExtraJsFiles} files (aim ${SHOP_EXTRA_JS_AIM_BYTES / 1024} KB)`,
  );
  console.log(
    `  catalogue JSON                        ${(f.catalogueJsonBytes / 1024).toFixed(0)} KB, ${(f.catalogueGzipBytes / 1024).toFixed(0)} KB gzip`,
  );
  return f.shopExtraJsGzipBytes > SHOP_EXTRA_JS_AIM_BYTES
    ? [`/shop's own JavaScript ${f.shopExtraJsGzipBytes} B gzip > ${SHOP_EXTRA_JS_AIM_BYTES} B`]
    : [];
}
