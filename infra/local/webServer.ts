/**
 * Serves the built SPA the way CloudFront will: compressed (brotli or gzip),
 * long-cached hashed assets, no-cache HTML, index.html for unknown paths (SPA
 * fallback), the same security headers, a runtime /config.json, and the API
 * under /api/* (./apiProxy.ts), so the app calls its own origin as in AWS.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { contentSecurityPolicy, staticSecurityHeaders } from '../lib/webSecurityHeaders';
import { proxyToApi } from './apiProxy';
import type { LogSink } from './processes';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.xml', '.webmanifest']);

export interface WebServerOptions {
  port: number;
  distDir: string;
  /** Served at /config.json: where the app finds the API and Cognito. */
  runtimeConfig: Record<string, unknown>;
  /** The local gateway, served under /api/* as CloudFront serves the HTTP API. */
  gatewayUrl: string;
  csp: { connect: string[]; img: string[]; frame: string[] };
  log: LogSink;
}

export async function startWebServer(options: WebServerOptions) {
  const root = resolve(options.distDir);
  if (!existsSync(join(root, 'app.html')))
    throw new Error(`No built web app in ${root}; run npm run build:web`);
  const securityHeaders = {
    ...staticSecurityHeaders,
    'content-security-policy': contentSecurityPolicy({ ...options.csp, script: [], upgradeInsecure: false }),
  };
  // Compressed bodies are computed once per version of a file: a build while this serves (the
  // tests rebuild web/dist) changes app.html in place, and a kept copy would name assets that are gone.
  const cache = new Map<string, { version: string; br: Buffer; gzip: Buffer; raw: Buffer }>();
  const configBody = Buffer.from(JSON.stringify(options.runtimeConfig));

  const server = createServer((req, res) => {
    if (proxyToApi(req, res, options.gatewayUrl)) return;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let pathname = decodeURIComponent(url.pathname);
    if (pathname === '/config.json') {
      res.writeHead(200, { ...securityHeaders, 'content-type': types['.json'], 'cache-control': 'no-cache' });
      res.end(configBody);
      return;
    }
    let file = normalize(join(root, pathname));
    const isFile = file.startsWith(root) && existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      // A missing file (an extension, or anything under /assets/) is a real 404, as on CloudFront.
      if (pathname.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(pathname)) {
        res.writeHead(404, { ...securityHeaders, 'content-type': types['.txt'] });
        res.end('Not found');
        return;
      }
      // A pre-rendered public page is served as is; any other address gets the app shell
      // (app.html), as CloudFront's routing function does (docs/public-site.md).
      const prerendered = join(root, pathname.replace(/\/$/, ''), 'index.html');
      file = prerendered.startsWith(root) && existsSync(prerendered) ? prerendered : join(root, 'app.html');
      pathname = file.slice(root.length);
    }
    const ext = extname(file);
    const headers: Record<string, string> = {
      ...securityHeaders,
      'content-type': types[ext] ?? 'application/octet-stream',
      'cache-control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
    };
    if (!compressible.has(ext)) {
      res.writeHead(200, headers);
      createReadStream(file).pipe(res);
      return;
    }
    const { mtimeMs, size } = statSync(file);
    const version = `${mtimeMs}:${size}`;
    let entry = cache.get(file);
    if (entry?.version !== version) {
      const raw = readFileSync(file);
      entry = {
        version,
        raw,
        gzip: gzipSync(raw, { level: 9 }),
        br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      };
      cache.set(file, entry);
    }
    const accept = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : undefined;
    if (encoding) headers['content-encoding'] = encoding;
    res.writeHead(200, headers);
    res.end(encoding ? entry[encoding] : entry.raw);
  });
  await new Promise<void>((r) => server.listen(options.port, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.log(`serving ${root}`);
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
