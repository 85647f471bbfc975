/**
 * The employee's side of issue 26, on the Statement: what is left to spend
 * this month, and their spend by skill area month by month (GET /me/spend)
 * as stacked bars with a table holding the same numbers. The page loads this
 * module (and the chart code) lazily, after its own table.
 */
import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import type { MySpendAnswer } from '@shared/schemas/insights';
import { ScrollableTable } from '../../components/ScrollableTable';
import { CAPTION, MonthBars } from './charts';
import { monthLabel } from './period';

export function MySpend({ spend }: { spend: MySpendAnswer }) {
  // Only the areas with any spend get a bar colour and a column; months oldest first.
  const areas = [
    ...new Set(spend.months.flatMap((m) => m.bySkill.filter((s) => s.cents !== 0).map((s) => s.key))),
  ];
  const centsOf = (month: MySpendAnswer['months'][number], area: string) =>
    month.bySkill.find((s) => s.key === area)?.cents ?? 0;
  return (
    <Stack gap="md">
      <Paper withBorder p="sm" radius="md" component="section" aria-labelledby="left-title" maw={360}>
        <Title order={2} size="h4" id="left-title">
          What is left this month
        </Title>
        <Text fw={700} fz="xl">
          {formatCents(spend.leftThisMonthCents)}
        </Text>
      </Paper>
      <Stack gap="xs" component="section" aria-labelledby="my-spend-title">
        <Title order={2} size="h4" id="my-spend-title">
          Your spend by skill area
        </Title>
        {areas.length === 0 ? (
          <Text c="gray.8">You have not bought anything yet: your spend by skill area will show here.</Text>
        ) : (
          <>
            <MonthBars
              stacked
              series={areas.map((area) => ({ key: area, name: area }))}
              data={spend.months.map((month) => ({
                label: monthLabel(month.month),
                ...Object.fromEntries(areas.map((area) => [area, centsOf(month, area)])),
              }))}
            />
            <ScrollableTable label="Your spend by skill area, scrolls sideways" minWidth={0}>
              <Table striped verticalSpacing={4} captionSide="top">
                <Table.Caption style={CAPTION}>
                  Your spend by skill area each month, net of refunds.
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Month</Table.Th>
                    {areas.map((area) => (
                      <Table.Th key={area} scope="col" ta="right">
                        {area}
                      </Table.Th>
                    ))}
                    <Table.Th scope="col" ta="right">
                      Total
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {spend.months.map((month) => (
                    <Table.Tr key={month.month}>
                      <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                        {monthLabel(month.month, 'long')}
                      </Table.Th>
                      {areas.map((area) => (
                        <Table.Td key={area} ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {formatCents(centsOf(month, area))}
                        </Table.Td>
                      ))}
                      <Table.Td ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                        {formatCents(month.spentCents)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollableTable>
          </>
        )}
      </Stack>
    </Stack>
  );
}
