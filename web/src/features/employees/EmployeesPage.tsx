/**
 * /dashboard/employees (spec §2 "Employees screen", §4 bulk actions, §8 texts):
 * the team's people with status, card status, budget and remaining budget;
 * fuzzy search over name, e-mail and status; every column sortable (remaining
 * budget, highest first, by default); selection with select-all over what the
 * search shows; 25 rows a page so a large team stays quick. Bulk actions follow
 * bulkActions.ts; per person: edit, extra deposit, freeze or activate. After
 * any action the list is reloaded in place.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Menu,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatCents } from '../../../../shared/src/domain/money';
import { call, errorMessage } from '../../api/client';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { employeeMessages } from '../../content/consoleMessages';
import { notify } from '../../stores/notifications';
import { DormancyNote } from '../dormancy/DormancyNote';
import { bulkActions, reallocationReceivers } from './bulkActions';
import {
  CardStatusDialog,
  DeleteDialog,
  DepositDialog,
  ReallocateDialog,
  RedeemDialog,
} from './EmployeeDialogs';
import { createSearch, SEARCH_MAX_LENGTH } from './employeeSearch';
import { type EmployeeRow, fullName, useEmployees } from './employeesStore';
import {
  DEFAULT_SORT,
  nextSort,
  PAGE_SIZE,
  pageOf,
  type Sort,
  type SortKey,
  sortRows,
} from './employeeTable';
import { cardStateText, receiptsOverdueText, statusLabel } from './employeeText';

type Dialog =
  | { kind: 'delete'; people: EmployeeRow[] }
  | { kind: 'reallocate'; from: EmployeeRow[] }
  | { kind: 'redeem'; from: EmployeeRow[] }
  | { kind: 'deposit'; person: EmployeeRow }
  | { kind: 'card'; person: EmployeeRow; status: 'active' | 'inactive' };

const isMember = (row: EmployeeRow) => row.status === 'active' || row.status === 'paused';
const hasCard = (row: EmployeeRow) => row.cardStatus === 'active' || row.cardStatus === 'inactive';

function SortHeader(props: {
  label: string;
  column: SortKey;
  /** null: rows are in search-relevance order, no column is sorted. */
  sort: Sort | null;
  onSort: (key: SortKey) => void;
  numeric?: boolean;
  visibleFrom?: 'sm';
}) {
  const { label, column, sort, onSort, numeric, visibleFrom } = props;
  const active = sort?.key === column;
  const direction = sort?.direction === 'asc' ? 'ascending' : 'descending';
  return (
    <Table.Th
      aria-sort={active ? direction : undefined}
      ta={numeric ? 'right' : undefined}
      visibleFrom={visibleFrom}
    >
      <UnstyledButton
        onClick={() => onSort(column)}
        fw={700}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
      >
        {label}
        <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
          {active ? (
            <path
              d={sort?.direction === 'asc' ? 'M1 7l4-4 4 4' : 'M1 3l4 4 4-4'}
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
            />
          ) : (
            <path
              d="M2 4l3-3 3 3M2 6l3 3 3-3"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.2"
              opacity="0.6"
            />
          )}
        </svg>
      </UnstyledButton>
    </Table.Th>
  );
}

