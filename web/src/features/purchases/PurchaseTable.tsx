/**
 * The purchase table (spec §2 "Purchase history"): employees see Title, Date,
 * Price, Vendor, Status; managers Name, Title, Date, Price, Vendor, Receipts.
 * A purchase without a receipt says 'Awaiting Receipt' and, for its employee
 * only, offers an upload; a receipt offers a view. Managers only view. A
 * declined purchase says 'Declined' and why, and asks for no receipt. On a
 * phone (compact) the name, date and vendor sit in the first column, so the
 * table fits 375 px and the status wraps instead of being cut off.
 * A manager sets each purchase's skill area in its row (issue 26); an
 * inferred one says "Suggested" until someone chooses.
 */
import { Button, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import type { SkillArea } from '@shared/schemas/insights';
import type { PurchaseRow } from '@shared/schemas/purchases';
import {
  formatDate,
  NOT_CHARGED,
  RECEIPT_AFTER_SETTLEMENT,
  RECEIPT_SEEN,
  receiptLabel,
  STATUS_LABELS,
} from './purchaseText';
import { SUGGESTED, skillOf, skillOptions } from './skillText';

/**
 * Titles, vendors and names are typed or pasted by people (a course's URL is
 * one long word): they may break anywhere, so they never widen their column
 * and push Price, Status and View off a phone's screen.
 */
const FREE_TEXT = { overflowWrap: 'anywhere' } as const;

/**
 * The phone's first column holds title, date and vendor. Free text alone lets
 * the table shrink it to a letter's width beside a long status ("Awaiting
 * Receipt (overdue since ...)"), breaking dates as "11/25/202 / 6": it keeps
 * room for a whole date, and the status wraps instead.
 */
const COMPACT_FIRST = { ...FREE_TEXT, minWidth: '7.5em' } as const;

/**
 * A vendor is the merchant name the card network sends, a short field (about
 * 25 characters in the networks' messages): its words stay whole ('Amazon', never 'Amazo / n') and the title
 * beside it, free to break anywhere, gives up the width instead.
 */
const VENDOR = { overflowWrap: 'break-word' } as const;

/** Buttons keep their word whole when a long title squeezes the row (the status beside them wraps instead). */
const WHOLE = { flexShrink: 0 } as const;

export interface PurchaseActions {
  /** Offered to the purchase's employee while the receipt can still be (re)placed. */
  onUpload?: (row: PurchaseRow) => void;
  onView: (row: PurchaseRow) => void;
  /** The manager chose a purchase's skill area. */
  onSkill?: (row: PurchaseRow, skillArea: SkillArea) => void;
}

/** A settled purchase's skill area, as a small select; declined and pending rows have none to set. */
function SkillCell({ row, onSkill }: { row: PurchaseRow; onSkill: NonNullable<PurchaseActions['onSkill']> }) {
  if (row.status === 'declined' || row.status === 'pending') return null;
  const skill = skillOf(row);
  return (
    <Stack gap={2}>
      <NativeSelect
        size="xs"
        aria-label={`Skill area of ${row.title ?? row.vendor}`}
        data={skillOptions}
        value={skill.skillArea}
        onChange={(event) => onSkill(row, event.currentTarget.value as SkillArea)}
        style={{ minWidth: '11em' }}
      />
      {skill.skillSource === 'inferred' ? (
        <Text size="xs" c="gray.7">
          {SUGGESTED}
        </Text>
      ) : null}
    </Stack>
  );
}

function DeclinedLabel() {
  return (
    <Text size="sm" fw={700} c="red.9">
      {STATUS_LABELS.declined}
    </Text>
  );
}

function ReceiptCell({
  row,
  manager,
  actions,
  compact,
}: {
  row: PurchaseRow;
  manager: boolean;
  actions: PurchaseActions;
  compact: boolean;
}) {
  if (row.status === 'declined') {
    // Nothing was bought: no receipt to ask for, only why the card refused it.
    return (
      <Stack gap={0}>
        {manager ? <DeclinedLabel /> : null}
        <Text size="sm" c="gray.8" style={{ overflowWrap: 'anywhere' }} data-testid="decline-reason">
          {row.declineReason}
        </Text>
      </Stack>
    );
  }
  if (row.status === 'pending') {
    // Not yet a purchase: its receipt can be sent once the merchant settles it.
    return (
      <Text size="sm" c="gray.8">
        {manager ? STATUS_LABELS.pending : RECEIPT_AFTER_SETTLEMENT}
      </Text>
    );
  }
  const received = row.receipt.state === 'received';
  const subject = row.title ?? row.vendor;
  return (
    <Group gap="xs" wrap={compact ? 'wrap' : 'nowrap'}>
      {received ? (
        <Button
          size="compact-sm"
          variant="light"
          style={WHOLE}
          onClick={() => actions.onView(row)}
          aria-label={`View receipt for ${subject}`}
        >
          View
        </Button>
      ) : (
        // May break anywhere as a last resort: a status is never cut off, however narrow the cell.
        <Text
          size="sm"
          c={row.receipt.state === 'overdue' ? 'red.9' : undefined}
          fw={700}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="receipt-status"
        >
          {receiptLabel(row)}
        </Text>
      )}
      {!manager && actions.onUpload && !row.receipt.seen ? (
        <Button
          size="compact-sm"
          variant={received ? 'subtle' : 'filled'}
          style={WHOLE}
          onClick={() => actions.onUpload?.(row)}
          aria-label={`${received ? 'Replace' : 'Upload'} receipt for ${subject}`}
        >
          {received ? 'Replace' : 'Upload'}
        </Button>
      ) : null}
      {!manager && actions.onUpload && received && row.receipt.seen ? (
        // Said where "Replace" was, so its going is not a mystery.
        <Text size="sm" c="gray.8" data-testid="receipt-seen">
          {RECEIPT_SEEN}
        </Text>
      ) : null}
    </Group>
  );
}

export function PurchaseTable({
  rows,
  manager,
  actions,
  label,
  compact = false,
}: {
  rows: PurchaseRow[];
  manager: boolean;
  actions: PurchaseActions;
  label: string;
  /** Phones: date and vendor under the title, so the status and its actions stay on screen. */
  compact?: boolean;
}) {
  return (
    <Table striped highlightOnHover verticalSpacing="xs" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          {manager && !compact ? <Table.Th scope="col">Name</Table.Th> : null}
          <Table.Th scope="col" aria-sort={compact ? 'descending' : undefined}>
            {compact ? (manager ? 'Name, title, date, vendor' : 'Title, date, vendor') : 'Title'}
          </Table.Th>
          {compact ? null : (
            <Table.Th scope="col" aria-sort="descending">
              Date
            </Table.Th>
          )}
          <Table.Th scope="col" ta="right">
            Price
          </Table.Th>
          {compact ? null : <Table.Th scope="col">Vendor</Table.Th>}
          {actions.onSkill && !compact ? <Table.Th scope="col">Skill area</Table.Th> : null}
          <Table.Th scope="col">{manager ? 'Receipts' : 'Status'}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.purchaseId}>
            {manager && !compact ? <Table.Td style={FREE_TEXT}>{row.employeeName}</Table.Td> : null}
            <Table.Td style={compact ? COMPACT_FIRST : FREE_TEXT}>
              {manager && compact ? (
                <Text size="sm" fw={700}>
                  {row.employeeName}
                </Text>
              ) : null}
              {row.title ?? (
                <Text span inherit c="gray.7">
                  Untitled
                </Text>
              )}
              {compact ? (
                <Text size="sm" c="gray.7">
                  {/* The vendor may be one long word (a URL): it breaks anywhere, the date never. */}
                  <span style={{ whiteSpace: 'nowrap' }}>{formatDate(row.date)}</span> · {row.vendor}
                </Text>
              ) : null}
              {compact && actions.onSkill ? <SkillCell row={row} onSkill={actions.onSkill} /> : null}
            </Table.Td>
            {compact ? null : <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(row.date)}</Table.Td>}
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {formatCents(row.amountCents)}
              {row.status === 'declined' ? (
                <Text size="sm" c="gray.7">
                  {NOT_CHARGED}
                </Text>
              ) : null}
            </Table.Td>
            {compact ? null : <Table.Td style={VENDOR}>{row.vendor}</Table.Td>}
            {actions.onSkill && !compact ? (
              <Table.Td>
                <SkillCell row={row} onSkill={actions.onSkill} />
              </Table.Td>
            ) : null}
            <Table.Td>
              <Group gap="xs" wrap={compact ? 'wrap' : 'nowrap'}>
                {manager ? null : row.status === 'declined' ? (
                  <DeclinedLabel />
                ) : row.status !== 'settled' ? (
                  // Plain bold text, not a tinted badge: it keeps its contrast under a dialog's overlay too.
                  <Text size="sm" fw={700} c="gray.8">
                    {STATUS_LABELS[row.status]}
                  </Text>
                ) : null}
                <ReceiptCell row={row} manager={manager} actions={actions} compact={compact} />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
