/**
 * /dashboard/purchasehistory (spec §2 "Purchase history"): an employee's own
 * purchases with upload and view of receipts, or a manager's whole team with
 * names, view only; newest first, a page at a time (GET /purchases, opaque
 * cursor). `?upload=<id>` / `?view=<id>` open a dialog (the dashboard's links).
 * Insights links here with a filter (./purchaseFilter.ts): the matching rows
 * only, pages loaded until the period is covered. A manager sets each
 * purchase's skill area in its row (issue 26).
 */
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatCents } from '@shared/domain/money';
import type { SkillArea } from '@shared/schemas/insights';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { useCard, useCardMoneyMoves } from '../../stores/card';
import { notify } from '../../stores/notifications';
import { teamZone } from '../../stores/teamCalendar';
import { savePurchaseSkill } from '../insights/insightsApi';
import { PurchaseTable } from './PurchaseTable';
import { describeFilter, filterFrom, matches, pastPeriod } from './purchaseFilter';
import { UploadReceiptDialog, ViewReceiptDialog } from './ReceiptDialogs';
import { receiptUploadedMessage } from './receiptFreezeText';
import { skillOf } from './skillText';

const PAGE_SIZE = 25;
/** A filtered list reads bigger pages, and stops after this many (then offers 'Load more'). */
const FILTERED_PAGE_SIZE = 100;
const FILTERED_PAGES_AT_MOST = 20;

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
  const filterKey = ['from', 'to', 'skill', 'media', 'merchant', 'person', 'receipts']
    .map((key) => params.get(key) ?? '')
    .join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter changes only with its own keys, not with ?view= or ?upload=.
  const filter = useMemo(() => filterFrom(params), [filterKey]);
  const pageSize = filter ? FILTERED_PAGE_SIZE : PAGE_SIZE;
  const pagesRead = useRef(1);

  // An employee's card money moved (polled for the header): re-read the newest page, keeping pages loaded below it.
  const moves = useCardMoneyMoves();
  const loadedMore = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` is the reason to read again, not a value the read uses.
  useEffect(() => {
    const abort = new AbortController();
    call('listPurchases', { limit: pageSize }, { signal: abort.signal })
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
  }, [moves, pageSize]);

  async function loadMore() {
    if (!cursor) return;
    setLoadingMore(true);
    loadedMore.current = true;
    pagesRead.current += 1;
    try {
      const page = await call('listPurchases', { limit: pageSize, cursor });
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

  // A filter shows only the loaded rows that match: read on until the period is covered (or the list ends).
  const zone = teamZone();
  const covered = !filter || !cursor || pastPeriod(rows, filter, zone);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reading on is decided by what is loaded, not by loadMore's identity.
  useEffect(() => {
    if (status !== 'ready' || loadingMore || covered || pagesRead.current >= FILTERED_PAGES_AT_MOST) return;
    void loadMore();
  }, [status, loadingMore, covered, rows]);
  const shown = useMemo(
    () => (filter ? rows.filter((row) => matches(row, filter, zone)) : rows),
    [rows, filter, zone],
  );

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
  const shownCents = shown.reduce((sum, row) => sum + row.amountCents - row.refundedCents, 0);

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
            {covered
              ? `${shown.length} ${shown.length === 1 ? 'purchase' : 'purchases'}, ${formatCents(shownCents)} net of refunds.`
              : 'loading more purchases…'}{' '}
            {/* Darker than the default link blue: it sits on the alert's tint. */}
            <Anchor component={Link} to="/dashboard/purchasehistory" c="blue.9" underline="always">
              Show all purchases
            </Anchor>
          </Text>
        </Alert>
      ) : null}
      {status === 'ready' && rows.length === 0 ? <Text>No purchases yet.</Text> : null}
      {status === 'ready' && rows.length > 0 && filter && covered && shown.length === 0 ? (
        <Text>No purchases match this filter.</Text>
      ) : null}
      {shown.length > 0 ? (
        <ScrollableTable
          label="Purchase history, scrolls sideways"
          minWidth={phone ? 0 : manager ? 920 : 680}
        >
          <PurchaseTable
            rows={shown}
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
