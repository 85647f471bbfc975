/**
 * The catalogue end to end on DynamoDB Local: the import command (as operations
 * run it against AWS: table name from the environment) makes the table equal to
 * the file and is idempotent, refuses an invalid file by line and field with
 * nothing stored, and GET /catalogue answers signed-in people with an ETag and
 * a 304 to a matching If-None-Match.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type CatalogueItem, parseCatalogueJsonl } from '@shared/schemas/catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { importCatalogueText } from '../../lambdas/src/services/shop';
import { inviteAndRegisterEmployee, registerManager, type SignedIn } from '../support/accountFlows';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  newClientIp,
  startIntegrationStack,
} from '../support/integrationStack';

const run = promisify(execFile);
const CATALOGUE_FILE = resolve('shared/data/catalogue.jsonl');
const fullText = readFileSync(CATALOGUE_FILE, 'utf8');
const parsed = parseCatalogueJsonl(fullText);
if (!parsed.ok) throw new Error('the checked-in catalogue is invalid; see the unit tests');
const allItems = parsed.items;

let stack: IntegrationStack;
let manager: SignedIn;
let employee: SignedIn;
const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));

function fileOf(items: object[], name: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${items.map((i) => JSON.stringify(i)).join('\n')}\n`);
  return path;
}

/** The command exactly as an operator types it (without --local: the table comes from TABLE_NAME). */
async function importCommand(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      resolve('node_modules/.bin/tsx'),
      ['scripts/catalogue-import.ts', file],
      {
        env: process.env,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function storedIds(): Promise<string[]> {
  const { categories } = await import('@shared/domain/skills');
  const pages = await Promise.all(categories.map((c) => stack.queryIndex('gsi1', `CATALOGUE#${c}`)));
  return pages
    .flat()
    .map((i) => i.id as string)
    .sort();
}

async function getCatalogue(token: string | undefined, headers: Record<string, string> = {}) {
  return fetch(`${stack.apiUrl}/catalogue`, {
    headers: {
      [CLIENT_IP_HEADER]: newClientIp(),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  });
}

beforeAll(async () => {
  stack = await startIntegrationStack();
  manager = await registerManager(stack.apiUrl, stack.mailbox);
  employee = await inviteAndRegisterEmployee(stack.apiUrl, manager);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('catalogue import', () => {
  it('stores every item of the file, and a second run changes nothing', async () => {
    const first = await importCommand(CATALOGUE_FILE);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${allItems.length} added, 0 updated, 0 removed, 0 unchanged`);
    expect(await storedIds()).toEqual(allItems.map((i) => i.id).sort());

    const before = await stack.getItem(keys.merch(allItems[0]?.id as string));
    const second = await importCommand(CATALOGUE_FILE);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`0 added, 0 updated, 0 removed, ${allItems.length} unchanged`);
    expect(await stack.getItem(keys.merch(allItems[0]?.id as string))).toEqual(before);
  }, 60_000);

  it('applies a changed file: edits rewritten, new items added, items gone from the file removed', async () => {
    const [edited, removed, ...rest] = allItems as [CatalogueItem, CatalogueItem, ...CatalogueItem[]];
    const added = { ...edited, id: 'a-brand-new-item', name: 'A Brand New Item' };
    const result = await importCatalogueText(
      [{ ...edited, name: `${edited.name} (Revised)` }, ...rest, added]
        .map((i) => JSON.stringify(i))
        .join('\n'),
    );
    expect(result).toEqual({ ok: true, added: 1, updated: 1, removed: 1, unchanged: rest.length });
    expect(await stack.getItem(keys.merch(removed.id))).toBeUndefined();
    const stored = await stack.getItem(keys.merch(edited.id));
    expect(stored?.name).toBe(`${edited.name} (Revised)`);
    // A renamed item moves within its category's index, so the listing stays in name order.
    expect(stored?.gsi1sk).toBe(`${edited.name.toLowerCase()} (revised)#${edited.id}`);

    // Back to the file: the same command restores it exactly.
    const restored = await importCatalogueText(fullText);
    expect(restored).toEqual({ ok: true, added: 1, updated: 1, removed: 1, unchanged: allItems.length - 2 });
    expect(await storedIds()).toEqual(allItems.map((i) => i.id).sort());
  }, 60_000);

  it('refuses an invalid file by line and field, and stores nothing of it', async () => {
    const [first, second] = allItems as [CatalogueItem, CatalogueItem];
    const file = fileOf(
      [
        { ...first, id: 'valid-but-in-a-bad-file' },
        second,
        { ...second, id: 'bad-price', priceCents: 12.99 },
        { ...second, id: 'bad-trait', trait: 'Juggling' },
      ],
      'invalid.jsonl',
    );
    const before = await storedIds();
    const result = await importCommand(file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('nothing was stored');
    expect(result.stderr).toContain('line 3, field priceCents: Must be whole cents');
    expect(result.stderr).toContain('line 4, field trait');
    expect(await storedIds()).toEqual(before);
    expect(await stack.getItem(keys.merch('valid-but-in-a-bad-file'))).toBeUndefined();
  }, 60_000);

  it('says how to use it when the file is missing', async () => {
    const result = await importCommand(join(dir, 'no-such-file.jsonl'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: npm run catalogue:import -- [--local] FILE');
  }, 30_000);
});

describe('GET /catalogue', () => {
  it('answers an employee with the whole catalogue, an ETag and revalidation headers, gzipped', async () => {
    const res = await getCatalogue(employee.accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    // fetch asks for gzip and unpacks it; the header shows the body travelled compressed.
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = (await res.json()) as { items: CatalogueItem[] };
    expect(body.items.map((i) => i.id).sort()).toEqual(allItems.map((i) => i.id).sort());
    const sample = body.items.find((i) => i.id === allItems[0]?.id);
    expect(sample).toEqual(allItems[0]);
    expect(Object.keys(sample ?? {})).not.toContain('pk');
  });

  it('is a 304 with no body on a repeat visit with the same ETag, for a manager too', async () => {
    const first = await getCatalogue(manager.accessToken);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') as string;
    const again = await getCatalogue(manager.accessToken, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    // The same catalogue has the same tag for every role.
    const employees = await getCatalogue(employee.accessToken, { 'if-none-match': etag });
    expect(employees.status).toBe(304);
  });

  it('answers 200 with a new ETag once the catalogue changed', async () => {
    const old = (await getCatalogue(employee.accessToken)).headers.get('etag') as string;
    const [, ...rest] = allItems;
    await importCatalogueText(rest.map((i) => JSON.stringify(i)).join('\n'));
    try {
      const res = await getCatalogue(employee.accessToken, { 'if-none-match': old });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).not.toBe(old);
      expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(rest.length);
    } finally {
      await importCatalogueText(fullText);
    }
  }, 30_000);

  it('checks who is asking before answering 304: no token, no catalogue', async () => {
    const etag = (await getCatalogue(employee.accessToken)).headers.get('etag') as string;
    expect((await getCatalogue(undefined)).status).toBe(401);
    expect((await getCatalogue(undefined, { 'if-none-match': etag })).status).toBe(401);
    expect((await getCatalogue('not-a-token', { 'if-none-match': etag })).status).toBe(401);
  });

  it('lets the web app read the ETag cross-origin and send If-None-Match', async () => {
    const origin = 'http://127.0.0.1:5999';
    const preflight = await fetch(`${stack.apiUrl}/catalogue`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,if-none-match',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('if-none-match');
    const res = await getCatalogue(employee.accessToken, { origin });
    expect(res.headers.get('access-control-expose-headers')).toContain('etag');
    expect(res.headers.get('vary')).toMatch(/accept-encoding.*origin/);
  });
});
