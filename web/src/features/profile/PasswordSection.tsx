/**
 * Changing the password on /editProfile (your own profile only): the current
 * password as proof, the new one twice, checked by the same shared schema the
 * server uses. The server ends every other session and spares this one.
 */
import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { changePasswordInput, PASSWORD_HELPER_TEXT } from '@shared/schemas/auth';
import { useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { useSchemaForm } from '../../components/useSchemaForm';
import { useSubmit } from '../../components/useSubmit';
import { changePasswordMessages as text } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';

const EMPTY = { currentPassword: '', password: '', confirmPassword: '' };

function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const form = useSchemaForm(changePasswordInput, EMPTY);
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      await call('changePassword', input);
      notify({ kind: 'success', message: text.done });
      onChanged();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && form.applyServerErrors(error.fields)) return;
      notify({ kind: 'error', title: text.failedTitle, message: errorMessage(error) });
    }
  });
  const input = (name: keyof typeof EMPTY, label: string, autoComplete: string, description?: string) => {
    const { value, error, onValueChange, inputRef } = form.field(name);
    return (
      <PasswordInput
        name={name}
        label={label}
        description={description}
        autoComplete={autoComplete}
        value={value}
        error={error}
        ref={inputRef}
        onChange={(event) => onValueChange(event.currentTarget.value)}
        maw={420}
      />
    );
  };
  return (
    <form noValidate onSubmit={onSubmit} aria-label={text.submit}>
      <Stack gap="sm">
        {input('currentPassword', text.current, 'current-password')}
        {input('password', text.next, 'new-password', PASSWORD_HELPER_TEXT)}
        {input('confirmPassword', text.confirm, 'new-password')}
        <div>
          <Button type="submit" loading={busy}>
            {text.submit}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

export function PasswordSection() {
  // A new form after each change, so nothing typed stays on screen.
  const [round, setRound] = useState(0);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="change-password">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {text.title}
          </Title>
          <Text c="gray.7">{text.lead}</Text>
        </div>
        <PasswordForm key={round} onChanged={() => setRound((n) => n + 1)} />
      </Stack>
    </Paper>
  );
}
