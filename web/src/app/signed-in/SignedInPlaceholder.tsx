import { Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** A signed-in page that later work builds: its name and one line, inside the app shell. */
export function SignedInPlaceholder({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <Stack gap="xs">
      <Title order={1}>{title}</Title>
      <Text>Coming soon</Text>
    </Stack>
  );
}
