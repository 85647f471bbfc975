/**
 * Two-step sign-in on /editProfile (your own profile only): set up an
 * authenticator app (QR code or key, confirm with a code), see the ten
 * recovery codes once, and later replace them or turn the app off (with a
 * code or a recovery code; every other session ends). The server keeps the secret and
 * only the recovery codes' hashes; nothing here is stored in the browser.
 */
import {
  Alert,
  Button,
  Code,
  Group,
  Image,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { secondFactorMessages as text } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';

type Enrolment = RouteOutput<'startTotpEnrolment'>;
type View =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'off' }
  | { kind: 'enrolling'; enrolment: Enrolment }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'on'; left: number; action: 'none' | 'renew' | 'turnOff' };

/** A code form: one field, its error from the server, a submit button. */
function CodeForm(props: { label: string; submit: string; onCode: (code: string) => Promise<void> }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // It replaces the button that opened it: its field takes the focus, not the page's top.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.focus();
  }, []);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') return setError(text.codeRequired);
    setBusy(true);
    try {
      await props.onCode(code.trim());
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields?.code) setError(failure.fields.code);
      else notify({ kind: 'error', message: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form noValidate onSubmit={onSubmit} aria-label={props.submit}>
      <Group align="flex-end" gap="sm">
        <TextInput
          ref={field}
          label={props.label}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={40}
          value={code}
          error={error}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setError(undefined);
          }}
          style={{ flex: '1 1 12rem' }}
        />
        <Button type="submit" loading={busy}>
          {props.submit}
        </Button>
      </Group>
    </form>
  );
}

export function SecondFactorSection() {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [starting, setStarting] = useState(false);
  // The form that was focused is gone once the codes show: move focus to them, for keyboards and screen readers.
  const codesRef = useRef<HTMLDivElement>(null);
  // Turned off: the form is gone, and the focus goes to the button that sets it up again.
  const setUpRef = useRef<HTMLButtonElement>(null);
  const turnedOff = useRef(false);
  useEffect(() => {
    if (view.kind === 'codes') codesRef.current?.focus();
    if (view.kind === 'off' && turnedOff.current) {
      turnedOff.current = false;
      setUpRef.current?.focus();
    }
  }, [view.kind]);

  useEffect(() => {
    let live = true;
    call('getSecondFactor', {}).then(
      (status) =>
        live &&
        setView(
          status.totpEnabled
            ? { kind: 'on', left: status.recoveryCodesLeft, action: 'none' }
            : { kind: 'off' },
        ),
      (error: unknown) => live && setView({ kind: 'failed', message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, []);

  async function start() {
    setStarting(true);
    try {
      setView({ kind: 'enrolling', enrolment: await call('startTotpEnrolment', {}) });
    } catch (error) {
      notify({ kind: 'error', message: errorMessage(error) });
    } finally {
      setStarting(false);
    }
  }

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'xl' }}
      radius="md"
      data-testid="second-factor"
      data-state={view.kind}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {text.title}
          </Title>
          <Text c="gray.7">{text.lead}</Text>
        </div>
        {view.kind === 'loading' ? <Loader size="sm" aria-label="Loading" /> : null}
        {view.kind === 'failed' ? <Alert color="red">{view.message}</Alert> : null}
        {view.kind === 'off' ? (
          <Group>
            <Button ref={setUpRef} onClick={() => void start()} loading={starting}>
              {text.setUp}
            </Button>
          </Group>
        ) : null}
        {view.kind === 'enrolling' ? (
          <Stack gap="sm">
            <Text>{text.scan}</Text>
            <Image
              src={view.enrolment.qrCode}
              alt={text.qrAlt}
              w={200}
              h={200}
              fit="contain"
              style={{ imageRendering: 'pixelated' }}
            />
            <Text size="sm">
              {text.manualKey} <Code data-testid="totp-secret">{view.enrolment.secret}</Code>
            </Text>
            <CodeForm
              label={text.codeLabel}
              submit={text.turnOn}
              onCode={async (code) => {
                const { recoveryCodes } = await call('confirmTotpEnrolment', { code });
                setView({ kind: 'codes', codes: recoveryCodes });
              }}
            />
          </Stack>
        ) : null}
        {view.kind === 'codes' ? (
          <Stack gap="sm" ref={codesRef} tabIndex={-1} style={{ outline: 'none' }}>
            <Alert color="yellow" title={text.codesTitle}>
              {text.codesLead}
            </Alert>
            <List spacing={4} data-testid="recovery-codes" style={{ fontFamily: 'monospace' }}>
              {view.codes.map((code) => (
                <List.Item key={code}>{code}</List.Item>
              ))}
            </List>
            <Group>
              <Button onClick={() => setView({ kind: 'on', left: view.codes.length, action: 'none' })}>
                {text.savedThem}
              </Button>
            </Group>
          </Stack>
        ) : null}
        {view.kind === 'on' ? (
          <Stack gap="sm">
            <Text data-testid="second-factor-on">
              {text.on} {text.codesLeft(view.left)}
            </Text>
            {view.action === 'renew' ? (
              <CodeForm
                label={text.codeLabel}
                submit={text.newCodes}
                onCode={async (code) => {
                  const { recoveryCodes } = await call('regenerateRecoveryCodes', { code });
                  setView({ kind: 'codes', codes: recoveryCodes });
                }}
              />
            ) : null}
            {view.action === 'turnOff' ? (
              <Stack gap="xs">
                <Text size="sm">{text.turnOffLead}</Text>
                <CodeForm
                  label={text.turnOffLabel}
                  submit={text.turnOffSubmit}
                  onCode={async (code) => {
                    await call('turnOffSecondFactor', { code });
                    turnedOff.current = true;
                    setView({ kind: 'off' });
                    notify({ kind: 'success', message: text.turnedOff });
                  }}
                />
              </Stack>
            ) : null}
            {view.action === 'none' ? (
              <Group>
                <Button variant="outline" onClick={() => setView({ ...view, action: 'renew' })}>
                  {text.newCodes}
                </Button>
                <Button
                  variant="subtle"
                  color="red"
                  c="red.9"
                  onClick={() => setView({ ...view, action: 'turnOff' })}
                >
                  {text.turnOff}
                </Button>
              </Group>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
