/**
 * The Employees screen's table: one row per person with selection, state,
 * budget and the row's actions. Wherever the full table does not fit (a phone,
 * a window at 200 % zoom, a narrow window beside the side menu) it is compact:
 * the e-mail, status and card state sit under the name and the budget under
 * the remaining budget, so the checkbox, who, their state, their money and the
 * actions all stay on screen without sideways scrolling (WCAG 1.4.10, as
 * PurchaseTable does on phones).
 */
import { ActionIcon, Checkbox, Menu, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { formatCents } from '@shared/domain/money';
import { Link } from 'react-router-dom';
import { Email } from '../../components/Email';
import { formatDate } from '../../stores/teamCalendar';
import { DormancyNote } from '../dormancy/DormancyNote';
import { type EmployeeRow, fullName } from './employeesStore';
import type { Sort, SortKey } from './employeeTable';
import { cardStateText, receiptsOverdueText, statusLabel } from './employeeText';

/** What a row's menu asks the page to open. */
export type RowAction =
  | { kind: 'deposit'; person: EmployeeRow }
  | { kind: 'card'; person: EmployeeRow; status: 'active' | 'inactive' }
  | { kind: 'withdraw'; people: EmployeeRow[] }
  | { kind: 'resend'; person: EmployeeRow };

/** The room the full table's eight columns need; with less, the compact layout. */
export const FULL_TABLE_MIN_WIDTH = 760;

const isMember = (row: EmployeeRow) => row.status === 'active' || row.status === 'paused';
const hasCard = (row: EmployeeRow) => row.cardStatus === 'active' || row.cardStatus === 'inactive';

function SortHeader(props: {
  label: string;
  column: SortKey;
  /** null: rows are in search-relevance order, no column is sorted. */
  sort: Sort | null;
  onSort: (key: SortKey) => void;
  numeric?: boolean;
}) {
  const { label, column, sort, onSort, numeric } = props;
  const active = sort?.key === column;
  const direction = sort?.direction === 'asc' ? 'ascending' : 'descending';
  return (
    <Table.Th aria-sort={active ? direction : undefined} ta={numeric ? 'right' : undefined}>
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

/** How a row is named to a screen reader: an invited person by the address invited ('N/A' is the spec's table text). */
const rowName = (row: EmployeeRow) => (row.status === 'invited' ? `${row.email} (invited)` : fullName(row));

function RowActions(props: { row: EmployeeRow; open: (action: RowAction) => void }) {
  const { row, open } = props;
  const invited = row.status === 'invited';
  if (!isMember(row) && !invited) return null;
  const name = rowName(row);
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
      {invited ? (
        <Menu.Dropdown>
          <Menu.Item onClick={() => open({ kind: 'resend', person: row })}>Resend invitation</Menu.Item>
          {/* The same dialog as the bulk action: asks first, names the address. */}
          <Menu.Item color="red.8" onClick={() => open({ kind: 'withdraw', people: [row] })}>
            Withdraw invitation
          </Menu.Item>
        </Menu.Dropdown>
      ) : (
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
                open({
                  kind: 'card',
                  person: row,
                  status: row.cardStatus === 'active' ? 'inactive' : 'active',
                })
              }
            >
              {row.cardStatus === 'active' ? 'Freeze card' : 'Activate card'}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      )}
    </Menu>
  );
}

/** Overdue and outstanding receipts under the card's state: overdue ones are what freeze a card. */
function ReceiptCounts({ row }: { row: EmployeeRow }) {
  const outstanding = row.receiptsOutstanding - row.receiptsOverdue;
  return (
    <>
      {row.receiptsOverdue > 0 ? (
        // In the red the purchase table uses for an overdue receipt.
        <Text size="xs" c="red.9" fw={700} data-receipts-overdue={row.receiptsOverdue}>
          {receiptsOverdueText(row.receiptsOverdue, row)}
        </Text>
      ) : null}
      {outstanding > 0 ? (
        <Text size="xs" c="gray.7" data-receipts-outstanding={outstanding}>
          {outstanding === 1 ? '1 receipt outstanding' : `${outstanding} receipts outstanding`}
        </Text>
      ) : null}
    </>
  );
}

/** A last day a manager set (issue 28): removed by the daily run on it; a removed person's is when they left. */
function LastDayNote({ row }: { row: EmployeeRow }) {
  if (!row.lastDay) return null;
  return (
    <Text size="xs" c="gray.7" data-last-day={row.lastDay}>
      {row.status === 'deleted' ? 'Left' : 'Last day'} {formatDate(row.lastDay)}
    </Text>
  );
}

function NextBudget({ row }: { row: EmployeeRow }) {
  if (row.nextBudgetCents === row.budgetCents || row.status === 'deleted') return null;
  return (
    <Text size="xs" c="gray.7">
      next month {formatCents(row.nextBudgetCents)}
    </Text>
  );
}

export interface EmployeesTableProps {
  /** The page's rows. */
  rows: EmployeeRow[];
  /** How many the search shows (all pages), for select-all's name. */
  shownCount: number;
  /** Whether the team has anyone at all (the empty row's words). */
  teamEmpty: boolean;
  sort: Sort | null;
  onSort: (key: SortKey) => void;
  selected: ReadonlySet<string>;
  onToggle: (userId: string, on: boolean) => void;
  allShownSelected: boolean;
  someShownSelected: boolean;
  onToggleAll: (on: boolean) => void;
  onAction: (action: RowAction) => void;
  /** A phone (≤ 36em): the compact layout's guess until the table's room is measured. */
  compact: boolean;
}

export function EmployeesTable(props: EmployeesTableProps) {
  const { rows, sort, onSort, selected } = props;
  // The width the table has, not the window's: from 768 px the side menu takes 240 of them.
  const { ref, width } = useElementSize();
  const compact = width > 0 ? width < FULL_TABLE_MIN_WIDTH : props.compact;
  const columns = compact ? 4 : 8;
  return (
    // Positioned, so the visually hidden header text scrolls inside it instead of widening the page.
    <Table.ScrollContainer
      ref={ref}
      minWidth={compact ? 0 : FULL_TABLE_MIN_WIDTH}
      type="native"
      pos="relative"
    >
      <Table
        aria-labelledby="employees-title"
        highlightOnHover
        verticalSpacing="xs"
        horizontalSpacing={compact ? 'xs' : undefined}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={compact ? 36 : 40}>
              <Checkbox
                aria-label={`Select all ${props.shownCount} employees shown`}
                checked={props.allShownSelected}
                indeterminate={props.someShownSelected && !props.allShownSelected}
                disabled={props.shownCount === 0}
                onChange={(event) => props.onToggleAll(event.currentTarget.checked)}
              />
            </Table.Th>
            <SortHeader label="Name" column="name" sort={sort} onSort={onSort} />
            {compact ? null : (
              <>
                <SortHeader label="Email" column="email" sort={sort} onSort={onSort} />
                <SortHeader label="Status" column="status" sort={sort} onSort={onSort} />
                <SortHeader label="Card status" column="cardStatus" sort={sort} onSort={onSort} />
                <SortHeader label="Budget" column="budget" sort={sort} numeric onSort={onSort} />
              </>
            )}
            <SortHeader
              label={compact ? 'Remaining' : 'Remaining budget'}
              column="remaining"
              sort={sort}
              numeric
              onSort={onSort}
            />
            <Table.Th w={compact ? 36 : 56}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const name = fullName(row);
            const isSelected = selected.has(row.userId);
            // On a phone the person's state shares the name's cell, so it carries the state's data attributes too.
            const state = {
              'data-status': row.status,
              'data-dormancy': row.dormancy.stage,
              'data-card-status': row.cardStatus,
            };
            return (
              <Table.Tr
                key={row.userId}
                data-user-id={row.userId}
                bg={isSelected ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td px={compact ? 4 : undefined}>
                  <Checkbox
                    aria-label={`Select ${rowName(row)}`}
                    checked={isSelected}
                    onChange={(event) => props.onToggle(row.userId, event.currentTarget.checked)}
                  />
                </Table.Td>
                {/* A long unbroken name wraps anywhere, so the budget columns stay in view. */}
                <Table.Td style={{ overflowWrap: 'anywhere' }} data-name {...(compact ? state : {})}>
                  <Text span fw={600} fz="sm">
                    {name}
                  </Text>
                  {compact ? (
                    <>
                      <Text size="xs" c="gray.7" data-email>
                        <Email address={row.email} />
                      </Text>
                      <Text size="sm" mt={4}>
                        {statusLabel[row.status]}
                      </Text>
                      <LastDayNote row={row} />
                      <Text size="sm">
                        <Text span inherit c="gray.7">
                          Card{' '}
                        </Text>
                        {cardStateText(row)}
                      </Text>
                      <DormancyNote dormancy={row.dormancy} />
                      <ReceiptCounts row={row} />
                    </>
                  ) : null}
                </Table.Td>
                {compact ? null : (
                  <>
                    <Table.Td data-email>
                      <Email address={row.email} />
                    </Table.Td>
                    <Table.Td data-status={row.status} data-dormancy={row.dormancy.stage}>
                      {statusLabel[row.status]}
                      <LastDayNote row={row} />
                      <DormancyNote dormancy={row.dormancy} />
                    </Table.Td>
                    <Table.Td data-card-status={row.cardStatus}>
                      {cardStateText(row)}
                      <ReceiptCounts row={row} />
                    </Table.Td>
                    <Table.Td ta="right">
                      {formatCents(row.budgetCents)}
                      <NextBudget row={row} />
                    </Table.Td>
                  </>
                )}
                <Table.Td ta="right" data-cents={row.remainingBudgetCents}>
                  <Text span inherit style={{ whiteSpace: 'nowrap' }}>
                    {formatCents(row.remainingBudgetCents)}
                  </Text>
                  {compact ? (
                    <>
                      <Text size="xs" c="gray.7">
                        budget {formatCents(row.budgetCents)}
                      </Text>
                      <NextBudget row={row} />
                    </>
                  ) : null}
                </Table.Td>
                <Table.Td px={compact ? 0 : undefined}>
                  <RowActions row={row} open={props.onAction} />
                </Table.Td>
              </Table.Tr>
            );
          })}
          {props.shownCount === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns}>
                <Text c="gray.7" ta="center" py="md">
                  {props.teamEmpty
                    ? 'No employees yet. Invite your team to get started.'
                    : 'No one matches your search.'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
