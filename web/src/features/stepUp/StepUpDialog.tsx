/**
 * The step-up dialog: before sending a money-moving action that needs a fresh
 * factor when the session has none (GET /me/secondFactor `stepUpNeeded`), or
 * when one answers STEP_UP_REQUIRED anyway, the API client (api/client.ts
 * onStepUp) opens this and waits. It asks for the authenticator code (or a
 * recovery code) when the account has one, else the password; POST
 * /auth/stepUp proves it, and the client sends (or retries, same
 * Idempotency-Key) the action. Cancel leaves the action unsent (or refused).
 */
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, call, errorMessage, setStepUpHandler } from '../../api/client';
import { AppModal } from '../../components/AppModal';
import { secondFactorMessages as text } from '../../content/accountMessages';

type Ask = { mode: 'code' | 'password'; resolve: (proved: boolean) => void };

export function StepUpDialog() {
  const [ask, setAsk] = useState<Ask | null>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setStepUpHandler(async ({ ifNeeded }) => {
      const { totpEnabled, stepUpNeeded } = await call('getSecondFactor', {});
      if (ifNeeded && !stepUpNeeded) return true;
      return new Promise<boolean>((resolve) => {
        setValue('');
        setError(undefined);
        setAsk({ mode: totpEnabled ? 'code' : 'password', resolve });
      });
    });
    return () => setStepUpHandler(undefined);
  }, []);

  function close(proved: boolean) {
    ask?.resolve(proved);
    setAsk(null);
    setBusy(false);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ask || busy) return;
    if (value.trim() === '')
      return setError(ask.mode === 'code' ? text.codeRequired : 'Password is required');
    setBusy(true);
    try {
      await call('stepUp', ask.mode === 'code' ? { code: value.trim() } : { password: value });
      close(true);
    } catch (failure) {
      setBusy(false);
      const field = failure instanceof ApiError ? failure.fields?.[ask.mode] : undefined;
      setError(field ?? errorMessage(failure));
    }
  }

  const label = ask?.mode === 'password' ? 'Password' : text.signInCodeLabel;
  return (
    <AppModal
      opened={ask !== null}
      onClose={() => (busy ? undefined : close(false))}
      title={text.stepUpTitle}
      centered
      // Above the dialog of the action that asked for it (Mantine modals default to 200).
      zIndex={400}
    >
      <form noValidate onSubmit={onSubmit} aria-label={text.stepUpTitle}>
        <Stack gap="md">
          <Text>{ask?.mode === 'password' ? text.stepUpPasswordLead : text.stepUpCodeLead}</Text>
          {ask?.mode === 'password' ? (
            <PasswordInput
              label={label}
              autoComplete="current-password"
              value={value}
              error={error}
              data-autofocus
              onChange={(event) => {
                setValue(event.currentTarget.value);
                setError(undefined);
              }}
            />
          ) : (
            <TextInput
              label={label}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={40}
              value={value}
              error={error}
              data-autofocus
              onChange={(event) => {
                setValue(event.currentTarget.value);
                setError(undefined);
              }}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => close(false)} disabled={busy}>
              {text.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {text.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
