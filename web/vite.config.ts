/**
 * Vite build for the browser app. Run from the repository root:
 *   npx vite build --config web/vite.config.ts   (output: web/dist)
 *
 * This config builds the SPA (index.html, React). Its last step, the plugin in
 * scripts/prerender.ts, builds the public pages' own small script, pre-renders
 * those pages to HTML and moves the SPA shell to app.html (docs/public-site.md).
 *
 * The app imports the route table and zod schemas from ../shared/src as
 * `@shared/...` (the alias below, as tsconfig.json's paths), so the browser
 * validates with the same rules as the server.
 * Runtime settings are not baked in: the app fetches /config.json at start
 * (see src/config.ts), so one build runs locally and on AWS alike.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { prerenderPublicPages } from './scripts/prerender.js';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** tsconfig.json's `@shared/*` path, for vite (vitest.config.ts has the same). */
export const sharedAlias = { '@shared': fileURLToPath(new URL('../shared/src', import.meta.url)) };

/**
 * Dev server only: serve /config.json from the file named by WEB_CONFIG_FILE
 * (written by whoever starts the local stack), re-read on every request. Builds
 * never contain a config.json; the deployment puts one beside index.html.
 */
function devConfigJson(): Plugin {
  return {
    name: 'dev-config-json',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/config.json', (_req, res, next) => {
        const file = process.env.WEB_CONFIG_FILE;
        if (!file) return next();
        try {
          const body = readFileSync(file, 'utf8');
          res.setHeader('content-type', 'application/json');
          res.setHeader('cache-control', 'no-store');
          res.end(body);
        } catch (error) {
          next(error);
        }
      });
    },
  };
}

export default defineConfig({
  root: webRoot,
  base: '/',
  resolve: { alias: sharedAlias },
  publicDir: 'public',
  plugins: [react(), devConfigJson(), prerenderPublicPages({ webRoot, repoRoot })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Warn when any chunk passes 400 KB minified (the React vendor chunk is ~256 KB).
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // Named vendor chunks: React changes less often than our code (better
        // caching), and the lazy chunks get names that say what they hold.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/,
            },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    // The dev server may serve shared/src (outside web/) to the browser.
    fs: { allow: [repoRoot] },
  },
});
