/**
 * The dashboard's requests (manager, issue 27): how many wait for them and
 * the newest few, each a link to it on the Requests page.
 */
import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import type { RequestView } from '@shared/schemas/requests';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { call } from '../../api/client';
import { useRequests } from './requestStore';

const PREVIEW_ROWS = 3;

export function RequestsPreview() {
  const [pending, setPending] = useState<RequestView[] | undefined>();
  const changed = useRequests((s) => s.changed);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `changed` is the reason to read again.
  useEffect(() => {
    const abort = new AbortController();
    call('listRequests', { state: 'pending' }, { signal: abort.signal })
      .then(({ requests }) => setPending(requests))
      .catch(() => undefined);
    return () => abort.abort();
  }, [changed]);
  if (!pending) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="requests-preview-title">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={2} size="h3" id="requests-preview-title">
          Requests
        </Title>
        <Anchor component={Link} to="/dashboard/requests" fw={600}>
          See all requests
        </Anchor>
      </Group>
      {pending.length === 0 ? (
        <Text>No requests are waiting for you.</Text>
      ) : (
        <Stack gap="xs">
          <Text fw={600}>
            {pending.length === 1
              ? '1 request is waiting for you.'
              : `${pending.length} requests are waiting for you.`}
          </Text>
          {pending.slice(0, PREVIEW_ROWS).map((r) => (
            <Group key={r.requestId} justify="space-between" gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`/dashboard/requests/${r.requestId}`} style={{ minWidth: 0 }}>
                {r.name}: {r.title}
              </Anchor>
              <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                {formatCents(r.amountCents)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
