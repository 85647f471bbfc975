/**
 * The Subscription page's invoices (issue 25): every invoice (a charge to the
 * card on file) and credit note (a refund to it) of the team, newest first,
 * from GET /invoices, each with its PDF (GET /invoices/{number}/pdf, saved as
 * `<number>.pdf`). The invoice e-mail links here (`#invoices`).
 */
import { Alert, Anchor, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import { useEffect, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { saveFile } from '../../components/saveFile';
import { notify } from '../../stores/notifications';
import { formatDate } from '../purchases/purchaseText';

type Invoice = RouteOutput<'listInvoices'>['invoices'][number];

function PdfLink({ invoice }: { invoice: Invoice }) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const file = await call('getInvoicePdf', { invoiceNumber: invoice.number });
      saveFile(`${invoice.number}.pdf`, file.body, 'application/pdf');
    } catch (error) {
      notify({ kind: 'error', message: errorMessage(error), title: 'The PDF could not be downloaded' });
    } finally {
      setBusy(false);
    }
  }
  return busy ? (
    <Loader size="xs" role="status" aria-label={`Downloading ${invoice.number}`} />
  ) : (
    <Anchor component="button" type="button" size="sm" onClick={() => void download()}>
      PDF<VisuallyHidden> of {invoice.number}</VisuallyHidden>
    </Anchor>
  );
}

function Amount({ invoice }: { invoice: Invoice }) {
  return invoice.kind === 'creditNote' ? (
    <Text size="sm" fw={700}>
      Refunded {formatCents(invoice.totalCents)}
    </Text>
  ) : (
    <Text size="sm">{formatCents(invoice.totalCents)}</Text>
  );
}

export function InvoicesList({ compact }: { compact: boolean }) {
  const [invoices, setInvoices] = useState<Invoice[] | undefined>();
  const [failed, setFailed] = useState<string | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    call('listInvoices', {}, { signal: controller.signal }).then(
      (answer) => setInvoices(answer.invoices),
      (error: unknown) => {
        if (!controller.signal.aborted) setFailed(errorMessage(error));
      },
    );
    return () => controller.abort();
  }, []);

  return (
    <section aria-labelledby="invoices-title" id="invoices">
      <Stack gap="xs">
        <Title order={2} size="h3" id="invoices-title">
          Invoices
        </Title>
        <Text size="sm" c="gray.7">
          An invoice for every charge to your card on file, and a credit note for every refund to it.
        </Text>
        {failed ? (
          <Alert color="red" title="Invoices could not be loaded" role="alert">
            {failed}
          </Alert>
        ) : !invoices ? (
          <Loader size="sm" role="status" aria-label="Loading invoices" />
        ) : invoices.length === 0 ? (
          <Text size="sm" data-testid="invoices-empty">
            No invoices yet. Each charge to your card on file sends you one by e-mail and lists it here.
          </Text>
        ) : (
          <Table striped verticalSpacing="xs" aria-label="Invoices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Number</Table.Th>
                {compact ? null : <Table.Th>Date</Table.Th>}
                <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Download</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.map((invoice) => (
                <Table.Tr key={invoice.number} data-invoice={invoice.number}>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {invoice.number}
                    </Text>
                    <Text size="xs" c="gray.7">
                      {invoice.kind === 'creditNote' ? 'Credit note' : 'Invoice'}
                      {compact ? ` · ${formatDate(invoice.issuedOn)}` : ''}
                    </Text>
                  </Table.Td>
                  {compact ? null : (
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(invoice.issuedOn)}</Table.Td>
                  )}
                  <Table.Td style={{ textAlign: 'right' }}>
                    <Amount invoice={invoice} />
                  </Table.Td>
                  <Table.Td>
                    <PdfLink invoice={invoice} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </section>
  );
}
