/**
 * The Activity Log's table. On a wide screen one column per fact (When, Who,
 * What, To whom, Amount, Details), scrolling sideways below 760 px. On a phone
 * (compact) each entry is one cell of lines - when and amount, then who →
 * what → to whom, then the details - so at 375 px nothing is off screen
 * (as EmployeesTable and PurchaseTable do).
 */
import { Group, Table, Text } from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import {
  auditAmountCents,
  auditDetails,
  describeAction,
  SYSTEM_ACTOR,
  SYSTEM_ACTOR_NAME,
} from '@shared/domain/auditLog';
import { formatCents } from '@shared/domain/money';
import { ScrollableTable } from '../../components/ScrollableTable';
import { formatDateTime } from '../../stores/teamCalendar';

export type AuditEvent = RouteOutput<'getTeamAudit'>['events'][number];

/** A person in the log, in the table's own type size (`inherit`: Text's default size is larger). */
function Who({ id, name }: { id?: string; name?: string }) {
  if (!id)
    return (
      <Text span inherit c="gray.7">
        -
      </Text>
    );
  // The daily jobs, the card network, a lifted freeze: the product itself, not a person.
  if (id === SYSTEM_ACTOR)
    return (
      <Text span inherit c="gray.7">
        {SYSTEM_ACTOR_NAME}
      </Text>
    );
  return (
    <Text span inherit data-person={id}>
      {name ?? 'Former member'}
    </Text>
  );
}

/** The arrow between who, what and to whom: read aloud, the names and the action already make the sentence. */
function Arrow() {
  return (
    <Text span inherit c="gray.7" aria-hidden="true">
      {' → '}
    </Text>
  );
}

function WideRow({ event }: { event: AuditEvent }) {
  const amount = auditAmountCents(event);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at)}</Table.Td>
      <Table.Td>
        <Who id={event.actorId} name={event.actorName} />
      </Table.Td>
      <Table.Td>{describeAction(event.action)}</Table.Td>
      <Table.Td>
        <Who id={event.targetId} name={event.targetName} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {amount === undefined ? '' : formatCents(amount)}
      </Table.Td>
      <Table.Td>{auditDetails(event) ?? ''}</Table.Td>
    </Table.Tr>
  );
}

function CompactRow({ event }: { event: AuditEvent }) {
  const amount = auditAmountCents(event);
  const details = auditDetails(event);
  return (
    // A long unbroken name or detail wraps anywhere rather than widen the page.
    <Table.Tr data-event={event.eventId}>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
          <Text size="xs" c="gray.7" data-when>
            {formatDateTime(event.at)}
          </Text>
          {amount === undefined ? null : (
            <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap' }} data-amount>
              {formatCents(amount)}
            </Text>
          )}
        </Group>
        <Text size="sm" data-entry>
          <Who id={event.actorId} name={event.actorName} />
          <Arrow />
          <Text span inherit fw={600}>
            {describeAction(event.action)}
          </Text>
          {event.targetId ? (
            <>
              <Arrow />
              <Who id={event.targetId} name={event.targetName} />
            </>
          ) : null}
        </Text>
        {details ? (
          <Text size="xs" c="gray.7" data-details>
            {details}
          </Text>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

export function ActivityTable({ events, compact }: { events: AuditEvent[]; compact: boolean }) {
  if (compact)
    return (
      <Table striped verticalSpacing="xs" horizontalSpacing="xs" aria-label="Activity log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When, amount, who, what, to whom, details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <CompactRow key={event.eventId} event={event} />
          ))}
        </Table.Tbody>
      </Table>
    );
  return (
    <ScrollableTable label="Activity log, scrolls sideways" minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Activity log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Who</Table.Th>
            <Table.Th scope="col">What</Table.Th>
            <Table.Th scope="col">To whom</Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
            <Table.Th scope="col">Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <WideRow key={event.eventId} event={event} />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}
