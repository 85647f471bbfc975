/**
 * The Employees screen's scheduled starts (issue 28): roster rows with a later
 * start date, invited by the daily job on that day in the team's calendar.
 * Each can be cancelled before its day (audited); nothing is charged for them.
 */
import { Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import { useState } from 'react';
import { call, errorMessage, isStepUpCancelled } from '../../api/client';
import { notify } from '../../stores/notifications';
import { formatDate } from '../../stores/teamCalendar';
import { type ScheduledStart, useEmployees } from './employeesStore';

export function ScheduledStarts() {
  const scheduled = useEmployees((s) => s.scheduled);
  const reload = useEmployees((s) => s.load);
  const [working, setWorking] = useState<string | null>(null);
  if (scheduled.length === 0) return null;

  async function cancel(start: ScheduledStart) {
    setWorking(start.email);
    try {
      // A scheduled start is withdrawn as an invitation is (POST /invitations/withdraw).
      const answer = (await call('withdrawInvitations', { emails: [start.email] })).results[0];
      notify({
        kind: answer?.result === 'withdrawn' ? 'success' : 'info',
        message:
          answer?.result === 'withdrawn'
            ? `${start.email} will not be invited`
            : `${start.email} had no scheduled start any more`,
      });
      await reload();
    } catch (error) {
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: `Error on cancelling the start: ${errorMessage(error)}` });
    } finally {
      setWorking(null);
    }
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="scheduled-starts-title">
      <Title order={2} size="h3" id="scheduled-starts-title">
        Scheduled starts
      </Title>
      <Text size="sm" c="gray.7">
        Invited on their start date by the morning's run. Nothing is charged until they join.
      </Text>
      <List listStyleType="none" spacing="xs" aria-labelledby="scheduled-starts-title">
        {scheduled.map((start) => (
          <List.Item
            key={start.email}
            data-scheduled={start.email}
            styles={{ itemWrapper: { width: '100%' }, itemLabel: { width: '100%' } }}
          >
            <Paper withBorder p="sm" radius="sm">
              <Group justify="space-between" gap="xs" wrap="wrap">
                <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {`${start.firstName} ${start.lastName}`.trim()}
                  </Text>
                  <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                    {start.email} · {formatCents(start.budgetCents)} a month
                  </Text>
                  <Text size="sm" data-start-day={start.startDay}>
                    Starts {formatDate(start.startDay)}
                  </Text>
                </div>
                <Button
                  size="xs"
                  variant="default"
                  loading={working === start.email}
                  onClick={() => void cancel(start)}
                  aria-label={`Cancel the start of ${start.email}`}
                >
                  Cancel start
                </Button>
              </Group>
            </Paper>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
