/**
 * /dashboard home (spec §2): the e-mail-not-verified banner, for an employee
 * whose card is frozen for a missing receipt which receipt lifts it, for managers the
 * first 5 employees (with a link to all), for everyone the latest purchases
 * with 'SEE MORE', and the walkthrough tour until it has been seen. The tour
 * waits for a verified e-mail: over the banner it would hide the banner's
 * Resend button, the one thing an unverified person has to do here.
 */
import { Alert, Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../../auth/sessionStore';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { EmployeesPreview } from '../employees/EmployeesPreview';
import { PurchasesPreview } from '../purchases/PurchasesPreview';
import { RequestsPreview } from '../requests/RequestsPreview';
import { EmailNotVerifiedBanner } from './EmailNotVerifiedBanner';
import { ReceiptFreezeBanner } from './ReceiptFreezeBanner';

// Only people who have not seen the tour download it.
const Walkthrough = lazy(() => import('./Walkthrough').then((m) => ({ default: m.Walkthrough })));

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const me = useSession((s) => s.me);
  const isManager = me?.role === 'manager';
  const tour = !me || me.finishedWalkthrough ? 'seen' : me.emailVerified ? 'due' : 'afterVerification';
  return (
    // data-walkthrough tells tests (and styles) whether the tour is due on this visit.
    <Stack gap="lg" data-walkthrough={tour}>
      <EmailNotVerifiedBanner />
      <Box>
        <Title order={1}>{pageHeadings.dashboard.title}</Title>
        <Text c="gray.7">{me ? `Welcome, ${me.firstName}.` : 'Welcome.'}</Text>
      </Box>
      {me?.role === 'employee' ? <ReceiptFreezeBanner /> : null}
      {isManager && me?.teamStatus === 'setup' && me.emailVerified ? (
        <Alert color="blue" variant="light" title="Finish setting up your team">
          <Text size="sm">
            Invite your team and add the card we charge for their budgets.{' '}
            <Anchor component={Link} to="/setupAccount" fw={600}>
              Set up your account
            </Anchor>
          </Text>
        </Alert>
      ) : null}
      {isManager && me?.teamStatus !== 'setup' ? <RequestsPreview /> : null}
      {isManager ? (
        <Box data-tour="dashboard-employees">
          <EmployeesPreview />
        </Box>
      ) : null}
      <PurchasesPreview />
      {me && tour === 'due' ? (
        <Suspense fallback={null}>
          <Walkthrough role={me.role} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
