/**
 * Requests (issue 27). Employees: their own requests with each one's state,
 * cancel while waiting, and "Request funds" for anything not in the shop.
 * Managers: the team's requests (waiting first), approve each (the amount
 * asked, or less) or several at once, decline with a reason, and the team's
 * rules. `/dashboard/requests/<id>` (the e-mailed link) opens the page with
 * that request shown and focused; it never approves anything by itself.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import type { RequestView } from '@shared/schemas/requests';
import { type FormEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { ApiError, call, errorMessage } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { AppModal } from '../../components/AppModal';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { notify } from '../../stores/notifications';
import { formatDate } from '../../stores/teamCalendar';
import { dollarsText, useRequests } from './requestStore';
import { requestText, STATE_COLORS, stateLine } from './requestText';

type Filter = 'pending' | 'approved' | 'declined' | 'all';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'pending', label: 'Waiting for you' },
  { value: 'approved', label: 'Approved' },
  { value: 'declined', label: 'Declined' },
  { value: 'all', label: 'All requests' },
];

export function RequestsPage() {
  useDocumentTitle('Requests');
  const role = useSession((s) => s.me?.role);
  return (
    <Stack gap="lg">
      <Title order={1}>Requests</Title>
      {role === 'manager' ? <ManagerRequests /> : role === 'employee' ? <EmployeeRequests /> : null}
    </Stack>
  );
}

function useRequestList(load: (signal: AbortSignal) => Promise<RequestView[]>, deps: unknown[]) {
  const [requests, setRequests] = useState<RequestView[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');
  const changed = useRequests((s) => s.changed);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `changed` and `deps` are the reasons to read again.
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal)
      .then((list) => {
        setRequests(list);
        setStatus('ready');
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        setError(errorMessage(e));
        setStatus('error');
      });
    return () => abort.abort();
  }, [changed, ...deps]);
  return { requests, status, error };
}

/** The request the e-mailed link names: scrolled to and focused once it is on the page. */
function useLinkedRequest(requests: RequestView[]) {
  const { requestId } = useParams();
  const focused = useRef<string | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list may hold the request the link names.
  useEffect(() => {
    if (!requestId || focused.current === requestId) return;
    const element = document.getElementById(`request-${requestId}`);
    if (!element) return;
    focused.current = requestId;
    element.scrollIntoView({ block: 'center' });
    element.focus();
  }, [requestId, requests]);
  return requestId;
}

function RequestSummary({ request, viewer }: { request: RequestView; viewer: 'employee' | 'manager' }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          {viewer === 'manager' ? (
            <Text size="sm" fw={600}>
              {request.name}
            </Text>
          ) : null}
          <Text fw={700} component="h3" size="md" style={{ overflowWrap: 'anywhere' }}>
            {request.link ? (
              <Anchor href={request.link} target="_blank" rel="noopener noreferrer" inherit>
                {request.title}
              </Anchor>
            ) : (
              request.title
            )}
          </Text>
          <Text size="sm" c="gray.7">
            {request.merchant} · {request.skillArea}
          </Text>
        </div>
        <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
          {formatCents(request.amountCents)}
        </Text>
      </Group>
      <Group gap="xs">
        <Badge color={STATE_COLORS[request.state]} variant="light" c="dark">
          {stateLine(request, viewer)}
        </Badge>
        <Text size="sm" c="gray.7">
          Asked {formatDate(request.createdAt)}
          {request.state === 'pending' ? ` · expires ${formatDate(request.expiresAt)}` : ''}
          {request.decidedAt && request.state !== 'pending' ? ` · ${formatDate(request.decidedAt)}` : ''}
        </Text>
      </Group>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Text span fw={600} inherit>
          Why:{' '}
        </Text>
        {request.why}
      </Text>
      {request.declineReason ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span fw={600} inherit>
            Reason:{' '}
          </Text>
          {request.declineReason}
        </Text>
      ) : null}
      {request.cardDecline ? (
        <Text size="sm" c="red.9">
          {viewer === 'manager'
            ? `The team's card was declined, so nothing was charged: ${request.cardDecline}`
            : 'Your manager approved it, but the team’s card was declined. It is still waiting for them.'}
        </Text>
      ) : null}
    </Stack>
  );
}

/** One request in either list: the summary, the outline when the e-mailed link names it, and the viewer's actions. */
function RequestCard({
  request,
  viewer,
  linked,
  children,
}: {
  request: RequestView;
  viewer: 'employee' | 'manager';
  linked: boolean;
  children: ReactNode;
}) {
  return (
    <li>
      <Card
        withBorder
        padding="md"
        id={`request-${request.requestId}`}
        tabIndex={-1}
        data-state={request.state}
        style={linked ? { outline: '2px solid var(--mantine-color-blue-8)' } : undefined}
      >
        <RequestSummary request={request} viewer={viewer} />
        {children}
      </Card>
    </li>
  );
}

