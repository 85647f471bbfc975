/**
 * GET /catalogue - employee or manager. The whole shop catalogue, read-only;
 * the shop filters and sorts it in the browser (docs/decisions.md). The wrapper
 * tags it with an ETag: a repeat visit with If-None-Match is a 304 with no body.
 */
import { httpHandler } from '../platform/http';
import { getCatalogue } from '../services/shop';

export const handler = httpHandler('getCatalogue', () => getCatalogue());
