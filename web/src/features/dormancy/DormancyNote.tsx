/** The Employees table's dormancy badge and words under a person's status. */
import { Badge, Text } from '@mantine/core';
import type { DormancyView } from '@shared/schemas/me';
import { TEXT_ON_LIGHT_YELLOW } from '../../components/contrast';
import { managerDormancyNote } from './dormancyText';

export function DormancyNote({ dormancy }: { dormancy: DormancyView }) {
  const note = managerDormancyNote(dormancy);
  if (!note) return null;
  const dormant = dormancy.stage === 'dormant';
  return (
    <>
      {' '}
      <Badge
        color={dormant ? 'gray' : 'yellow'}
        variant="light"
        size="sm"
        styles={dormant ? undefined : { root: { color: TEXT_ON_LIGHT_YELLOW } }}
      >
        {dormant ? 'Dormant' : 'Going dormant'}
      </Badge>
      <Text size="xs" c="gray.7" maw={260}>
        {note}
      </Text>
    </>
  );
}
