/**
 * The dashboard's latest 5 purchases with 'SEE MORE' (spec §2 /dashboard). The
 * upload and view actions open their dialogs on the purchase history page, so
 * the dashboard does not download them.
 */
import { Alert, Anchor, Card, Group, Loader, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useCardMoneyMoves } from '../../stores/card';
import { PurchaseTable } from './PurchaseTable';

export const PREVIEW_ROWS = 5;
const HISTORY = '/dashboard/purchasehistory';

export function PurchasesPreview() {
  const manager = useSession((s) => s.me?.role === 'manager');
  // Phones get the compact layout, as on the history page: status and actions stay on screen.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const navigate = useNavigate();
  const [rows, setRows] = useState<PurchaseRow[]>();
  const [error, setError] = useState('');
  // The employee's card money moved: the newest purchases again (as the header's balance).
  const moves = useCardMoneyMoves();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` is the reason to read again, not a value the read uses.
  useEffect(() => {
    const abort = new AbortController();
    call('listPurchases', { limit: PREVIEW_ROWS }, { signal: abort.signal })
      .then((page) => setRows(page.purchases.slice(0, PREVIEW_ROWS)))
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(e));
      });
    return () => abort.abort();
  }, [moves]);

  return (
    <Card
      withBorder
      padding={phone ? 'sm' : 'lg'}
      data-tour="dashboard-purchases"
      component="section"
      aria-labelledby="purchases-title"
    >
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="purchases-title">
          Purchase History
        </Title>
        <Anchor component={Link} to={HISTORY} fw={600}>
          SEE MORE
        </Anchor>
      </Group>
      {error ? <Alert color="red">{error}</Alert> : null}
      {!rows && !error ? <Loader size="sm" role="status" aria-label="Loading purchases" /> : null}
      {rows?.length === 0 ? <Text c="gray.7">No purchases yet.</Text> : null}
      {rows && rows.length > 0 ? (
        <ScrollableTable
          label="Latest purchases, scrolls sideways"
          minWidth={phone ? 0 : manager ? 760 : 680}
        >
          <PurchaseTable
            rows={rows}
            manager={manager}
            label="Latest purchases"
            compact={phone}
            actions={{
              onView: (row) => navigate(`${HISTORY}?view=${encodeURIComponent(row.purchaseId)}`),
              ...(manager
                ? {}
                : {
                    onUpload: (row: PurchaseRow) =>
                      navigate(`${HISTORY}?upload=${encodeURIComponent(row.purchaseId)}`),
                  }),
            }}
          />
        </ScrollableTable>
      ) : null}
    </Card>
  );
}
