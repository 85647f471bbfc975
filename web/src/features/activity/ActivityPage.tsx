/**
 * Activity (manager): the team's audit log, newest first - who did what, when,
 * to whom, and the amounts - filterable by person and kind, a page at a time
 * (GET /team/audit with an opaque cursor). The words come from
 * shared/src/domain/auditLog.ts.
 */
import { Alert, Button, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { RouteOutput } from '../../../../shared/src/api/routes';
import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  type AuditKind,
  auditAmountCents,
  auditDetails,
  describeAction,
  SYSTEM_ACTOR,
  SYSTEM_ACTOR_NAME,
} from '../../../../shared/src/domain/auditLog';
import { formatCents } from '../../../../shared/src/domain/money';
import { call, errorMessage } from '../../api/client';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { PurchasesCsvExport } from './PurchasesCsvExport';

type AuditEvent = RouteOutput<'getTeamAudit'>['events'][number];

const PAGE_SIZE = 50;

const dateTime = new Intl.DateTimeFormat('en-US', {
  month: '2-digit',
  day: '2-digit',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

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

export function ActivityPage() {
  useDocumentTitle('Activity Log');
  const [person, setPerson] = useState<string | null>(null);
  const [kind, setKind] = useState<AuditKind | null>(null);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [people, setPeople] = useState<{ value: string; label: string }[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    call('listEmployees', {}, { signal: abort.signal })
      .then(({ employees }) =>
        setPeople(
          employees
            .filter((e) => e.status !== 'invited')
            .map((e) => ({ value: e.userId, label: `${e.firstName} ${e.lastName}` }))
            .sort((a, b) => a.label.localeCompare(b.label)),
        ),
      )
      .catch(() => undefined); // the filter then lists nobody; the log itself still loads
    return () => abort.abort();
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    setStatus('loading');
    call(
      'getTeamAudit',
      { limit: PAGE_SIZE, ...(person ? { person } : {}), ...(kind ? { kind } : {}) },
      { signal: abort.signal },
    )
      .then((page) => {
        setEvents(page.events);
        setCursor(page.nextCursor);
        setStatus('ready');
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        setError(errorMessage(e));
        setStatus('error');
      });
    return () => abort.abort();
  }, [person, kind]);

  async function loadMore() {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await call('getTeamAudit', {
        limit: PAGE_SIZE,
        cursor,
        ...(person ? { person } : {}),
        ...(kind ? { kind } : {}),
      });
      setEvents((current) => [...current, ...page.events]);
      setCursor(page.nextCursor);
    } catch (e) {
      setError(errorMessage(e));
      setStatus('error');
    } finally {
      setLoadingMore(false);
    }
  }

  const rows = useMemo(
    () =>
      events.map((event) => {
        const amount = auditAmountCents(event);
        return (
          <Table.Tr key={event.eventId}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime.format(new Date(event.at))}</Table.Td>
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
      }),
    [events],
  );

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Activity Log</Title>
        <Text c="gray.7">Every action on your team and every money movement, newest first.</Text>
      </div>
      <PurchasesCsvExport />
      <Group gap="sm" align="flex-end">
        <Select
          label="Person"
          placeholder="Everyone"
          data={people}
          value={person}
          onChange={setPerson}
          clearable
          searchable
          w={240}
        />
        <Select
          label="Kind"
          placeholder="All kinds"
          data={AUDIT_KINDS.map((k) => ({ value: k, label: AUDIT_KIND_LABELS[k] }))}
          value={kind}
          onChange={(value) => setKind(value as AuditKind | null)}
          clearable
          w={180}
        />
      </Group>
      {status === 'error' ? (
        <Alert color="red" title="Could not load the activity log">
          {error}
        </Alert>
      ) : null}
      {status === 'loading' ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text>Loading activity…</Text>
        </Group>
      ) : null}
      {status === 'ready' && events.length === 0 ? <Text>No activity matches these filters yet.</Text> : null}
      {events.length > 0 ? (
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
            <Table.Tbody>{rows}</Table.Tbody>
          </Table>
        </ScrollableTable>
      ) : null}
      {cursor && status === 'ready' ? (
        <Group>
          <Button variant="default" onClick={() => void loadMore()} loading={loadingMore}>
            Load more
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
