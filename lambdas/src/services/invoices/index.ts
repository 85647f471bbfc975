/**
 * Invoices: one numbered invoice (or credit note) per billing run, made from
 * the run's ledger entries, e-mailed to the manager, listed on the
 * Subscription page and printed as a PDF on request. Depends on the data
 * layer only: billing and money call it after they post.
 */
export { invoiceEmailSubject, invoicePdf, invoicePdfBytes, issueInvoice, listInvoices } from './invoices';
