/**
 * /dashboard home (spec §2). For now: the e-mail-not-verified banner and a
 * greeting; the employees and purchase tables arrive with their issues.
 */
import { Stack, Text, Title } from '@mantine/core';
import { useSession } from '../../auth/sessionStore';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { EmailNotVerifiedBanner } from './EmailNotVerifiedBanner';

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const me = useSession((s) => s.me);
  return (
    <Stack gap="xs">
      <EmailNotVerifiedBanner />
      <Title order={1}>Dashboard</Title>
      <Text>{me ? `Welcome, ${me.firstName}.` : 'Welcome.'}</Text>
      <Text c="gray.7">
        {me?.role === 'manager'
          ? 'Your employees and their purchases will appear here.'
          : 'Your purchases will appear here.'}
      </Text>
    </Stack>
  );
}
