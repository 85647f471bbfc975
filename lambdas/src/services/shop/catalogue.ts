/**
 * The catalogue: reading it for the shop, and replacing it from a checked file.
 * The file (shared/data/catalogue.jsonl) is the source of truth; the table
 * holds a copy, so an import makes the table equal to the file: new and changed
 * items are written, items gone from the file are deleted, unchanged items are
 * not touched (a second run writes nothing).
 */
import { createHash } from 'node:crypto';
import {
  type CatalogueItem,
  type CatalogueLineError,
  catalogueItem,
  parseCatalogueJsonl,
} from '@shared/schemas/catalogue';
import {
  deleteCatalogueItems,
  listCatalogue,
  listCatalogueEntries,
  putCatalogueItems,
} from '../../data/catalogue';

/**
 * The hash of an item's catalogue fields. The item is re-parsed first, so the
 * key order (the schema's) and the dropped unknowns do not depend on how the
 * line was written.
 */
export function catalogueContentHash(item: CatalogueItem): string {
  return createHash('sha256')
    .update(JSON.stringify(catalogueItem.parse(item)))
    .digest('base64url');
}

export interface ImportResult {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
}

/**
 * Makes the stored catalogue equal to `items` (already validated, ids unique).
 * Writes before deletes, so a run that stops half way leaves extra items rather
 * than missing ones; running it again finishes the job.
 */
export async function importCatalogue(items: CatalogueItem[]): Promise<ImportResult> {
  const stored = new Map((await listCatalogueEntries()).map((e) => [e.id, e.contentHash]));
  const toWrite: { item: CatalogueItem; contentHash: string }[] = [];
  let added = 0;
  let unchanged = 0;
  for (const item of items) {
    const contentHash = catalogueContentHash(item);
    const before = stored.get(item.id);
    if (before === contentHash) unchanged++;
    else {
      if (before === undefined) added++;
      toWrite.push({ item, contentHash });
    }
  }
  const keep = new Set(items.map((i) => i.id));
  const toRemove = [...stored.keys()].filter((id) => !keep.has(id));
  await putCatalogueItems(toWrite);
  await deleteCatalogueItems(toRemove);
  return { added, updated: toWrite.length - added, removed: toRemove.length, unchanged };
}

/**
 * Checks every line of a JSON Lines catalogue first; only a wholly valid file
 * is imported. An invalid one stores nothing and comes back with every problem
 * by line and field.
 */
export async function importCatalogueText(
  text: string,
): Promise<({ ok: true } & ImportResult) | { ok: false; errors: CatalogueLineError[] }> {
  const parsed = parseCatalogueJsonl(text);
  if (!parsed.ok) return parsed;
  return { ok: true, ...(await importCatalogue(parsed.items)) };
}

export async function getCatalogue(): Promise<{ items: CatalogueItem[] }> {
  return { items: await listCatalogue() };
}
