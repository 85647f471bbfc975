/**
 * /dashboard/freezeEmployee/{cardId}/{userId} (spec §2; decisions.md: it asks
 * first, a page load never changes anything). Names the person and, once
 * confirmed, freezes that card and returns to /dashboard. The card and person
 * must be one of the manager's own team's (the list the server gives this
 * manager); anyone else's ids are 'not found', and the server refuses them too.
 */
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { employeeMessages } from '../../content/consoleMessages';
import { fullName, useEmployees } from './employeesStore';
import { setCardsStatus } from './setCardsStatus';

export function FreezeEmployeePage() {
  useDocumentTitle('Freeze Card');
  const { cardId, userId } = useParams();
  const navigate = useNavigate();
  const rows = useEmployees((s) => s.rows);
  const status = useEmployees((s) => s.status);
  const load = useEmployees((s) => s.load);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);

  // Always a fresh list: the card's state may have changed since the table was read.
  useEffect(() => {
    void load().then(() => setLoaded(true));
  }, [load]);

  if (!loaded) {
    return (
      <Group justify="center" py="xl">
        <Loader role="status" aria-label="Loading the card" />
      </Group>
    );
  }

  const person = rows.find((r) => r.userId === userId && r.cardId !== null && r.cardId === cardId);
  if (status === 'failed') {
    return <Alert color="red" title={employeeMessages.loadFailed} />;
  }
  if (!person || person.status === 'deleted' || person.cardStatus === 'canceled') {
    return (
      <Stack gap="xs">
        <Title order={1}>Card not found</Title>
        <Text>There is no card of your team at this address.</Text>
        <Text>
          <Link to="/dashboard/employees">See your employees</Link>
        </Text>
      </Stack>
    );
  }

  const name = fullName(person);
  async function freeze() {
    if (!person) return;
    setBusy(true);
    if (await setCardsStatus([person.userId], 'inactive')) {
      void load();
      navigate('/dashboard');
    } else setBusy(false);
  }

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Freeze Card</Title>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        {person.cardStatus === 'inactive' ? (
          <Stack gap="md">
            <Text>{name}&apos;s card is already frozen.</Text>
            <Group>
              <Button component={Link} to="/dashboard">
                Back to dashboard
              </Button>
            </Group>
          </Stack>
        ) : (
          <Stack gap="md">
            <Text fw={600} size="lg">
              Freeze {name}&apos;s card?
            </Text>
            <Text>
              {name} ({person.email}) will not be able to pay with the card until you activate it again. The{' '}
              {formatCents(person.remainingBudgetCents)} on it stays.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" component={Link} to="/dashboard">
                Cancel
              </Button>
              <Button color="red.8" loading={busy} onClick={() => void freeze()}>
                Freeze card
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
