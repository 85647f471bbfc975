/**
 * GET /invoices - manager, own team only. Every invoice and credit note of the
 * team, newest first (the Subscription page's Invoices list). Read-only.
 */
import { httpHandler } from '../platform/http';
import { listInvoices } from '../services/invoices';

export const handler = httpHandler('listInvoices', ({ actor }) => listInvoices(actor));