// --- Employee --------------------------------------------------------------------

function EmployeeRequests() {
  const open = useRequests((s) => s.open);
  const markChanged = useRequests((s) => s.markChanged);
  const { requests, status, error } = useRequestList(
    async (signal) => (await call('listRequests', {}, { signal })).requests,
    [],
  );
  const linked = useLinkedRequest(requests);
  const [busy, setBusy] = useState<string | undefined>();

  async function cancel(requestId: string) {
    setBusy(requestId);
    try {
      await call('actOnRequest', { action: 'cancel', requestId }, { idempotencyKey: crypto.randomUUID() });
      notify({ kind: 'success', message: requestText.cancelled });
      markChanged();
    } catch (e) {
      notify({ kind: 'error', message: errorMessage(e) });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Text>Ask your manager for funds for something above your balance.</Text>
        <Button onClick={() => open({})}>{requestText.newRequest}</Button>
      </Group>
      {status === 'loading' ? <Loader role="status" aria-label="Loading requests" /> : null}
      {status === 'error' ? (
        <Alert color="red" title="Could not load your requests">
          {error}
        </Alert>
      ) : null}
      {status === 'ready' && requests.length === 0 ? <Text>{requestText.noneEmployee}</Text> : null}
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {requests.map((r) => (
          <RequestCard key={r.requestId} request={r} viewer="employee" linked={linked === r.requestId}>
            {r.state === 'pending' ? (
              <Group justify="flex-end" mt="sm">
                <Button
                  variant="default"
                  onClick={() => void cancel(r.requestId)}
                  loading={busy === r.requestId}
                  aria-label={`Cancel the request for ${r.title}`}
                >
                  Cancel request
                </Button>
              </Group>
            ) : null}
          </RequestCard>
        ))}
      </Stack>
    </Stack>
  );
}

// --- Manager ---------------------------------------------------------------------

function ManagerRequests() {
  const { requestId } = useParams();
  const [filter, setFilter] = useState<Filter>(requestId ? 'all' : 'pending');
  const { requests, status, error } = useRequestList(
    async (signal) =>
      (await call('listRequests', filter === 'all' ? {} : { state: filter }, { signal })).requests,
    [filter],
  );
  const linked = useLinkedRequest(requests);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [declining, setDeclining] = useState<RequestView | undefined>();
  const markChanged = useRequests((s) => s.markChanged);
  const pending = useMemo(() => requests.filter((r) => r.state === 'pending'), [requests]);

  useEffect(() => {
    setSelected((s) => new Set([...s].filter((id) => pending.some((r) => r.requestId === id))));
  }, [pending]);

  const approve = useCallback(
    async (ids: string[]) => {
      setBusy(true);
      try {
        const approvals = ids.map((id) => {
          const r = requests.find((x) => x.requestId === id);
          const typed = amounts[id];
          return typed !== undefined && r && typed !== dollarsText(r.amountCents)
            ? { requestId: id, amount: typed }
            : { requestId: id };
        });
        const { results = [] } = await call(
          'actOnRequest',
          { action: 'approve', approvals },
          { idempotencyKey: crypto.randomUUID() },
        );
        const done = results.filter((r) => r.status === 'approved').length;
        if (done > 0) notify({ kind: 'success', message: requestText.approved(done) });
        for (const r of results.filter((x) => x.status !== 'approved')) {
          const title = requests.find((x) => x.requestId === r.requestId)?.title ?? 'A request';
          notify({ kind: 'error', message: `${title}: ${r.message ?? 'not approved.'}` });
        }
        setSelected(new Set());
        markChanged();
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 'STEP_UP_CANCELLED'))
          notify({ kind: 'error', message: errorMessage(e) });
      } finally {
        setBusy(false);
      }
    },
    [amounts, requests, markChanged],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm" align="flex-end">
        <Select
          label="Show"
          data={FILTERS}
          value={filter}
          onChange={(v) => v && setFilter(v as Filter)}
          allowDeselect={false}
          w={220}
        />
        {pending.length > 0 ? (
          <Button
            disabled={selected.size === 0}
            loading={busy}
            onClick={() => void approve([...selected])}
            data-testid="approve-selected"
          >
            {selected.size > 0 ? `Approve selected (${selected.size})` : 'Approve selected'}
          </Button>
        ) : null}
      </Group>
      {status === 'loading' ? <Loader role="status" aria-label="Loading requests" /> : null}
      {status === 'error' ? (
        <Alert color="red" title="Could not load the requests">
          {error}
        </Alert>
      ) : null}
      {status === 'ready' && requests.length === 0 ? <Text>{requestText.noneManager}</Text> : null}
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {requests.map((r) => (
          <RequestCard key={r.requestId} request={r} viewer="manager" linked={linked === r.requestId}>
            {r.state === 'pending' ? (
              <Group mt="sm" gap="sm" align="flex-end" justify="space-between">
                <Checkbox
                  label="Select"
                  aria-label={`Select the request for ${r.title} from ${r.name}`}
                  checked={selected.has(r.requestId)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setSelected((s) => {
                      const next = new Set(s);
                      if (on) next.add(r.requestId);
                      else next.delete(r.requestId);
                      return next;
                    });
                  }}
                />
                <Group gap="sm" align="flex-end">
                  <TextInput
                    label="Amount to approve"
                    leftSection="$"
                    inputMode="decimal"
                    w={170}
                    value={amounts[r.requestId] ?? dollarsText(r.amountCents)}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      setAmounts((a) => ({ ...a, [r.requestId]: value }));
                    }}
                  />
                  <Button
                    onClick={() => void approve([r.requestId])}
                    loading={busy}
                    aria-label={`Approve the request for ${r.title} from ${r.name}`}
                  >
                    Approve
                  </Button>
                  <Button
                    variant="default"
                    onClick={() => setDeclining(r)}
                    aria-label={`Decline the request for ${r.title} from ${r.name}`}
                  >
                    Decline
                  </Button>
                </Group>
              </Group>
            ) : null}
          </RequestCard>
        ))}
      </Stack>
      <DeclineDialog request={declining} onClose={() => setDeclining(undefined)} />
      <RulesSection />
    </Stack>
  );
}

