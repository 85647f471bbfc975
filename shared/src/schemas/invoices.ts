/** The manager's invoices (issue 25): the Subscription page's list, and one invoice's PDF. */
import { z } from 'zod';

export const invoiceListItem = z.object({
  /** `INV-<team>-000001`: one gapless sequence per team for invoices and credit notes. */
  number: z.string(),
  /** `invoice`: a charge to the card on file; `creditNote`: a refund to it (a redemption, closing). */
  kind: z.enum(['invoice', 'creditNote']),
  issuedAt: z.string(),
  /** Its date (`yyyy-mm-dd`) in the team's zone when issued: what the PDF and e-mail print. */
  issuedOn: z.string(),
  /** What the card was charged (invoice) or refunded (credit note), cents. */
  totalCents: z.number().int(),
  /** How many lines it has (one per person funded, or the balance and its fee). */
  lines: z.number().int(),
});

export type InvoiceListItem = z.infer<typeof invoiceListItem>;

export const invoicesOutput = z.object({ invoices: z.array(invoiceListItem) });

export const invoiceNumberInput = z.object({
  invoiceNumber: z.string().regex(/^INV-[A-Z0-9]{1,6}-\d{6,12}$/, 'Not an invoice number'),
});
