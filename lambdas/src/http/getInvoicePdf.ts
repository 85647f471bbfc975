/**
 * GET /invoices/{invoiceNumber}/pdf - manager, own team only. The invoice as
 * a PDF file, rendered from its stored record; another team's number is not
 * found. Read-only.
 */
import { httpHandler } from '../platform/http';
import { invoicePdf } from '../services/invoices';

export const handler = httpHandler('getInvoicePdf', ({ actor, input }) =>
  invoicePdf(actor, input.invoiceNumber),
);
