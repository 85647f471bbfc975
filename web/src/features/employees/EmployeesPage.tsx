/**
 * /dashboard/employees (spec §2 "Employees screen", §4 bulk actions, §8 texts):
 * the team's people with status, card status, budget and remaining budget;
 * fuzzy search over name, e-mail and status; every column sortable (remaining
 * budget, highest first, by default); selection with select-all over what the
 * search shows; 25 rows a page so a large team stays quick. Bulk actions follow
 * bulkActions.ts (invited people: withdraw their invitation); per person:
 * edit, extra deposit, freeze or activate. After any action the list is
 * reloaded in place.
 */
import { Alert, Button, Group, Loader, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { useFocusAfterRender } from '../../components/dialogFocus';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { employeeMessages } from '../../content/consoleMessages';
import { pageHeadings } from '../../content/pageHeadings';
import { notify } from '../../stores/notifications';
import { ActivateCardsDialog } from './ActivateCardsDialog';
import { bulkActions, reallocationReceivers, receiptFrozenToActivate } from './bulkActions';
import {
  CardStatusDialog,
  DeleteDialog,
  DepositDialog,
  ReallocateDialog,
  RedeemDialog,
  ResendInvitationDialog,
  WithdrawInvitationsDialog,
} from './EmployeeDialogs';
import { EmployeesTable, type RowAction } from './EmployeesTable';
import { createSearch, SEARCH_MAX_LENGTH } from './employeeSearch';
import { type EmployeeRow, useEmployees } from './employeesStore';
import { DEFAULT_SORT, nextSort, PAGE_SIZE, pageOf, type Sort, sortRows } from './employeeTable';
import { ScheduledStarts } from './ScheduledStarts';
import { setCardsStatus } from './setCardsStatus';

type Dialog =
  | { kind: 'delete'; people: EmployeeRow[] }
  | { kind: 'reallocate'; from: EmployeeRow[] }
  | { kind: 'redeem'; from: EmployeeRow[] }
  | { kind: 'withdraw'; people: EmployeeRow[] }
  | { kind: 'activate'; people: EmployeeRow[]; receiptFrozen: EmployeeRow[] }
  | RowAction;

export function EmployeesPage() {
  useDocumentTitle('Employees');
  const rows = useEmployees((s) => s.rows);
  const status = useEmployees((s) => s.status);
  const load = useEmployees((s) => s.load);
  const [query, setQuery] = useState('');
  // Until a column header is clicked: remaining budget (spec default), or, while
  // searching, best match first - a fuzzy search over 1,000 similar e-mails
  // would otherwise bury the exact match on a later page.
  const [chosenSort, setSort] = useState<Sort | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [working, setWorking] = useState<'pause' | 'card' | null>(null);
  // Phones get the compact table, as the purchase tables do: state, money and actions stay on screen.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  // The bulk bar keeps focus when the button pressed leaves with the selection (and is where a bulk dialog returns it).
  const bulkBar = useRef<HTMLDivElement>(null);
  const focusBulkBar = useFocusAfterRender(bulkBar);

  useEffect(() => {
    void load();
  }, [load]);

  // Forget the selection of people no longer listed.
  useEffect(() => {
    setSelected((previous) => {
      const present = new Set(rows.map((r) => r.userId));
      const kept = [...previous].filter((id) => present.has(id));
      return kept.length === previous.size ? previous : new Set(kept);
    });
  }, [rows]);

  const search = useMemo(() => createSearch(rows), [rows]);
  const deferredQuery = useDeferredValue(query);
  const searching = deferredQuery.trim() !== '';
  const sort = chosenSort ?? (searching ? null : DEFAULT_SORT);
  const shown = useMemo(() => {
    const found = search(deferredQuery);
    return sort ? sortRows(found, sort) : found;
  }, [search, deferredQuery, sort]);
  const current = pageOf(shown, page);
  const chosen = useMemo(() => rows.filter((r) => selected.has(r.userId)), [rows, selected]);
  const actions = bulkActions(chosen);
  const allShownSelected = shown.length > 0 && shown.every((r) => selected.has(r.userId));
  const someShownSelected = shown.some((r) => selected.has(r.userId));

  function toggle(userId: string, on: boolean) {
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(userId);
      else next.delete(userId);
      return next;
    });
  }

  function toggleAll(on: boolean) {
    setSelected((previous) => {
      const next = new Set(previous);
      for (const row of shown) {
        if (on) next.add(row.userId);
        else next.delete(row.userId);
      }
      return next;
    });
  }

  function done() {
    setDialog(null);
    void load();
  }

  /**
   * A bulk action that went through ends its selection: a person left selected
   * would be silently included in the next one (decisions.md, "Manager console").
   */
  function bulkDone() {
    setSelected(new Set());
    focusBulkBar();
    done();
  }

  const byIds = (ids: string[]) => rows.filter((r) => ids.includes(r.userId));

  async function pause() {
    if (!actions.pause) return;
    const { action, userIds } = actions.pause;
    setWorking('pause');
    try {
      await call('updateSubscriptionStatus', { userIds, action });
      notify({
        kind: 'success',
        message: action === 'pause' ? employeeMessages.paused : employeeMessages.unpaused,
      });
      setSelected(new Set());
      focusBulkBar();
      await load();
    } catch (error) {
      notify({ kind: 'error', message: employeeMessages.actionFailed(errorMessage(error)) });
    } finally {
      setWorking(null);
    }
  }

  async function switchCards() {
    if (!actions.card) return;
    // A card frozen for an overdue receipt would be frozen again by the next daily check: ask first, as one person's dialog does.
    const receiptFrozen = receiptFrozenToActivate(chosen);
    if (receiptFrozen.length > 0) {
      setDialog({ kind: 'activate', people: byIds(actions.card.userIds), receiptFrozen });
      return;
    }
    setWorking('card');
    try {
      if (await setCardsStatus(actions.card.userIds, actions.card.status)) {
        setSelected(new Set());
        focusBulkBar();
        await load();
      }
    } finally {
      setWorking(null);
    }
  }

  const first = (current.page - 1) * PAGE_SIZE + 1;
  const last = first + current.rows.length - 1;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1} id="employees-title">
            {pageHeadings.employees.title}
          </Title>
          <Text c="gray.7">{pageHeadings.employees.lead}</Text>
        </div>
        <Group gap="sm">
          <Button component={Link} to="/dashboard/importRoster" variant="default">
            Import roster
          </Button>
          <Button component={Link} to="/inviteMembers">
            Add / Invite
          </Button>
        </Group>
      </Group>

      <TextInput
        type="search"
        label="Search employees"
        description="By name, email or status"
        maxLength={SEARCH_MAX_LENGTH}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setPage(1);
        }}
        maw={420}
      />

      <Group
        gap="sm"
        aria-label="Bulk actions"
        role="group"
        wrap="wrap"
        mih={36}
        ref={bulkBar}
        tabIndex={-1}
        data-focus-fallback
      >
        <Text size="sm" fw={600} aria-live="polite">
          {selected.size === 0 ? 'Select people to act on several at once.' : `${selected.size} selected`}
        </Text>
        {actions.pause ? (
          <Button size="sm" variant="default" loading={working === 'pause'} onClick={() => void pause()}>
            {actions.pause.action === 'pause' ? 'Pause' : 'Unpause'}
          </Button>
        ) : null}
        {actions.card ? (
          <Button size="sm" variant="default" loading={working === 'card'} onClick={() => void switchCards()}>
            {actions.card.status === 'inactive' ? 'Freeze' : 'Activate'}
          </Button>
        ) : null}
        {actions.delete ? (
          <Button
            size="sm"
            variant="outline"
            color="red.8"
            onClick={() => setDialog({ kind: 'delete', people: byIds(actions.delete?.userIds ?? []) })}
          >
            Delete
          </Button>
        ) : null}
        {actions.reallocate ? (
          <Button
            size="sm"
            variant="default"
            onClick={() =>
              setDialog({ kind: 'reallocate', from: byIds(actions.reallocate?.deletedUserIds ?? []) })
            }
          >
            Reallocate
          </Button>
        ) : null}
        {actions.redeem ? (
          <Button
            size="sm"
            variant="default"
            onClick={() => setDialog({ kind: 'redeem', from: byIds(actions.redeem?.deletedUserIds ?? []) })}
          >
            Redeem
          </Button>
        ) : null}
        {actions.withdraw ? (
          <Button
            size="sm"
            variant="outline"
            color="red.8"
            onClick={() => setDialog({ kind: 'withdraw', people: byIds(actions.withdraw?.userIds ?? []) })}
          >
            {actions.withdraw.userIds.length === 1
              ? 'Withdraw invitation'
              : `Withdraw ${actions.withdraw.userIds.length} invitations`}
          </Button>
        ) : null}
        {selected.size > 0 ? (
          <Button
            size="sm"
            variant="subtle"
            onClick={() => {
              setSelected(new Set());
              focusBulkBar();
            }}
          >
            Clear selection
          </Button>
        ) : null}
      </Group>

      {status === 'loading' || status === 'idle' ? (
        <Group justify="center" py="xl">
          <Loader role="status" aria-label="Loading employees" />
        </Group>
      ) : status === 'failed' && rows.length === 0 ? (
        <Alert color="red" title={employeeMessages.loadFailed}>
          <Button variant="light" color="red" size="xs" onClick={() => void load()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <>
          <EmployeesTable
            rows={current.rows}
            shownCount={shown.length}
            teamEmpty={rows.length === 0}
            sort={sort}
            onSort={(key) => setSort(nextSort(sort, key))}
            selected={selected}
            onToggle={toggle}
            allShownSelected={allShownSelected}
            someShownSelected={someShownSelected}
            onToggleAll={toggleAll}
            onAction={setDialog}
            compact={phone}
          />
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="gray.7" aria-live="polite">
              {shown.length === 0 ? 'No employees shown' : `Showing ${first}-${last} of ${shown.length}`}
            </Text>
            {current.pages > 1 ? (
              <Pagination
                total={current.pages}
                value={current.page}
                onChange={setPage}
                siblings={1}
                getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
                getControlProps={(control) => ({
                  'aria-label': {
                    first: 'First page',
                    last: 'Last page',
                    next: 'Next page',
                    previous: 'Previous page',
                  }[control],
                })}
              />
            ) : null}
          </Group>
        </>
      )}

      <ScheduledStarts />

      {dialog?.kind === 'delete' ? (
        <DeleteDialog people={dialog.people} onClose={() => setDialog(null)} onDone={bulkDone} />
      ) : null}
      {dialog?.kind === 'withdraw' ? (
        <WithdrawInvitationsDialog people={dialog.people} onClose={() => setDialog(null)} onDone={bulkDone} />
      ) : null}
      {dialog?.kind === 'resend' ? (
        <ResendInvitationDialog person={dialog.person} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {dialog?.kind === 'reallocate' ? (
        <ReallocateDialog
          from={dialog.from}
          candidates={sortRows(reallocationReceivers(rows), { key: 'name', direction: 'asc' })}
          onClose={() => setDialog(null)}
          onDone={bulkDone}
        />
      ) : null}
      {dialog?.kind === 'redeem' ? (
        <RedeemDialog from={dialog.from} onClose={() => setDialog(null)} onDone={bulkDone} />
      ) : null}
      {dialog?.kind === 'activate' ? (
        <ActivateCardsDialog
          people={dialog.people}
          receiptFrozen={dialog.receiptFrozen}
          onClose={() => setDialog(null)}
          onDone={bulkDone}
        />
      ) : null}
      {dialog?.kind === 'deposit' ? (
        <DepositDialog person={dialog.person} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {dialog?.kind === 'card' ? (
        <CardStatusDialog
          person={dialog.person}
          status={dialog.status}
          onClose={() => setDialog(null)}
          onDone={done}
        />
      ) : null}
    </Stack>
  );
}
