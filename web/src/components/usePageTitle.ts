import { useEffect } from 'react';
import { documentTitle, type PageMeta } from '../content/pages';

/** The SPA's tab title for a pre-rendered page: the same text the static HTML has in <title>. */
export function usePageTitle(page: PageMeta): void {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
