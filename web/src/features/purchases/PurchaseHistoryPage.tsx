/**
 * /dashboard/purchasehistory (spec §2 "Purchase history"): an employee's own
 * purchases with upload and view of receipts, or a manager's whole team with
 * names, view only; newest first, a page at a time (GET /purchases, opaque
 * cursor). `?upload=<id>` / `?view=<id>` open a dialog (the dashboard's links).
 */
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { useCard, useCardMoneyMoves } from '../../stores/card';
import { notify } from '../../stores/notifications';
import { PurchaseTable } from './PurchaseTable';
import { UploadReceiptDialog, ViewReceiptDialog } from './ReceiptDialogs';
import { receiptUploadedMessage } from './receiptFreezeText';

const PAGE_SIZE = 25;

/** Newer rows first, then the rows already listed that they do not replace (a hold that settled is one row). */
function mergeNewest(current: readonly PurchaseRow[], newer: readonly PurchaseRow[]): PurchaseRow[] {
  const ids = new Set(newer.map((r) => r.purchaseId));
  return [...newer, ...current.filter((r) => !ids.has(r.purchaseId))];
}

export function PurchaseHistoryPage() {
  useDocumentTitle('Purchase History');
  const manager = useSession((s) => s.me?.role === 'manager');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [rows, setRows] = useState<PurchaseRow[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);
  const [params, setParams] = useSearchParams();

  // An employee's card money moved (polled for the header): re-read the newest page, keeping pages loaded below it.
  const moves = useCardMoneyMoves();
  const loadedMore = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` is the reason to read again, not a value the read uses.
  useEffect(() => {
    const abort = new AbortController();
    call('listPurchases', { limit: PAGE_SIZE }, { signal: abort.signal })
      .then((page) => {
        setRows((current) => mergeNewest(current, page.purchases));
        // Once more pages are listed, the cursor after them stays ('Load more' skips what it repeats).
        if (!loadedMore.current) setCursor(page.nextCursor);
        setStatus('ready');
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        setError(errorMessage(e));
        setStatus('error');
      });
    return () => abort.abort();
  }, [moves]);

  async function loadMore() {
    if (!cursor) return;
    setLoadingMore(true);
    loadedMore.current = true;
    try {
      const page = await call('listPurchases', { limit: PAGE_SIZE, cursor });
      setRows((current) => {
        const listed = new Set(current.map((r) => r.purchaseId));
        return [...current, ...page.purchases.filter((r) => !listed.has(r.purchaseId))];
      });
      setCursor(page.nextCursor);
    } catch (e) {
      setError(errorMessage(e));
      setStatus('error');
    } finally {
      setLoadingMore(false);
    }
  }

  const byId = useCallback((id: string | null) => rows.find((r) => r.purchaseId === id), [rows]);
  const asked = byId(params.get('upload'));
  const uploading = manager || asked?.status === 'pending' ? undefined : asked;
  const viewing = byId(params.get('view'));
  const open = (key: 'upload' | 'view', row?: PurchaseRow) =>
    setParams(row ? { [key]: row.purchaseId } : {}, { replace: true });

  const pastVendors = useMemo(() => [...new Set(rows.map((r) => r.vendor))], [rows]);

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>{pageHeadings.purchaseHistory.title}</Title>
        <Text c="gray.7">
          {manager ? pageHeadings.purchaseHistory.lead.manager : pageHeadings.purchaseHistory.lead.employee}
        </Text>
      </div>
      {status === 'error' ? (
        <Alert color="red" title="Could not load purchase history">
          {error}
        </Alert>
      ) : null}
      {status === 'loading' ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text>Loading purchases…</Text>
        </Group>
      ) : null}
      {status === 'ready' && rows.length === 0 ? <Text>No purchases yet.</Text> : null}
      {rows.length > 0 ? (
        <ScrollableTable
          label="Purchase history, scrolls sideways"
          minWidth={phone ? 0 : manager ? 760 : 680}
        >
          <PurchaseTable
            rows={rows}
            manager={manager}
            compact={phone}
            label="Purchase history"
            actions={{
              onView: (row) => open('view', row),
              ...(manager ? {} : { onUpload: (row: PurchaseRow) => open('upload', row) }),
            }}
          />
        </ScrollableTable>
      ) : null}
      {cursor && status === 'ready' ? (
        <Group>
          <Button variant="default" onClick={() => void loadMore()} loading={loadingMore}>
            Load more
          </Button>
        </Group>
      ) : null}
      <UploadReceiptDialog
        purchase={uploading}
        pastVendors={pastVendors}
        onClose={() => open('upload')}
        onUploaded={(row, card) => {
          setRows((current) =>
            current.map((r) =>
              r.purchaseId === row.purchaseId ? { ...row, employeeName: r.employeeName } : r,
            ),
          );
          open('upload');
          notify({ kind: 'success', ...receiptUploadedMessage(card) });
          // The header's card and the dashboard's banner show the card as it is now.
          if (card !== 'notFrozenForReceipts') void useCard.getState().refresh();
        }}
      />
      <ViewReceiptDialog purchase={viewing} onClose={() => open('view')} />
    </Stack>
  );
}
