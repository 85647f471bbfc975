/**
 * `npm run dev`: Vite's dev server with hot reload instead of the built app,
 * serving the same runtime /config.json. Security headers are CloudFront's job
 * and are checked with `npm start`; the dev server needs inline scripts for HMR.
 */
import type { LogSink } from './processes';

export async function startDevServer(options: {
  port: number;
  runtimeConfig: Record<string, unknown>;
  log: LogSink;
}) {
  const { createServer } = await import('vite');
  const body = JSON.stringify(options.runtimeConfig);
  const server = await createServer({
    configFile: 'web/vite.config.ts',
    server: { host: '127.0.0.1', port: options.port, strictPort: true },
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
