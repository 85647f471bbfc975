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
  PasswordInput,
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
  | { kind: 'proving' }
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

type Proof = { password?: string; emailCode?: string };

/**
 * A change to two-step sign-in: an optional code from the app (or a recovery
 * code), and proof beyond the session, the password or, for an account
 * without one, a code we e-mail (issue 24, attack 1). Each field shows the
 * server's words for it.
 */
function FactorChangeForm(props: {
  /** The label of the authenticator-code field; without it only the proof is asked. */
  codeLabel?: string;
  submit: string;
  onSubmit: (input: Proof & { code?: string }) => Promise<void>;
}) {
  const [code, setCode] = useState('');
  const [secret, setSecret] = useState('');
  const [byEmail, setByEmail] = useState(false);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  // It replaces the button that opened it: its first field takes the focus, not the page's top;
  // switching between the password and the e-mailed code moves the focus to the new field.
  const codeField = useRef<HTMLInputElement>(null);
  const proofField = useRef<HTMLInputElement>(null);
  const asksCode = Boolean(props.codeLabel);
  useEffect(() => {
    (asksCode ? codeField : proofField).current?.focus();
  }, [asksCode]);
  const wasByEmail = useRef(byEmail);
  useEffect(() => {
    if (wasByEmail.current !== byEmail) proofField.current?.focus();
    wasByEmail.current = byEmail;
  }, [byEmail]);

  async function sendCode() {
    setSending(true);
    try {
      await call('sendIdentityCode', {});
      setByEmail(true);
      setSecret('');
      setErrors({});
    } catch (failure) {
      notify({ kind: 'error', message: errorMessage(failure) });
    } finally {
      setSending(false);
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      code: props.codeLabel && code.trim() === '' ? text.codeRequired : undefined,
      proof: secret.trim() === '' ? (byEmail ? text.emailCodeRequired : text.passwordRequired) : undefined,
    };
    if (missing.code || missing.proof) return setErrors(missing);
    setBusy(true);
    try {
      await props.onSubmit({
        ...(props.codeLabel ? { code: code.trim() } : {}),
        ...(byEmail ? { emailCode: secret.trim() } : { password: secret }),
      });
    } catch (failure) {
      const fields = failure instanceof ApiError ? failure.fields : undefined;
      const proof = fields?.password ?? fields?.emailCode;
      if (fields?.code || proof) setErrors({ code: fields?.code, proof });
      else notify({ kind: 'error', message: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  }

  const proofInput = byEmail ? (
    <TextInput
      ref={proofField}
      key="emailCode"
      label={text.emailCodeLabel}
      description={text.emailCodeSent}
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={8}
      value={secret}
      error={errors.proof}
      onChange={(event) => {
        setSecret(event.currentTarget.value);
        setErrors({ ...errors, proof: undefined });
      }}
      maw={420}
    />
  ) : (
    <PasswordInput
      ref={proofField}
      key="password"
      label={text.passwordLabel}
      autoComplete="current-password"
      value={secret}
      error={errors.proof}
      onChange={(event) => {
        setSecret(event.currentTarget.value);
        setErrors({ ...errors, proof: undefined });
      }}
      maw={420}
    />
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-label={props.submit}>
      <Stack gap="sm">
        {props.codeLabel ? (
          <TextInput
            ref={codeField}
            label={props.codeLabel}
            autoComplete="one-time-code"
            maxLength={40}
            value={code}
            error={errors.code}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setErrors({ ...errors, code: undefined });
            }}
            maw={420}
          />
        ) : null}
        {proofInput}
        <Group gap="sm">
          <Button type="submit" loading={busy}>
            {props.submit}
          </Button>
          <Button variant="subtle" onClick={() => void sendCode()} loading={sending}>
            {byEmail ? text.sendAgain : text.useEmailCode}
          </Button>
          {byEmail ? (
            <Button
              variant="subtle"
              onClick={() => {
                setByEmail(false);
                setSecret('');
                setErrors({});
              }}
            >
              {text.usePassword}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

export function SecondFactorSection() {
  const [view, setView] = useState<View>({ kind: 'loading' });
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
        {view.kind === 'loading' ? <Loader size="sm" role="status" aria-label="Loading" /> : null}
        {view.kind === 'failed' ? <Alert color="red">{view.message}</Alert> : null}
        {view.kind === 'off' ? (
          <Group>
            <Button ref={setUpRef} onClick={() => setView({ kind: 'proving' })}>
              {text.setUp}
            </Button>
          </Group>
        ) : null}
        {view.kind === 'proving' ? (
          <Stack gap="xs">
            <Text size="sm">{text.proveLead}</Text>
            <FactorChangeForm
              submit={text.continue}
              onSubmit={async (proof) => {
                setView({ kind: 'enrolling', enrolment: await call('startTotpEnrolment', proof) });
              }}
            />
          </Stack>
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
              <Stack gap="xs">
                <Text size="sm">{text.renewLead}</Text>
                <FactorChangeForm
                  codeLabel={text.turnOffLabel}
                  submit={text.newCodes}
                  onSubmit={async ({ code = '', ...proof }) => {
                    const { recoveryCodes } = await call('regenerateRecoveryCodes', { code, ...proof });
                    setView({ kind: 'codes', codes: recoveryCodes });
                  }}
                />
              </Stack>
            ) : null}
            {view.action === 'turnOff' ? (
              <Stack gap="xs">
                <Text size="sm">{text.turnOffLead}</Text>
                <FactorChangeForm
                  codeLabel={text.turnOffLabel}
                  submit={text.turnOffSubmit}
                  onSubmit={async ({ code = '', ...proof }) => {
                    await call('turnOffSecondFactor', { code, ...proof });
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
