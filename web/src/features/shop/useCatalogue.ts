/**
 * The catalogue for the shop (spec §4 "Shop loading": loading, then the items
 * or an error). GET /catalogue answers with an ETag and `private, no-cache`,
 * and the client's fetch uses the browser's HTTP cache, so a repeat load sends
 * If-None-Match and gets a 304 with no body. Within one visit the list is also
 * kept in memory: coming back to /shop shows it at once and revalidates.
 */

import type { CatalogueItem } from '@shared/schemas/catalogue';
import { useCallback, useEffect, useState } from 'react';
import { call, errorMessage } from '../../api/client';

let kept: CatalogueItem[] | undefined;

export type CatalogueState =
  | { status: 'loading'; items: CatalogueItem[] }
  | { status: 'ready'; items: CatalogueItem[] }
  | { status: 'error'; items: CatalogueItem[]; error: string };

export function useCatalogue(): CatalogueState & { retry: () => void } {
  const [state, setState] = useState<CatalogueState>(() =>
    kept ? { status: 'ready', items: kept } : { status: 'loading', items: [] },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    const abort = new AbortController();
    call('getCatalogue', {}, { signal: abort.signal })
      .then(({ items }) => {
        kept = items;
        setState({ status: 'ready', items });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted || kept) return;
        setState({ status: 'error', items: [], error: errorMessage(error) });
      });
    return () => abort.abort();
  }, [attempt]);

  const retry = useCallback(() => {
    setState({ status: 'loading', items: [] });
    setAttempt((n) => n + 1);
  }, []);

  return { ...state, retry };
}
