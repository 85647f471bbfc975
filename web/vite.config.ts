/**
 * Vite build for the browser app. Run from the repository root:
 *   npx vite build --config web/vite.config.ts   (output: web/dist)
 *
 * The app imports the route table and zod schemas from ../shared/src with plain
 * relative imports, so the browser validates with the same rules as the server.
 * Runtime settings are not baked in: the app fetches /config.json at start
 * (see src/config.ts), so one build runs locally and on AWS alike.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Public pages must stay small; flag any chunk that grows past this (KB, minified).
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // Named vendor chunks: React changes less often than our code (better
        // caching), and the lazy chunks get names that say what they hold.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            { name: 'mantine', test: /[\\/]node_modules[\\/]@mantine[\\/]/ },
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
