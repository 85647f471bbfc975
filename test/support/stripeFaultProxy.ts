/**
 * A network between the product and the Stripe emulator that fails on request,
 * as a flaky network would: it refuses a request (an outage) or lets Stripe do
 * it and loses the answer (a timeout), or holds a request back until
 * something else happened (a slow network, to order two racing requests).
 * Point the product at `url` (STRIPE_API_URL, read on first use); nothing in
 * the product is replaced.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  /** The form body, decoded (`metadata[purpose]=JOIN#...`). */
  body: string;
}

export interface Fault {
  match(request: SeenRequest): boolean;
  /** before: Stripe never sees the request (an outage); after: Stripe does it, the answer is lost (a timeout). */
  when: 'before' | 'after';
}

/** The first request matching waits until `until` settles, then goes on to Stripe as sent. */
export interface Hold {
  match(request: SeenRequest): boolean;
  until: Promise<unknown>;
}

export interface FaultProxy {
  url: string;
  fail(fault: Fault): void;
  hold(hold: Hold): void;
  /** Settles at the `count`-th request matching (1: the first), counting those already seen. */
  waitFor(match: (request: SeenRequest) => boolean, count?: number): Promise<SeenRequest>;
  clear(): void;
  seen(): SeenRequest[];
  stop(): Promise<void>;
}

function decodeForm(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** 500 with `stripe-should-retry: false`: the SDK gives up at once, as after its retries. */
function failed(res: ServerResponse): void {
  res.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
  res.end(JSON.stringify({ error: { type: 'api_error', message: 'The test network failed this request.' } }));
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  let faults: Fault[] = [];
  let holds: Hold[] = [];
  const seen: SeenRequest[] = [];
  let waiters: {
    match: (request: SeenRequest) => boolean;
    left: number;
    resolve: (request: SeenRequest) => void;
  }[] = [];
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      const request = { method: req.method ?? 'GET', path: req.url ?? '/', body: decodeForm(raw.toString()) };
      seen.push(request);
      for (const w of waiters) if (w.match(request) && --w.left === 0) w.resolve(request);
      waiters = waiters.filter((w) => w.left > 0);
      const held = holds.find((h) => h.match(request));
      if (held) {
        holds = holds.filter((h) => h !== held);
        await held.until.catch(() => undefined);
      }
      const fault = faults.find((f) => f.match(request));
      if (fault?.when === 'before') return failed(res);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders)) {
        if (value === undefined || ['host', 'content-length', 'connection'].includes(name)) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const upstream = await fetch(`${target}${request.path}`, {
        method: request.method,
        headers,
        body: raw.length > 0 ? raw : undefined,
      });
      const answer = Buffer.from(await upstream.arrayBuffer());
      if (fault?.when === 'after') return failed(res);
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
          out[name] = value;
      });
      res.writeHead(upstream.status, out);
      res.end(answer);
    } catch {
      if (!res.headersSent) failed(res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (fault) => {
      faults.push(fault);
    },
    hold: (hold) => {
      holds.push(hold);
    },
    waitFor: (match, count = 1) => {
      const already = seen.filter(match);
      if (already.length >= count) return Promise.resolve(already[count - 1] as SeenRequest);
      return new Promise((resolve) => waiters.push({ match, left: count - already.length, resolve }));
    },
    clear: () => {
      faults = [];
      holds = [];
      waiters = [];
    },
    seen: () => [...seen],
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A refund created for a purpose starting with `purposePrefix`. */
export const refundsFor =
  (purposePrefix: string) =>
  (r: SeenRequest): boolean =>
    r.method === 'POST' && r.path === '/v1/refunds' && r.body.includes(`metadata[purpose]=${purposePrefix}`);

export const chargesFor =
  (purposePrefix: string) =>
  (r: SeenRequest): boolean =>
    r.method === 'POST' && r.path === '/v1/charges' && r.body.includes(`metadata[purpose]=${purposePrefix}`);
