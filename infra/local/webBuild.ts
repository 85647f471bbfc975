/** Builds the web app with Vite when its sources are newer than the last build. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type LogSink, startProcess } from './processes';

const SOURCES = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'shared/src',
  'package-lock.json',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function webBuildIsStale(root: string): boolean {
  const built = join(root, 'web/dist/app.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(root, source)) > builtAt);
}

export async function buildWeb(root: string, log: LogSink): Promise<void> {
  const vite = join(root, 'node_modules/.bin/vite');
  const child = startProcess(vite, ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    // Always the production build CloudFront serves: under a test runner NODE_ENV is
    // 'test', which would give Vite React's development build (twice the size, other
    // behaviour) and the browser tests would not test what ships.
    env: { NODE_ENV: 'production' },
    log,
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`vite build failed (exit ${code})`);
}
