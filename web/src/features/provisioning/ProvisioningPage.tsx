/**
 * /dashboard/provisioning (issue 28): connect the team's identity provider
 * (Okta, Microsoft Entra ID) over SCIM 2.0. The manager sees the base
 * address to give it, makes named tokens (each shown once, to copy), sees when
 * each was last used, revokes one after confirming, and sets the monthly
 * budget of people the identity provider adds, with optional budgets per
 * department. docs/scim.md is the setup guide.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import { type FormEvent, useEffect, useState } from 'react';
import { call, errorMessage, isStepUpCancelled } from '../../api/client';
import { AppModal } from '../../components/AppModal';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { notify } from '../../stores/notifications';
import { formatDateTime } from '../../stores/teamCalendar';

type Provisioning = RouteOutput<'getProvisioning'>;
type Token = Provisioning['tokens'][number];
type DepartmentRow = { key: number; department: string; budget: string };

let nextRowKey = 1;

function Copy({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Button variant="light" size="xs" onClick={copy} aria-label={`${label}: copy`}>
          {copied ? 'Copied!' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}

function NewToken({ token, name, onDone }: { token: string; name: string; onDone: () => void }) {
  return (
    <Alert
      color="green"
      variant="light"
      title={`Token “${name}” made`}
      data-testid="new-token"
      // Mantine's light title colour is below 4.5:1 on its own background: the title reads in the text colour.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs">
        <Text size="sm">
          Copy it now and paste it into your identity provider: it is shown only this once. Anyone with it can
          add and remove people in your team.
        </Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code style={{ wordBreak: 'break-all', flex: 1 }} data-testid="token-value">
            {token}
          </Code>
          <Copy value={token} label="Token" />
        </Group>
        <Group>
          <Button variant="default" size="xs" onClick={onDone}>
            I have copied it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function TokenState({ token }: { token: Token }) {
  if (token.revokedAt) return <Text size="sm">Revoked {formatDateTime(token.revokedAt)}</Text>;
  return (
    <Text size="sm">{token.lastUsedAt ? `Last used ${formatDateTime(token.lastUsedAt)}` : 'Never used'}</Text>
  );
}

function TokensTable({
  tokens,
  onRevoke,
  compact,
}: {
  tokens: Token[];
  onRevoke: (t: Token) => void;
  compact: boolean;
}) {
  if (tokens.length === 0) {
    return (
      <Text size="sm" data-testid="no-tokens">
        No tokens yet. Make one for each identity provider you connect.
      </Text>
    );
  }
  if (compact) {
    return (
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {tokens.map((token) => (
          <Paper component="li" withBorder p="sm" radius="md" key={token.tokenId} data-token={token.tokenId}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <div>
                <Text fw={600}>{token.name}</Text>
                <Text size="sm" c="gray.7">
                  {token.hint}… made {formatDateTime(token.createdAt)}
                </Text>
                <TokenState token={token} />
              </div>
              {token.revokedAt ? null : (
                <Button
                  variant="subtle"
                  color="red"
                  c="red.9"
                  size="xs"
                  style={{ flexShrink: 0 }}
                  onClick={() => onRevoke(token)}
                >
                  Revoke
                </Button>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <ScrollableTable label="Provisioning tokens" minWidth={640}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Token</Table.Th>
            <Table.Th>Made</Table.Th>
            <Table.Th>Use</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.tokenId} data-token={token.tokenId}>
              <Table.Td>{token.name}</Table.Td>
              <Table.Td>
                <Code>{token.hint}…</Code>
              </Table.Td>
              <Table.Td>{formatDateTime(token.createdAt)}</Table.Td>
              <Table.Td>
                <TokenState token={token} />
              </Table.Td>
              <Table.Td>
                {token.revokedAt ? null : (
                  <Button variant="subtle" color="red" c="red.9" size="xs" onClick={() => onRevoke(token)}>
                    Revoke
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

function dollars(cents: number): string {
  return String(Math.round(cents / 100));
}

function Budgets({
  provisioning,
  onSaved,
}: {
  provisioning: Provisioning;
  onSaved: (p: Provisioning) => void;
}) {
  const [defaultBudget, setDefaultBudget] = useState(dollars(provisioning.defaultBudgetCents));
  const [rows, setRows] = useState<DepartmentRow[]>(() =>
    provisioning.departmentBudgets.map((d) => ({
      key: nextRowKey++,
      department: d.department,
      budget: dollars(d.budgetCents),
    })),
  );
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFields({});
    try {
      const saved = await call('updateProvisioningSettings', {
        defaultBudget,
        departmentBudgets: rows.map((r) => ({ department: r.department, budget: r.budget })),
      });
      onSaved(saved);
      notify({ kind: 'success', message: 'Provisioning budgets saved.' });
    } catch (error) {
      if (isStepUpCancelled(error)) return;
      const problem = (error as { fields?: Record<string, string> }).fields;
      if (problem) setFields(problem);
      notify({ kind: 'error', message: errorMessage(error), title: 'The budgets were not saved' });
    } finally {
      setBusy(false);
    }
  }

  const update = (key: number, change: Partial<DepartmentRow>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...change } : r)));

  return (
    <form onSubmit={(e) => void save(e)} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Monthly budget of people your identity provider adds ($)"
          description="Each new person is invited with it. Invitations count against your team's daily limit."
          value={defaultBudget}
          onChange={(e) => setDefaultBudget(e.currentTarget.value)}
          inputMode="numeric"
          error={fields.defaultBudget}
          maw={360}
        />
        <Text size="sm" fw={600} id="departments-title">
          Budgets by department
        </Text>
        <Text size="sm" c="gray.7">
          When your identity provider sends a person's department (the enterprise “department” attribute) and
          it is listed here, they get its budget instead.
        </Text>
        {rows.map((row, i) => (
          <Group key={row.key} align="flex-end" gap="xs" wrap="nowrap" data-testid="department-row">
            <TextInput
              label="Department"
              value={row.department}
              onChange={(e) => update(row.key, { department: e.currentTarget.value })}
              error={fields[`departmentBudgets.${i}.department`]}
              style={{ flex: '1 1 0', minWidth: 0 }}
            />
            <TextInput
              label="Budget ($)"
              value={row.budget}
              inputMode="numeric"
              onChange={(e) => update(row.key, { budget: e.currentTarget.value })}
              error={fields[`departmentBudgets.${i}.budget`]}
              style={{ flex: '0 0 96px' }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove department ${row.department || i + 1}`}
              onClick={() => setRows((list) => list.filter((r) => r.key !== row.key))}
            >
              <span aria-hidden="true">×</span>
            </ActionIcon>
          </Group>
        ))}
        <Group gap="sm">
          <Button
            variant="default"
            onClick={() =>
              setRows((list) => [...list, { key: nextRowKey++, department: '', budget: defaultBudget }])
            }
          >
            Add a department
          </Button>
          <Button type="submit" loading={busy}>
            Save budgets
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ProvisioningPage() {
  useDocumentTitle('Provisioning');
  const [provisioning, setProvisioning] = useState<Provisioning | undefined>();
  const [failed, setFailed] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<{ token: string; name: string } | undefined>();
  const [revoking, setRevoking] = useState<Token | undefined>();
  const [busy, setBusy] = useState(false);
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  useEffect(() => {
    const controller = new AbortController();
    call('getProvisioning', {}, { signal: controller.signal }).then(setProvisioning, (error: unknown) => {
      if (!controller.signal.aborted) setFailed(errorMessage(error));
    });
    return () => controller.abort();
  }, []);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setNameError('Name is required');
      return;
    }
    setNameError(undefined);
    setCreating(true);
    try {
      const created = await call('createProvisioningToken', { name });
      setMade({ token: created.token, name: created.name });
      setName('');
      setProvisioning(await call('getProvisioning', {}));
    } catch (error) {
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: errorMessage(error), title: 'The token was not made' });
    } finally {
      setCreating(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      setProvisioning(await call('revokeProvisioningToken', { tokenId: revoking.tokenId }));
      notify({ kind: 'success', message: `Token “${revoking.name}” revoked.` });
      setRevoking(undefined);
    } catch (error) {
      notify({ kind: 'error', message: errorMessage(error), title: 'The token was not revoked' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="lg" maw={860}>
      <div>
        <Title order={1}>Provisioning</Title>
        <Text c="gray.7">
          Connect Okta or Microsoft Entra ID: people assigned there are invited here, and people removed there
          are removed here (their card is cancelled and their money goes to your team pool).
        </Text>
      </div>
      {failed ? (
        <Alert color="red" variant="light" title="Provisioning could not be loaded">
          {failed}
        </Alert>
      ) : null}
      {!provisioning && !failed ? (
        <Group justify="center" py="xl">
          <Loader role="status" aria-label="Loading provisioning" />
        </Group>
      ) : null}
      {provisioning ? (
        <>
          <section aria-labelledby="scim-address-title">
            <Stack gap="xs">
              <Title order={2} size="h3" id="scim-address-title">
                SCIM base address
              </Title>
              <Text size="sm" c="gray.7">
                Your identity provider's SCIM 2.0 connector asks for it (“SCIM connector base URL” in Okta,
                “Tenant URL” in Entra).
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code style={{ wordBreak: 'break-all' }} data-testid="scim-base-url">
                  {provisioning.baseUrl}
                </Code>
                <Copy value={provisioning.baseUrl} label="SCIM base address" />
              </Group>
            </Stack>
          </section>

          <section aria-labelledby="tokens-title">
            <Stack gap="sm">
              <Title order={2} size="h3" id="tokens-title">
                Tokens
              </Title>
              {made ? (
                <NewToken token={made.token} name={made.name} onDone={() => setMade(undefined)} />
              ) : null}
              <form onSubmit={(e) => void create(e)} noValidate>
                <Group align="flex-end" gap="sm">
                  <TextInput
                    label="Token name"
                    description="Who will use it, e.g. Okta"
                    value={name}
                    onChange={(e) => setName(e.currentTarget.value)}
                    error={nameError}
                    maxLength={40}
                    style={{ flex: '1 1 220px' }}
                  />
                  <Button type="submit" loading={creating}>
                    Make a token
                  </Button>
                </Group>
              </form>
              <TokensTable tokens={provisioning.tokens} onRevoke={setRevoking} compact={phone} />
            </Stack>
          </section>

          <section aria-labelledby="budgets-title">
            <Stack gap="xs">
              <Title order={2} size="h3" id="budgets-title">
                Budgets
              </Title>
              <Text size="sm" c="gray.7" data-testid="default-budget">
                People your identity provider adds are invited with{' '}
                {formatCents(provisioning.defaultBudgetCents)} a month.
              </Text>
              <Budgets provisioning={provisioning} onSaved={setProvisioning} />
            </Stack>
          </section>
        </>
      ) : null}

      <AppModal
        opened={revoking !== undefined}
        onClose={() => setRevoking(undefined)}
        title="Revoke this token?"
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            {revoking?.name} can no longer add or remove people from its next request. People it already added
            stay. Make a new token to connect it again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(undefined)}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => void revoke()}>
              Revoke
            </Button>
          </Group>
        </Stack>
      </AppModal>
    </Stack>
  );
}
