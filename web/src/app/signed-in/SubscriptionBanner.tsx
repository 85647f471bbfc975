/**
 * On every signed-in page of a team whose subscription is suspended or closed
 * (`/me` teamStatus; docs/decisions.md "Subscription lifecycle"): what it
 * means for the reader. The manager gets the way to the Subscription screen.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { useSession } from '../../auth/sessionStore';

const WORDS = {
  suspended: {
    title: 'Your subscription is suspended',
    manager: 'Nobody is charged and no budget is funded until you resume it. Cards keep what they hold.',
    employee:
      'Your team’s learning budget is on hold: no new money arrives, and your card keeps what it holds.',
  },
  closed: {
    title: 'Your subscription is closed',
    manager: 'Every card is cancelled and nobody is charged again. Your records stay here to read.',
    employee:
      'Your team’s learning budget has ended and your card is cancelled. Your purchases stay here to read.',
  },
} as const;

export function SubscriptionBanner() {
  const me = useSession((s) => s.me);
  const { pathname } = useLocation();
  if (me?.teamStatus !== 'suspended' && me?.teamStatus !== 'closed') return null;
  const words = WORDS[me.teamStatus];
  const isManager = me.role === 'manager';
  return (
    <Alert
      color={me.teamStatus === 'closed' ? 'gray' : 'yellow'}
      variant="light"
      title={words.title}
      mb="lg"
      role="status"
      // Mantine's yellow title is below 4.5:1 on its light background.
      styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
      data-team-status={me.teamStatus}
    >
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dark" style={{ flex: '1 1 260px' }}>
          {isManager ? words.manager : words.employee}
        </Text>
        {isManager && me.teamStatus === 'suspended' && !pathname.startsWith('/dashboard/subscription') ? (
          <Button component={Link} to="/dashboard/subscription" size="sm" variant="default">
            Manage subscription
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