function RowActions(props: { row: EmployeeRow; open: (dialog: Dialog) => void }) {
  const { row, open } = props;
  if (!isMember(row)) return null;
  const name = fullName(row);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="dark" aria-label={`Actions for ${name}`}>
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <circle cx="3" cy="8" r="1.5" fill="currentColor" />
            <circle cx="8" cy="8" r="1.5" fill="currentColor" />
            <circle cx="13" cy="8" r="1.5" fill="currentColor" />
          </svg>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={`/editProfile/${encodeURIComponent(row.userId)}`}>
          Edit budget and profile
        </Menu.Item>
        {hasCard(row) ? (
          <Menu.Item onClick={() => open({ kind: 'deposit', person: row })}>Extra deposit</Menu.Item>
        ) : null}
        {hasCard(row) ? (
          <Menu.Item
            color={row.cardStatus === 'active' ? 'red.8' : undefined}
            onClick={() =>
              open({ kind: 'card', person: row, status: row.cardStatus === 'active' ? 'inactive' : 'active' })
            }
          >
            {row.cardStatus === 'active' ? 'Freeze card' : 'Activate card'}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

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
    done();
  }

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
      await load();
    } catch (error) {
      notify({ kind: 'error', message: employeeMessages.actionFailed(errorMessage(error)) });
    } finally {
      setWorking(null);
    }
  }

  async function switchCards() {
    if (!actions.card) return;
    setWorking('card');
    try {
      await call('setCardStatus', actions.card);
      notify({ kind: 'success', message: employeeMessages.cardStatusChanged });
      setSelected(new Set());
      await load();
    } catch (error) {
      notify({ kind: 'error', message: employeeMessages.cardStatusFailed(errorMessage(error)) });
    } finally {
      setWorking(null);
    }
  }

  const byIds = (ids: string[]) => rows.filter((r) => ids.includes(r.userId));
  const first = (current.page - 1) * PAGE_SIZE + 1;
  const last = first + current.rows.length - 1;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1} id="employees-title">
            Employees
          </Title>
          <Text c="gray.7">Budgets, cards and the state of everyone on your team.</Text>
        </div>
        <Button component={Link} to="/inviteMembers">
          Add / Invite
        </Button>
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

      <Group gap="sm" aria-label="Bulk actions" role="group" wrap="wrap" mih={36}>
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
        {selected.size > 0 ? (
          <Button size="sm" variant="subtle" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        ) : null}
      </Group>

      {status === 'loading' || status === 'idle' ? (
        <Group justify="center" py="xl">
          <Loader aria-label="Loading employees" />
        </Group>
      ) : status === 'failed' && rows.length === 0 ? (
        <Alert color="red" title={employeeMessages.loadFailed}>
          <Button variant="light" color="red" size="xs" onClick={() => void load()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <>
          {/* Positioned, so the visually hidden header text scrolls inside it instead of widening the page. */}
          <Table.ScrollContainer minWidth={760} type="native" pos="relative">
            <Table aria-labelledby="employees-title" highlightOnHover verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={`Select all ${shown.length} employees shown`}
                      checked={allShownSelected}
                      indeterminate={someShownSelected && !allShownSelected}
                      disabled={shown.length === 0}
                      onChange={(event) => toggleAll(event.currentTarget.checked)}
                    />
                  </Table.Th>
                  <SortHeader
                    label="Name"
                    column="name"
                    sort={sort}
                    onSort={(k) => setSort(nextSort(sort, k))}
                  />
                  <SortHeader
                    label="Email"
                    column="email"
                    sort={sort}
                    visibleFrom="sm"
                    onSort={(k) => setSort(nextSort(sort, k))}
                  />
                  <SortHeader
                    label="Status"
                    column="status"
                    sort={sort}
                    onSort={(k) => setSort(nextSort(sort, k))}
                  />
                  <SortHeader
                    label="Card status"
                    column="cardStatus"
                    sort={sort}
                    onSort={(k) => setSort(nextSort(sort, k))}
                  />
                  <SortHeader
                    label="Budget"
                    column="budget"
                    sort={sort}
                    numeric
                    onSort={(k) => setSort(nextSort(sort, k))}
                  />
                  <SortHeader
                    label="Remaining budget"
                    column="remaining"
                    sort={sort}
                    numeric
                    onSort={(k) => setSort(nextSort(sort, k))}
                  />
                  <Table.Th w={56}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {current.rows.map((row) => {
                  const name = fullName(row);
                  const isSelected = selected.has(row.userId);
                  return (
                    <Table.Tr
                      key={row.userId}
                      data-user-id={row.userId}
                      bg={isSelected ? 'var(--mantine-color-blue-light)' : undefined}
                    >
                      <Table.Td>
                        <Checkbox
                          aria-label={`Select ${name}`}
                          checked={isSelected}
                          onChange={(event) => toggle(row.userId, event.currentTarget.checked)}
                        />
                      </Table.Td>
                      {/* A long unbroken name or address wraps anywhere, so the budget columns stay in view. */}
                      <Table.Td fw={600} style={{ overflowWrap: 'anywhere' }} data-name>
                        {name}
                        {/* On a phone the e-mail sits under the name, so the table stays narrower. */}
                        <Text size="xs" c="gray.7" hiddenFrom="sm">
                          {row.email}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                        {row.email}
                      </Table.Td>
                      <Table.Td data-status={row.status} data-dormancy={row.dormancy.stage}>
                        {statusLabel[row.status]}
                        <DormancyNote dormancy={row.dormancy} />
                      </Table.Td>
                      <Table.Td data-card-status={row.cardStatus}>
                        {cardStateText(row)}
                        {row.receiptsOverdue > 0 ? (
                          // Overdue receipts are what freeze a card: say so, in the red the purchase table uses.
                          <Text size="xs" c="red.9" fw={700} data-receipts-overdue={row.receiptsOverdue}>
                            {receiptsOverdueText(
                              row.receiptsOverdue,
                              row.cardStatus === 'inactive' && !row.freezeReasons.includes('missingReceipt'),
                            )}
                          </Text>
                        ) : null}
                        {row.receiptsOutstanding > row.receiptsOverdue ? (
                          <Text
                            size="xs"
                            c="gray.7"
                            data-receipts-outstanding={row.receiptsOutstanding - row.receiptsOverdue}
                          >
                            {row.receiptsOutstanding - row.receiptsOverdue === 1
                              ? '1 receipt outstanding'
                              : `${row.receiptsOutstanding - row.receiptsOverdue} receipts outstanding`}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td ta="right">
                        {formatCents(row.budgetCents)}
                        {row.nextBudgetCents !== row.budgetCents && row.status !== 'deleted' ? (
                          <Text size="xs" c="gray.7">
                            next month {formatCents(row.nextBudgetCents)}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td ta="right" data-cents={row.remainingBudgetCents}>
                        {formatCents(row.remainingBudgetCents)}
                      </Table.Td>
                      <Table.Td>
                        <RowActions row={row} open={setDialog} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
                {shown.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={8}>
                      <Text c="gray.7" ta="center" py="md">
                        {rows.length === 0
                          ? 'No employees yet. Invite your team to get started.'
                          : 'No one matches your search.'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
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

      {dialog?.kind === 'delete' ? (
        <DeleteDialog people={dialog.people} onClose={() => setDialog(null)} onDone={bulkDone} />
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
