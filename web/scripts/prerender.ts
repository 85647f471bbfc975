/**
 * Vite plugin: after the SPA's client build, build and pre-render the public
 * marketing pages, so a plain `vite build --config web/vite.config.ts` (npm run
 * build:web, and the local stack's webBuild.ts) produces the whole site.
 *
 * 1. The SPA build has written its shell, index.html. It moves to app.html:
 *    what servers answer for app addresses (/dashboard, /login, /subscribe,
 *    unknown paths). index.html becomes the landing page.
 * 2. A second, separate client build bundles static-page.html: the template of
 *    the pre-rendered pages, whose only script is src/static/enhance.ts. It
 *    shares no chunk with the SPA: one public-[hash].js, one public-[hash].css.
 * 3. An SSR build bundles src/static/render.tsx for Node; running it renders
 *    each page of content/pages.ts with the SPA's own components.
 * 4. Each page is written to <path>/index.html from the template, then
 *    sitemap.xml, robots.txt and prerendered.json (the page list, for the
 *    CloudFront routing function; see docs/public-site.md).
 *
 * SITE_ORIGIN (e.g. https://app.example.com) sets the absolute addresses in
 * canonical links, Open Graph tags, the sitemap and robots.txt.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { pageFile } from '../src/static/paths.js';
import type { renderSite as RenderSite } from '../src/static/render.js';

export const SPA_SHELL_FILE = 'app.html';
export const TEMPLATE_FILE = 'static-page.html';
export const MANIFEST_FILE = 'prerendered.json';
export const DEFAULT_SITE_ORIGIN = 'https://example.com';

const HEAD_SLOT = '<!--page-head-->';
const BODY_SLOT = '<!--page-body-->';
const HTML_TAG = '<html lang="en">';

/** Fills the built template with one page. */
export function fillTemplate(template: string, page: { path: string; head: string; body: string }): string {
  for (const marker of [HEAD_SLOT, BODY_SLOT, HTML_TAG]) {
    if (!template.includes(marker)) throw new Error(`${TEMPLATE_FILE} has lost its ${marker} marker`);
  }
  // Functions as replacements: page text may contain `$&` and friends.
  return template
    .replace(HTML_TAG, () => `<html lang="en" data-page="${page.path}">`)
    .replace(HEAD_SLOT, () => page.head)
    .replace(BODY_SLOT, () => page.body);
}

export function prerenderPublicPages(options: { webRoot: string; repoRoot: string }): Plugin {
  let outDir = '';
  let isSsrBuild = false;
  let isWatch = false;
  let alias: ResolvedConfig['resolve']['alias'] = [];
  return {
    name: 'prerender-public-pages',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      isSsrBuild = Boolean(config.build.ssr);
      isWatch = Boolean(config.build.watch);
      // The page builds below resolve imports as the SPA's did (the @shared alias).
      alias = config.resolve.alias;
    },
    async closeBundle(error?: Error) {
      if (isSsrBuild || error) return;
      const started = Date.now();
      const origin = (process.env.SITE_ORIGIN ?? DEFAULT_SITE_ORIGIN).replace(/\/$/, '');
      const shellPath = join(outDir, 'index.html');
      if (!existsSync(shellPath)) throw new Error(`prerender: the SPA build left no index.html in ${outDir}`);
      renameSync(shellPath, join(outDir, SPA_SHELL_FILE));

      // 2. The public pages' script and styles: a build of their own into the same dist.
      await build({
        configFile: false,
        root: options.webRoot,
        resolve: { alias },
        base: '/',
        publicDir: false,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          target: 'es2022',
          modulePreload: { polyfill: false },
          rolldownOptions: {
            input: join(options.webRoot, TEMPLATE_FILE),
            output: {
              entryFileNames: 'assets/public-[hash].js',
              chunkFileNames: 'assets/public-[name]-[hash].js',
              assetFileNames: 'assets/public-[hash][extname]',
            },
          },
        },
      });
      const templatePath = join(outDir, TEMPLATE_FILE);
      const template = readFileSync(templatePath, 'utf8');
      rmSync(templatePath);

      // 3. The render entry, for Node; react and the router stay external (node_modules).
      const ssrOut = join(options.repoRoot, 'node_modules/.cache/prerender');
      await build({
        configFile: false,
        root: options.webRoot,
        resolve: { alias },
        logLevel: 'warn',
        plugins: [react()],
        build: {
          ssr: join(options.webRoot, 'src/static/render.tsx'),
          outDir: ssrOut,
          emptyOutDir: true,
          minify: false,
          target: 'node20',
          rolldownOptions: { output: { entryFileNames: 'render.mjs' } },
        },
      });
      const moduleUrl = `${pathToFileURL(join(ssrOut, 'render.mjs')).href}?t=${Date.now()}`;
      const { renderSite } = (await import(moduleUrl)) as { renderSite: typeof RenderSite };
      const site = renderSite(origin, new Date().toISOString().slice(0, 10));
      rmSync(ssrOut, { recursive: true, force: true });

      // 4. The pages and what search engines and CloudFront read.
      for (const page of site.pages) {
        const file = join(outDir, pageFile(page.path));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, fillTemplate(template, page));
      }
      writeFileSync(join(outDir, 'sitemap.xml'), site.sitemap);
      writeFileSync(join(outDir, 'robots.txt'), site.robots);
      const manifest = { origin, spaShell: `/${SPA_SHELL_FILE}`, pages: site.pages.map((page) => page.path) };
      writeFileSync(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
      if (!isWatch) {
        console.log(
          `prerendered ${site.pages.length} public pages for ${origin} in ${Date.now() - started} ms; SPA shell: ${SPA_SHELL_FILE}`,
        );
      }
    },
  };
}
