/**
 * Child processes of the local stack: started with prefixed, line-buffered
 * output, stopped together. Nothing here is specific to one service.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { type LocalPorts, portEnvNames } from './settings';

export type LogSink = (line: string) => void;

const colours = [36, 35, 33, 32, 34, 31, 96, 95];
let nextColour = 0;

/** A writer that prefixes each line with `[name]` (coloured on a terminal). */
export function prefixedLog(name: string, quiet = false): LogSink {
  const colour = colours[nextColour++ % colours.length];
  const tag = process.stdout.isTTY ? `\x1b[${colour}m[${name}]\x1b[0m` : `[${name}]`;
  return (line) => {
    if (!quiet && line.trim() !== '') process.stdout.write(`${tag} ${line}\n`);
  };
}

export function startProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; log: LogSink },
): ChildProcess & { stopProcess(): Promise<void> } {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', options.log);
  }
  let stopping = false;
  child.on('exit', (code, signal) => {
    if (!stopping && code !== 0 && signal === null) options.log(`exited with code ${code}`);
  });
  const stopProcess = () =>
    new Promise<void>((resolve) => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return Object.assign(child, { stopProcess });
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port. */
export async function waitForPort(port: number, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/** Resolves once an HTTP GET answers (any status). */
export async function waitForHttp(url: string, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs} ms`);
}

/** Fails with one clear line per taken port, naming the variable that moves it. */
export async function assertPortsFree(ports: LocalPorts): Promise<void> {
  const taken: string[] = [];
  for (const [name, port] of Object.entries(ports)) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (!free) {
      const envName = portEnvNames[name as keyof typeof portEnvNames];
      taken.push(`port ${port} (${name}) is in use; free it or set ${envName}=<another port>`);
    }
  }
  if (taken.length > 0) throw new PortInUseError(taken.join('\n'));
}

export class PortInUseError extends Error {}
