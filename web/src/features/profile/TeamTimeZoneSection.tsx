/**
 * The team's time zone on the manager's own /editProfile (issue 25 "One
 * calendar"): asked at setup, changed here. Saving reloads `me`, so every
 * screen prints its dates in the new zone from then on.
 */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { timeZoneLabel } from '@shared/domain/calendar';
import { useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { TimeZoneSelect } from '../../components/TimeZoneSelect';
import { notify } from '../../stores/notifications';

export function TeamTimeZoneSection({ current }: { current: string }) {
  const reloadMe = useSession((s) => s.reloadMe);
  const [zone, setZone] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setError(undefined);
    try {
      const saved = await call('updateTeamTimeZone', { timeZone: zone });
      await reloadMe().catch(() => null);
      notify({ kind: 'success', message: `Dates now show in ${timeZoneLabel(saved.timeZone)} time.` });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) setError(errorMessage(failure));
      else notify({ kind: 'error', title: 'Could not change the time zone', message: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="team-time-zone">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            Team time zone
          </Title>
          <Text c="gray.7">
            The day a purchase, a receipt deadline or an invoice falls on, for your whole team.
          </Text>
        </div>
        <TimeZoneSelect value={zone} onChange={setZone} error={error} disabled={busy} />
        <Group>
          <Button onClick={() => void save()} loading={busy} disabled={zone === current}>
            Save time zone
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
