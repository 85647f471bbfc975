/**
 * `npm run dev`: Vite's dev server with hot reload instead of the built app,
 * serving the same runtime /config.json and the API under /api/* (Vite's proxy,
 * the prefix taken off as CloudFront does; ./apiProxy.ts is the built app's).
 * Security headers are CloudFront's job and are checked with `npm start`; the
 * dev server needs inline scripts for HMR.
 */
import { API_PATH_PREFIX } from '../lib/webRouting';
import { apiPathOf } from './apiProxy';
import type { LogSink } from './processes';

export async function startDevServer(options: {
  port: number;
  runtimeConfig: Record<string, unknown>;
  gatewayUrl: string;
  log: LogSink;
}) {
  const { createServer } = await import('vite');
  const body = JSON.stringify(options.runtimeConfig);
  const server = await createServer({
    configFile: 'web/vite.config.ts',
    server: {
      host: '127.0.0.1',
      port: options.port,
      strictPort: true,
      proxy: {
        [`${API_PATH_PREFIX}/`]: { target: options.gatewayUrl, rewrite: (path) => apiPathOf(path) ?? path },
      },
    },
    plugins: [
      {
        name: 'local-runtime-config',
        configureServer(dev) {
          dev.middlewares.use('/config.json', (_req, res) => {
            res.setHeader('content-type', 'application/json');
            res.end(body);
          });
        },
      },
    ],
  });
  await server.listen();
  options.log('dev server with hot reload');
  return { url: `http://127.0.0.1:${options.port}`, stop: () => server.close() };
}
