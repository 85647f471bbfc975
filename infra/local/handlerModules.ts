/**
 * The handler modules the local gateway and scheduler serve, each imported on
 * its first call rather than all at start: every integration test file starts
 * its own gateway, and most call a handful of the 60 routes, so importing
 * every handler (and what it pulls in) for each file was work thrown away.
 * A module that exports no handler fails its first call, naming the file;
 * test/infra/api.test.ts checks every route has one.
 *
 * The files called are noted, for `npm test -- --changed` (scripts/changedTests.mjs):
 * no import leads from a test to the handlers it reaches over HTTP.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Repository-relative handler files called in this process so far. */
export const calledHandlerFiles = new Set<string>();

// biome-ignore lint/suspicious/noExplicitAny: a handler's event and result types are its module's own
type AnyHandler = (event: any) => Promise<any>;

export function lazyHandlers<Id extends string, H extends AnyHandler>(
  ids: readonly Id[],
  fileOf: (id: Id) => string,
  root: string,
): Map<Id, H> {
  const handlers = new Map<Id, H>();
  for (const id of ids) {
    const file = fileOf(id);
    let loaded: Promise<H> | undefined;
    const load = async (): Promise<H> => {
      const mod = (await import(pathToFileURL(resolve(root, file)).href)) as { handler?: H };
      if (typeof mod.handler !== 'function') throw new Error(`${file} exports no handler`);
      return mod.handler;
    };
    const call = async (event: unknown) => {
      calledHandlerFiles.add(file);
      loaded ??= load();
      return (await loaded)(event);
    };
    handlers.set(id, call as H);
  }
  return handlers;
}
