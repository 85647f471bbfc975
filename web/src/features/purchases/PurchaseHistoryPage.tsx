/**
 * /dashboard/purchasehistory (spec §2 "Purchase history"): an employee's own
 * purchases with upload and view of receipts, or a manager's whole team with
 * names, view only; newest first, a page at a time (GET /purchases, opaque
 * cursor). `?upload=<id>` / `?view=<id>` open a dialog (the dashboard's links).
 * Insights links here with a filter (./purchaseFilter.ts): GET /purchases
 * lists the matching purchases only, a page at a time like the plain list. A
 * manager sets each purchase's skill area in its row (issue 26).
 */
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatCents } from '@shared/domain/money';
import type { SkillArea } from '@shared/schemas/insights';
import type { ListPurchasesInput, PurchaseRow } from '@shared/schemas/purchases';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { useCard, useCardMoneyMoves } from '../../stores/card';
import { notify } from '../../stores/notifications';
import { savePurchaseSkill } from '../insights/insightsApi';
import { PurchaseTable } from './PurchaseTable';
import { describeFilter, filterFrom, type PurchaseFilter } from './purchaseFilter';
import { UploadReceiptDialog, ViewReceiptDialog } from './ReceiptDialogs';
import { receiptUploadedMessage } from './receiptFreezeText';
import { skillOf } from './skillText';

const PAGE_SIZE = 25;
/** A filtered list reads bigger pages: its summary adds up more of the filter's purchases at once. */
const FILTERED_PAGE_SIZE = 100;
const FILTER_KEYS = ['from', 'to', 'skill', 'media', 'merchant', 'person', 'receipts'] as const;

/** The address's filter as GET /purchases takes it: the server checks each value (400 with its message). */
function asQuery(filter: PurchaseFilter | undefined): Partial<ListPurchasesInput> {
  return (filter ?? {}) as Partial<ListPurchasesInput>;
}

/** Newer rows first, then the rows already listed that they do not replace (a hold that settled is one row). */
function mergeNewest(current: readonly PurchaseRow[], newer: readonly PurchaseRow[]): PurchaseRow[] {
  const ids = new Set(newer.map((r) => r.purchaseId));
  return [...newer, ...current.filter((r) => !ids.has(r.purchaseId))];
}

export function PurchaseHistoryPage() {
  useDocumentTitle('Purchase History');
  const [params] = useSearchParams();
  const filterKey = FILTER_KEYS.map((key) => params.get(key) ?? '').join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter changes only with its own keys, not with ?view= or ?upload=.
  const filter = useMemo(() => filterFrom(params), [filterKey]);
  // Another filter (or none) is another list: its rows and cursor start afresh.
  return <PurchaseHistory key={filterKey} filter={filter} />;
}

function PurchaseHistory({ filter }: { filter: PurchaseFilter | undefined }) {
  const manager = useSession((s) => s.me?.role === 'manager');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [rows, setRows] = useState<PurchaseRow[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);
  const [params, setParams] = useSearchParams();
  const pageSize = filter ? FILTERED_PAGE_SIZE : PAGE_SIZE;

  // An employee's card money moved (polled for the header): re-read the newest page, keeping pages loaded below it.
  const moves = useCardMoneyMoves();
  const loadedMore = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` is the reason to read again, not a value the read uses.
  useEffect(() => {
    const abort = new AbortController();
    call('listPurchases', { limit: pageSize, ...asQuery(filter) }, { signal: abort.signal })
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
  }, [moves, pageSize, filter]);

  async function loadMore() {
    if (!cursor) return;
    setLoadingMore(true);
    loadedMore.current = true;
    try {
      const page = await call('listPurchases', { limit: pageSize, cursor, ...asQuery(filter) });
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

  async function setSkill(row: PurchaseRow, skillArea: SkillArea) {
    try {
      const saved = await savePurchaseSkill(row.purchaseId, { skillArea, media: skillOf(row).media });
      setRows((current) =>
        current.map((r) =>
          r.purchaseId === row.purchaseId ? { ...saved, employeeName: r.employeeName } : r,
        ),
      );
      notify({ kind: 'success', message: `Skill area of ${row.title ?? row.vendor} set to ${skillArea}.` });
    } catch (e) {
      notify({ kind: 'error', title: 'Could not save the skill area', message: errorMessage(e) });
    }
  }

  const byId = useCallback((id: string | null) => rows.find((r) => r.purchaseId === id), [rows]);
  const asked = byId(params.get('upload'));
  const uploading = manager || asked?.status === 'pending' ? undefined : asked;
  const viewing = byId(params.get('view'));
  // The dialogs' keys come and go; a filter in the address stays.
  const open = (key: 'upload' | 'view', row?: PurchaseRow) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('upload');
        next.delete('view');
        if (row) next.set(key, row.purchaseId);
        return next;
      },
      { replace: true },
    );
  const personName = filter?.person
    ? rows.find((r) => r.employeeId === filter.person)?.employeeName
    : undefined;
  const shownCents = rows.reduce((sum, row) => sum + row.amountCents - row.refundedCents, 0);

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
      {filter && status === 'ready' ? (
        <Alert color="blue" title="Filtered purchases" role="status">
          <Text size="sm">
            Showing purchases {describeFilter(filter, personName)}:{' '}
            {`${rows.length} ${rows.length === 1 ? 'purchase' : 'purchases'}`}
            {/* More may follow: the figures are of the rows listed so far. */}
            {cursor ? ' listed so far' : ''}, {formatCents(shownCents)} net of refunds.{' '}
            {/* Darker than the default link blue: it sits on the alert's tint. */}
            <Anchor component={Link} to="/dashboard/purchasehistory" c="blue.9" underline="always">
              Show all purchases
            </Anchor>
          </Text>
        </Alert>
      ) : null}
      {status === 'ready' && rows.length === 0 && !filter ? <Text>No purchases yet.</Text> : null}
      {status === 'ready' && rows.length === 0 && filter && !cursor ? (
        <Text>No purchases match this filter.</Text>
      ) : null}
      {status === 'ready' && rows.length === 0 && filter && cursor ? (
        <Text>No purchases match this filter among the newest ones; “Load more” looks further back.</Text>
      ) : null}
      {rows.length > 0 ? (
        <ScrollableTable
          label="Purchase history, scrolls sideways"
          minWidth={phone ? 0 : manager ? 920 : 680}
        >
          <PurchaseTable
            rows={rows}
            manager={manager}
            compact={phone}
            label="Purchase history"
            actions={{
              onView: (row) => open('view', row),
              ...(manager
                ? { onSkill: (row: PurchaseRow, area: SkillArea) => void setSkill(row, area) }
                : { onUpload: (row: PurchaseRow) => open('upload', row) }),
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
