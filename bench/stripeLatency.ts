/**
 * Real Stripe answers in a few hundred ms; the emulator in about 1 ms, which
 * hides what a job does with its Stripe calls (one after another, or a few at
 * once). This proxy sits between the product and the emulator and holds each
 * answer back `latencyMs`, only while switched on (the jobs, not the seeding).
 * Set by `BENCH_STRIPE_LATENCY_MS` (bench/run.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';

export interface LatencyProxy {
  url: string;
  setLatency(ms: number): void;
  stop(): Promise<void>;
}

const HOP_BY_HOP = ['host', 'content-length', 'connection', 'transfer-encoding', 'content-encoding'];

export async function startLatencyProxy(target: string): Promise<LatencyProxy> {
  let latencyMs = 0;
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || HOP_BY_HOP.includes(name)) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const started = performance.now();
      const upstream = await fetch(`${target}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        body: body.length > 0 ? body : undefined,
      });
      const answer = Buffer.from(await upstream.arrayBuffer());
      const held = latencyMs - (performance.now() - started);
      if (held > 0) await wait(held);
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.includes(name)) out[name] = value;
      });
      res.writeHead(upstream.status, out);
      res.end(answer);
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setLatency: (ms) => {
      latencyMs = ms;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
