/**
 * The dashboard's employees (spec §2 /dashboard): the first 5 by remaining
 * budget, highest first, and a link to the whole Employees screen.
 */
import { Anchor, Button, Card, Group, Loader, Table, Text, Title } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fullName, useEmployees } from './employeesStore';
import { DEFAULT_SORT, sortRows } from './employeeTable';
import { cardStateText, statusLabel } from './employeeText';

export const PREVIEW_ROWS = 5;

export function EmployeesPreview() {
  const rows = useEmployees((s) => s.rows);
  const status = useEmployees((s) => s.status);
  const load = useEmployees((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  const top = useMemo(() => sortRows(rows, DEFAULT_SORT).slice(0, PREVIEW_ROWS), [rows]);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="employees-preview-title">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={2} size="h3" id="employees-preview-title">
          Employees
        </Title>
        <Group gap="md">
          <Button component={Link} to="/inviteMembers" size="xs" variant="light">
            Add / Invite
          </Button>
          <Anchor component={Link} to="/dashboard/employees" fw={600}>
            See all employees
          </Anchor>
        </Group>
      </Group>
      {status === 'loading' || status === 'idle' ? (
        <Group justify="center" py="md">
          <Loader size="sm" role="status" aria-label="Loading employees" />
        </Group>
      ) : top.length === 0 ? (
        <Text c="gray.7">{status === 'failed' ? 'Employees could not be loaded.' : 'No employees yet.'}</Text>
      ) : (
        <Table aria-labelledby="employees-preview-title" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              {/* On a phone: name and remaining budget; the full table is one link away. */}
              <Table.Th visibleFrom="sm">Status</Table.Th>
              <Table.Th visibleFrom="sm">Card status</Table.Th>
              <Table.Th ta="right">Remaining budget</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {top.map((row) => (
              <Table.Tr key={row.userId}>
                {/* A long unbroken name wraps anywhere instead of pushing the budget off screen. */}
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text span fw={600} inherit>
                    {fullName(row)}
                  </Text>
                  {/* On a phone the state columns are hidden: said under the name, so an invitee is not read as an employee with $0. */}
                  <Text size="xs" c="gray.7" hiddenFrom="sm" data-testid="preview-state">
                    {statusLabel[row.status]} · {cardStateText(row)}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">{statusLabel[row.status]}</Table.Td>
                <Table.Td visibleFrom="sm">{cardStateText(row)}</Table.Td>
                <Table.Td ta="right">{formatCents(row.remainingBudgetCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {rows.length > PREVIEW_ROWS ? (
        <Text size="sm" c="gray.7" mt="xs">
          Showing {PREVIEW_ROWS} of {rows.length}.
        </Text>
      ) : null}
    </Card>
  );
}
