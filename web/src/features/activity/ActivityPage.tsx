/**
 * Activity (manager): the team's audit log, newest first - who did what, when,
 * to whom, and the amounts - filterable by person and kind, a page at a time
 * (GET /team/audit with an opaque cursor). The words come from
 * shared/src/domain/auditLog.ts.
 */
import { Alert, Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditKind } from '@shared/domain/auditLog';
import { useEffect, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { ActivityTable, type AuditEvent } from './ActivityTable';
import { PurchasesCsvExport } from './PurchasesCsvExport';

const PAGE_SIZE = 50;

export function ActivityPage() {
  useDocumentTitle('Activity Log');
  // Read before the first paint, so a phone never lays out the wide table first.
  const phone = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
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

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>{pageHeadings.activity.title}</Title>
        <Text c="gray.7">{pageHeadings.activity.lead}</Text>
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
      {events.length > 0 ? <ActivityTable events={events} compact={phone} /> : null}
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
