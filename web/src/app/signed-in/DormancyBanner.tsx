/**
 * On every signed-in page of an employee who has been told their card goes
 * dormant (12 months or more without a purchase), or whose card is dormant:
 * what it means and what to do. The e-mails say the same.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { useSession } from '../../auth/sessionStore';
import { TEXT_ON_LIGHT_YELLOW } from '../../components/contrast';
import { employeeDormancyNote } from '../../features/dormancy/dormancyText';

export function DormancyBanner() {
  const me = useSession((s) => s.me);
  const { pathname } = useLocation();
  const note = me?.role === 'employee' && me.dormancy ? employeeDormancyNote(me.dormancy) : null;
  if (!me?.dormancy || !note) return null;
  const dormant = me.dormancy.stage === 'dormant';
  return (
    <Alert
      color={dormant ? 'gray' : 'yellow'}
      variant="light"
      title={note.title}
      mb="lg"
      role="status"
      data-dormancy={me.dormancy.stage}
      styles={dormant ? undefined : { title: { color: TEXT_ON_LIGHT_YELLOW } }}
    >
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dark" style={{ flex: '1 1 260px' }}>
          {note.text}
        </Text>
        {dormant || pathname.startsWith('/shop') ? null : (
          <Button component={Link} to="/shop" color="yellow" c="dark" size="sm">
            Shop the catalogue
          </Button>
        )}
      </Group>
    </Alert>
  );
}
