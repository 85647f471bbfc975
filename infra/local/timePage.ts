/**
 * The local time-travel page (`GET /_local/time` on the local API, and
 * `/api/_local/time` through the web server, the app's link): today's product
 * date and buttons to move it forward. Its form posts to a relative address, so
 * it works at both. Served only by the local gateway; the CDK stack has no such
 * route (test/infra/api.test.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalClock, TravelResult } from './timeTravel';

export const TRAVEL_STEPS = ['+1d', '+3d', '+1w', '+2w', '+1m', '+2m', '+6m', '+12m'] as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

export function timePage(options: {
  now: Date;
  offsetMs: number;
  mailboxUrl: string;
  appUrl: string;
  message?: string;
}): string {
  const days = Math.floor(options.offsetMs / (24 * 60 * 60 * 1000));
  const buttons = TRAVEL_STEPS.map(
    (step) => `<button type="submit" name="by" value="${step}">${step.replace('+', '+ ')}</button>`,
  ).join('\n      ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Time travel (local)</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
    button { font: inherit; margin: 0 .4rem .4rem 0; padding: .4rem .9rem; border: 1px solid #1971c2; border-radius: 6px; background: #e7f5ff; color: #1864ab; cursor: pointer; }
    button:focus-visible { outline: 3px solid #1971c2; outline-offset: 2px; }
    .note { color: #59636e; }
    output { display: block; margin: 1rem 0; padding: .6rem .9rem; background: #ebfbee; border-radius: 6px; }
  </style>
</head>
<body>
  <h1>Time travel</h1>
  <p>The product's date: <strong data-now="${options.now.toISOString()}">${options.now.toUTCString()}</strong>
    <span class="note">(${days} days ahead of this machine)</span></p>
  ${options.message ? `<output>${escapeHtml(options.message)}</output>` : ''}
  <form method="post" action="time">
    <p>Move forward; every scheduled job runs for each day passed, in order, and the Stripe emulator's clock moves too.</p>
      ${buttons}
  </form>
  <p class="note">Only on this machine: the AWS deployment has no such page. Time never goes back; delete <code>.local-data/</code> to start over.</p>
  <p><a href="${escapeHtml(options.appUrl)}">The app</a> · <a href="${escapeHtml(options.mailboxUrl)}">The mailbox</a></p>
</body>
</html>`;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4096) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET: the page (or `{ now, offsetMs }` as JSON when asked for JSON). POST
 * `by=+3d` (the page's form) or `{ "by": "+3d" }` (`npm run time`): moves the
 * clock, answering with the page or a JSON summary of the jobs run.
 */
export async function timeEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    clock: LocalClock;
    move: (by: string) => Promise<TravelResult>;
    mailboxUrl: string;
    appUrl: string;
  },
): Promise<void> {
  const wantsJson = (req.headers.accept ?? '').includes('application/json');
  const page = (message?: string, status = 200) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(timePage({ ...options, now: options.clock.now(), offsetMs: options.clock.offsetMs(), message }));
  };
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'GET') {
    if (wantsJson)
      return json(200, { now: options.clock.now().toISOString(), offsetMs: options.clock.offsetMs() });
    return page();
  }
  if (req.method !== 'POST') return json(405, { message: 'GET or POST' });
  const text = await readText(req);
  const by = (req.headers['content-type'] ?? '').includes('application/json')
    ? String((JSON.parse(text || '{}') as { by?: unknown }).by ?? '')
    : (new URLSearchParams(text).get('by') ?? '');
  try {
    const result = await options.move(by);
    const ran = result.runs.filter((r) => (r.result as { status?: string })?.status === 'done').length;
    if (wantsJson)
      return json(200, { ...result, runs: result.runs.length, jobsDone: ran, detail: result.runs });
    page(`Moved ${by}: now ${options.clock.now().toUTCString()}. ${ran} scheduled job runs.`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (wantsJson) return json(400, { message });
    page(message, 400);
  }
}