function DeclineDialog({ request, onClose }: { request: RequestView | undefined; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const markChanged = useRequests((s) => s.markChanged);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each request opened starts with an empty reason.
  useEffect(() => {
    setReason('');
    setError('');
  }, [request]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!request) return;
    setBusy(true);
    try {
      await call(
        'actOnRequest',
        { action: 'decline', requestId: request.requestId, reason },
        { idempotencyKey: crypto.randomUUID() },
      );
      notify({ kind: 'success', message: requestText.declined });
      markChanged();
      onClose();
    } catch (e) {
      setError(e instanceof ApiError && e.fields?.reason ? String(e.fields.reason) : errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AppModal opened={request !== undefined} onClose={onClose} title="Decline this request">
      {request ? (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Text>
              {request.name} asked for {formatCents(request.amountCents)} for “{request.title}”. They will be
              e-mailed your reason.
            </Text>
            <Textarea
              label="Reason"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={error || undefined}
              maxLength={300}
              autosize
              minRows={2}
              required
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" color="red.9" loading={busy}>
                Decline request
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </AppModal>
  );
}

/** The team's rules: automatic approval a person a month, and the largest request (blank: off). */
function RulesSection() {
  const [auto, setAuto] = useState('');
  const [max, setMax] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    call('listRequests', { state: 'pending' })
      .then(({ rules }) => {
        if (!rules) return;
        setAuto(rules.autoApproveMonthlyCents === null ? '' : dollarsText(rules.autoApproveMonthlyCents));
        setMax(rules.maxRequestCents === null ? '' : dollarsText(rules.maxRequestCents));
      })
      .catch(() => undefined);
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      // The rules move money without a click: a fresh factor is asked for first.
      await call(
        'actOnRequest',
        {
          action: 'setRules',
          autoApproveMonthly: auto.trim() === '' ? null : auto,
          maxRequest: max.trim() === '' ? null : max,
        },
        { idempotencyKey: crypto.randomUUID(), freshFactor: true },
      );
      notify({ kind: 'success', message: 'Request rules saved.' });
    } catch (e) {
      if (e instanceof ApiError && e.fields) {
        const f = e.fields as Record<string, string>;
        setErrors({ auto: f.autoApproveMonthly ?? '', max: f.maxRequest ?? '' });
      } else if (!(e instanceof ApiError && e.code === 'STEP_UP_CANCELLED'))
        notify({ kind: 'error', message: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="request-rules-title">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id="request-rules-title">
            Request rules
          </Title>
          <Text size="sm">Leave a field empty to turn its rule off. Both are off until you set them.</Text>
          <TextInput
            label="Approve requests automatically up to this much a person a month"
            description="Charged to your team's card without a click, within your daily deposit limit."
            leftSection="$"
            inputMode="decimal"
            value={auto}
            onChange={(e) => setAuto(e.currentTarget.value)}
            error={errors.auto || undefined}
            maw={420}
          />
          <TextInput
            label="Largest request an employee may send"
            leftSection="$"
            inputMode="decimal"
            value={max}
            onChange={(e) => setMax(e.currentTarget.value)}
            error={errors.max || undefined}
            maw={420}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Save rules
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
