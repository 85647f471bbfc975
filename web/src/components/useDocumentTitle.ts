import { useEffect } from 'react';
import { PRODUCT_NAME } from '../content/site';

/** Sets the tab title ('Pricing | Learning Budget'): the first thing a screen reader says on a new page. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
