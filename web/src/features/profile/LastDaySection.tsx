/**
 * A manager sets an employee's last day on their /editProfile (issue 28,
 * part 3): on that day in the team's calendar the morning's run removes them
 * as Delete Account does (card cancelled, money to the team pool, billing
 * stops) and e-mails the manager. It can be moved or cleared before the day.
 */
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { dayIn } from '@shared/domain/calendar';
import { useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { notify } from '../../stores/notifications';
import { formatDate, teamZone } from '../../stores/teamCalendar';

export function LastDaySection(props: { userId: string; name: string; current: string | null }) {
  const [saved, setSaved] = useState(props.current);
  const [day, setDay] = useState(props.current ?? '');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const today = dayIn(new Date(), teamZone());

  async function save(lastDay: string | null) {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await call('setLastDay', { userId: props.userId, lastDay });
      setSaved(answer.lastDay);
      setDay(answer.lastDay ?? '');
      notify({
        kind: 'success',
        message: answer.lastDay
          ? `${props.name} will be removed on ${formatDate(answer.lastDay)}`
          : `${props.name}'s last day was cleared`,
      });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) setError(errorMessage(failure));
      else notify({ kind: 'error', title: 'Could not save the last day', message: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="last-day">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            Last day
          </Title>
          <Text c="gray.7">
            On this day (your team's calendar) {props.name} is removed from the team, as Delete Account does:
            the card is cancelled, the money left on it goes to the team pool, and billing stops. You are
            emailed when it is done.
          </Text>
        </div>
        {saved ? (
          <Text fw={600} data-saved-last-day={saved}>
            Last day: {formatDate(saved)}
          </Text>
        ) : null}
        <TextInput
          type="date"
          label="Last day"
          min={today}
          value={day}
          error={error}
          disabled={busy}
          onChange={(event) => setDay(event.currentTarget.value)}
          maw={240}
        />
        <Group>
          <Button onClick={() => void save(day)} loading={busy} disabled={day === '' || day === saved}>
            Save last day
          </Button>
          {saved ? (
            <Button variant="default" onClick={() => void save(null)} disabled={busy}>
              Clear last day
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
