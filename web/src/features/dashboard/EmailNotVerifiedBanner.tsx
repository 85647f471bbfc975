import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { TEXT_ON_LIGHT_YELLOW } from '../../components/contrast';
import { verificationMessages } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';

/**
 * Spec §2 /dashboard: while the e-mail is unverified, a banner with a resend
 * button. Money and card actions wait for verification (docs/decisions.md).
 */
export function EmailNotVerifiedBanner() {
  const me = useSession((s) => s.me);
  const [busy, setBusy] = useState(false);
  if (!me || me.emailVerified) return null;

  async function resend() {
    if (busy || !me) return;
    setBusy(true);
    try {
      await call('resendVerification', {});
      notify({
        kind: 'success',
        title: verificationMessages.resentTitle,
        message: verificationMessages.resent(me.email),
      });
    } catch (error) {
      notify({ kind: 'error', title: verificationMessages.resendFailedTitle, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Alert
      color="yellow"
      variant="light"
      title="Please verify your email address"
      mb="lg"
      // The light variant's yellow title is too faint on yellow; a dark brown reads at AA.
      styles={{ title: { color: TEXT_ON_LIGHT_YELLOW } }}
    >
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dark" style={{ flex: '1 1 260px' }}>
          We sent a link to <strong>{me.email}</strong>. Open it to verify your address
          {me.role === 'manager' ? ' and set up your team' : ''}.
        </Text>
        <Button variant="white" color="dark" size="sm" loading={busy} onClick={() => void resend()}>
          Resend verification email
        </Button>
      </Group>
    </Alert>
  );
}
