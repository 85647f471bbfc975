/**
 * `npm run time -- +3d` (or +2w, +2m, +12h): moves the running local stack's
 * clock forward and runs every scheduled job for each day passed. Without an
 * argument, prints the product's date. Local only: it talks to the local API's
 * /_local/time, which the AWS deployment does not have.
 */
import { portsFromEnv } from '../infra/local/settings';

const url = `http://127.0.0.1:${portsFromEnv().api}/_local/time`;
const by = process.argv[2];

async function main() {
  const response = await fetch(url, {
    method: by ? 'POST' : 'GET',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: by ? JSON.stringify({ by }) : undefined,
  }).catch(() => {
    throw new Error(`No local stack at ${url}: start it with npm start.`);
  });
  const body = (await response.json()) as { now?: string; to?: string; runs?: number; message?: string };
  if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
  if (by) console.log(`Now ${body.to} (${body.runs} scheduled job runs on the way).`);
  else console.log(`Now ${body.now}. Move with: npm run time -- +3d (or +2w, +2m).`);
  console.log(`Page: ${url}`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
