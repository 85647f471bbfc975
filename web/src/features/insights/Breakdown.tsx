/**
 * One breakdown of Insights: a heading, the chart, and beside it (below it
 * on a phone) a real table with a caption and the same numbers, each row's
 * name a link to the matching purchases, and a CSV download of the rows.
 */
import { Anchor, Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CAPTION } from './charts';

export interface BreakdownColumn<Row> {
  header: string;
  /** Numbers are right-aligned. */
  numeric?: boolean;
  cell: (row: Row) => ReactNode;
}

export function Breakdown<Row>({
  id,
  title,
  caption,
  chart,
  empty,
  emptyText,
  nameHeader,
  rows,
  name,
  rowKey,
  href,
  columns,
  note,
  onDownload,
  downloading = false,
}: {
  id: string;
  title: string;
  caption: string;
  chart: ReactNode;
  /** Nothing to show: the empty text stands in for the chart and table. */
  empty: boolean;
  emptyText: string;
  nameHeader: string;
  rows: readonly Row[];
  name: (row: Row) => string;
  rowKey: (row: Row) => string;
  /** The matching purchases, when there are any. */
  href: (row: Row) => string | undefined;
  columns: readonly BreakdownColumn<Row>[];
  note?: string;
  onDownload: () => void;
  /** The CSV's rows are being fetched: the button shows it and waits. */
  downloading?: boolean;
}) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={`${id}-title`}>
      <Group justify="space-between" align="flex-end" gap="xs">
        <Title order={2} size="h3" id={`${id}-title`}>
          {title}
        </Title>
        <Button
          variant="default"
          size="xs"
          onClick={onDownload}
          loading={downloading}
          aria-label={`Download ${title.toLowerCase()} as CSV`}
        >
          Download CSV
        </Button>
      </Group>
      {empty ? (
        <Text c="gray.8">{emptyText}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <div>{chart}</div>
          <div>
            <Table striped verticalSpacing={4} captionSide="top">
              <Table.Caption style={CAPTION}>{caption}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{nameHeader}</Table.Th>
                  {columns.map((column) => (
                    <Table.Th key={column.header} scope="col" ta={column.numeric ? 'right' : undefined}>
                      {column.header}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => {
                  const link = href(row);
                  return (
                    <Table.Tr key={rowKey(row)}>
                      <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                        {link ? (
                          <Anchor component={Link} to={link}>
                            {name(row)}
                          </Anchor>
                        ) : (
                          name(row)
                        )}
                      </Table.Th>
                      {columns.map((column) => (
                        <Table.Td
                          key={column.header}
                          ta={column.numeric ? 'right' : undefined}
                          style={{ whiteSpace: 'nowrap' }}
                        >
                          {column.cell(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
            {note ? (
              <Text size="sm" c="gray.7" mt={4}>
                {note}
              </Text>
            ) : null}
          </div>
        </SimpleGrid>
      )}
    </Stack>
  );
}
