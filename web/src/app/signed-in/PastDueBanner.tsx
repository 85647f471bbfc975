/**
 * On every signed-in page of a manager whose team's card was declined (team
 * status pastDue): what it means and the way out. Adding a card or choosing
 * another primary card retries the waiting charges at once; otherwise they are
 * retried daily (docs/flows).
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { useSession } from '../../auth/sessionStore';

export function PastDueBanner() {
  const me = useSession((s) => s.me);
  const { pathname } = useLocation();
  if (me?.role !== 'manager' || me.teamStatus !== 'pastDue') return null;
  const onCardsPage =
    pathname.startsWith('/dashboard/creditcard') || pathname.startsWith('/dashboard/addcreditcard');
  return (
    <Alert color="red" variant="light" title="Your team's card was declined" mb="lg" role="alert">
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dark" style={{ flex: '1 1 260px' }}>
          Budgets waiting for this payment are not funded yet. Add a card or choose another primary card and
          we charge it at once; otherwise we retry daily.
        </Text>
        {onCardsPage ? null : (
          <Button component={Link} to="/dashboard/creditcard" color="red" size="sm">
            Update payment card
          </Button>
        )}
      </Group>
    </Alert>
  );
}
