/**
 * The Employees screen's confirmations. Every one names the people it acts on
 * and says what will happen before anything does; the money ones show the
 * server's own preview (the same arithmetic the ledger then posts), and a
 * money request carries one Idempotency-Key per dialog, so a double click or a
 * retry moves the money once. Success and failure words are spec §8's
 * (content/consoleMessages.ts).
 */
import {
  Alert,
  Button,
  Checkbox,
  Group,
  List,
  Loader,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import { amountDollars } from '@shared/schemas/profile';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { call, errorMessage, isStepUpCancelled } from '../../api/client';
import { AppModal } from '../../components/AppModal';
import { employeeMessages, inviteMessages } from '../../content/consoleMessages';
import { notify } from '../../stores/notifications';
import { type EmployeeRow, fullName } from './employeesStore';
import { nameList } from './employeeText';
import { ReceiptFreezeNote } from './ReceiptFreezeNote';
import { setCardsStatus } from './setCardsStatus';

function newKey(): string {
  return crypto.randomUUID();
}

/** A sentence-ready list of names: "Ann, Bob and Cy". */
export function namesOf(rows: readonly EmployeeRow[]): string {
  return nameList(rows.map(fullName));
}

export function People({ rows }: { rows: readonly EmployeeRow[] }) {
  return (
    <ScrollArea.Autosize mah={160} type="auto">
      <List size="sm" spacing={2}>
        {rows.map((row) => (
          <List.Item key={row.userId}>
            {fullName(row)}{' '}
            <Text span c="gray.7">
              ({row.email})
            </Text>
          </List.Item>
        ))}
      </List>
    </ScrollArea.Autosize>
  );
}

interface ShellProps {
  opened: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  children: ReactNode;
}

export function Shell({ opened, title, busy, onClose, children }: ShellProps) {
  return (
    <AppModal opened={opened} onClose={() => (busy ? undefined : onClose())} title={title} centered size="lg">
      {children}
    </AppModal>
  );
}

// --- Delete -------------------------------------------------------------------

export function DeleteDialog(props: { people: EmployeeRow[]; onClose: () => void; onDone: () => void }) {
  const { people, onClose, onDone } = props;
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await call('deleteEmployees', { userIds: people.map((p) => p.userId) });
      notify({ kind: 'success', message: employeeMessages.deleted });
      onDone();
    } catch (error) {
      notify({ kind: 'error', message: employeeMessages.deleteFailed(errorMessage(error)) });
      setBusy(false);
    }
  }
  const one = people.length === 1;
  return (
    <Shell
      opened
      title={one ? `Delete ${fullName(people[0] as EmployeeRow)}?` : `Delete ${people.length} employees?`}
      busy={busy}
      onClose={onClose}
    >
      <Stack gap="md">
        <Text>
          {namesOf(people)} will no longer be able to sign in, and {one ? 'their card is' : 'their cards are'}{' '}
          cancelled. Any money left on {one ? 'it' : 'them'} goes to the team&apos;s pool, where you can
          reallocate it to other employees or redeem it.
        </Text>
        {people.length > 3 ? <People rows={people} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color="red.8" loading={busy} onClick={() => void confirm()}>
            Delete {one ? 'employee' : `${people.length} employees`}
          </Button>
        </Group>
      </Stack>
    </Shell>
  );
}

// --- Withdraw invitations -----------------------------------------------------

/**
 * Withdraws pending invitations: their e-mailed links stop working. Invited
 * people have no name yet, so the dialog names them by address. One already
 * signed up by the time it arrives is left as they are and said so.
 */
export function WithdrawInvitationsDialog(props: {
  people: EmployeeRow[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { people, onClose, onDone } = props;
  const [busy, setBusy] = useState(false);
  const emails = people.map((p) => p.email);
  async function confirm() {
    setBusy(true);
    try {
      const { results } = await call('withdrawInvitations', { userIds: people.map((p) => p.userId) });
      const joined = results.filter((r) => r.result === 'alreadyJoined').map((r) => r.email);
      // Not pending any more either way (withdrawn here, or a moment ago elsewhere): gone from the list.
      const gone = results.filter((r) => r.result === 'withdrawn' || r.result === 'notInvited').length;
      if (gone > 0) notify({ kind: 'success', message: employeeMessages.withdrawn(gone) });
      if (joined.length > 0)
        notify({ kind: 'info', message: employeeMessages.alreadyJoined(nameList(joined)) });
      onDone();
    } catch (error) {
      notify({ kind: 'error', message: employeeMessages.withdrawFailed(errorMessage(error)) });
      setBusy(false);
    }
  }
  const one = people.length === 1;
  return (
    <Shell
      opened
      title={one ? `Withdraw the invitation to ${emails[0]}?` : `Withdraw ${people.length} invitations?`}
      busy={busy}
      onClose={onClose}
    >
      <Stack gap="md" data-testid="withdraw-dialog">
        <Text style={{ overflowWrap: 'anywhere' }}>
          {people.length > 3 ? 'These people' : nameList(emails)} will no longer be able to join your team
          with the link we emailed. Nothing was charged for {one ? 'this invitation' : 'these invitations'},
          and you can invite them again at any time.
        </Text>
        {people.length > 3 ? (
          <ScrollArea.Autosize mah={160} type="auto">
            <List size="sm" spacing={2} aria-label="Invitations to withdraw">
              {emails.map((email) => (
                <List.Item key={email} style={{ overflowWrap: 'anywhere' }}>
                  {email}
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color="red.8" loading={busy} onClick={() => void confirm()}>
            {one ? 'Withdraw invitation' : `Withdraw ${people.length} invitations`}
          </Button>
        </Group>
      </Stack>
    </Shell>
  );
}

// --- Resend an invitation ----------------------------------------------------

/**
 * Sends a pending invitation's e-mail again with the budget it already offers,
 * so a resend never changes it (/inviteMembers would start from $25). The
 * server's daily cap per address may hold the e-mail back; the manager is
 * told so instead of "sent".
 */
export function ResendInvitationDialog(props: {
  person: EmployeeRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { person, onClose, onDone } = props;
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      const { results } = await call('inviteEmployees', {
        emails: person.email,
        budget: person.budgetCents / 100,
      });
      const answer = results[0];
      if (answer?.result === 'reinvited' || answer?.result === 'invited') {
        notify(
          answer.emailed === false
            ? { kind: 'error', message: employeeMessages.resendHeld(person.email) }
            : { kind: 'success', message: employeeMessages.resent(person.email) },
        );
      } else {
        // Signed up meanwhile, or taken by another team: the list shows what happened.
        notify({
          kind: 'error',
          message: inviteMessages.failed(
            answer?.result === 'alreadyRegistered'
              ? `${person.email} has already signed up`
              : `${person.email} could not be invited`,
          ),
        });
      }
      onDone();
    } catch (error) {
      // The same budget again commits nothing new, so no step-up is due; cancelling one is no error.
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: inviteMessages.failed(errorMessage(error)) });
      setBusy(false);
    }
  }
  return (
    <Shell opened title={`Send the invitation to ${person.email} again?`} busy={busy} onClose={onClose}>
      <Stack gap="md" data-testid="resend-dialog">
        <Text style={{ overflowWrap: 'anywhere' }}>
          We email {person.email} the link to join your team again. The monthly budget stays{' '}
          {formatCents(person.budgetCents)}, and nothing is charged until they have signed up and confirmed
          their email address.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void confirm()}>
            Resend invitation
          </Button>
        </Group>
      </Stack>
    </Shell>
  );
}

// --- Freeze / activate one card -----------------------------------------------

export function CardStatusDialog(props: {
  person: EmployeeRow;
  status: 'active' | 'inactive';
  onClose: () => void;
  onDone: () => void;
}) {
  const { person, status, onClose, onDone } = props;
  const [busy, setBusy] = useState(false);
  const freezing = status === 'inactive';
  const receiptFreeze = !freezing && person.freezeReasons.includes('missingReceipt');
  async function confirm() {
    setBusy(true);
    if (await setCardsStatus([person.userId], status)) onDone();
    else setBusy(false);
  }
  return (
    <Shell
      opened
      title={`${freezing ? 'Freeze' : 'Activate'} ${fullName(person)}'s card?`}
      busy={busy}
      onClose={onClose}
    >
      <Stack gap="md">
        <Text>
          {freezing
            ? `${fullName(person)} will not be able to pay with the card until you activate it again. The money on it stays.`
            : receiptFreeze
              ? `${fullName(person)} will be able to pay with the card again until the next receipt check.`
              : `${fullName(person)} will be able to pay with the card again.`}
        </Text>
        {receiptFreeze ? (
          <ReceiptFreezeNote names={[fullName(person)]} whose="this" overdue={person.receiptsOverdue} />
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={freezing ? 'red.8' : undefined} loading={busy} onClick={() => void confirm()}>
            {freezing ? 'Freeze card' : 'Activate card'}
          </Button>
        </Group>
      </Stack>
    </Shell>
  );
}

// --- Reallocate -----------------------------------------------------------------

type ReallocationPreview = RouteOutput<'previewReallocation'>;

export function ReallocateDialog(props: {
  from: EmployeeRow[];
  candidates: EmployeeRow[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { from, candidates, onClose, onDone } = props;
  const [all, setAll] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | undefined>();
  const [preview, setPreview] = useState<ReallocationPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [key] = useState(newKey);
  const names = new Map(candidates.map((c) => [c.userId, fullName(c)]));
  const input = {
    deletedUserIds: from.map((p) => p.userId),
    receiverIds: all ? [] : [...chosen],
    allEmployees: all,
  };

  function toggle(userId: string, on: boolean) {
    setError(undefined);
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(userId);
      else next.delete(userId);
      return next;
    });
  }

  async function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!all && chosen.size === 0) {
      setError(employeeMessages.selectReceiver);
      return;
    }
    setBusy(true);
    try {
      setPreview(await call('previewReallocation', input));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    setBusy(true);
    try {
      await call('reallocateFunds', input, {
        idempotencyKey: key,
        freshFactor: preview?.needsFreshFactor,
      });
      notify({ kind: 'success', message: employeeMessages.reallocated });
      onDone();
    } catch (failure) {
      if (!isStepUpCancelled(failure))
        notify({ kind: 'error', message: employeeMessages.reallocateFailed(errorMessage(failure)) });
      setBusy(false);
    }
  }

  return (
    <Shell opened title="Reallocate remaining budget" busy={busy} onClose={onClose}>
      {preview ? (
        <Stack gap="md">
          <Text>
            {formatCents(preview.amountCents)} from {namesOf(from)} goes to these employees, free of fee:
          </Text>
          <Table aria-label="Reallocation shares" data-testid="reallocation-preview">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Employee</Table.Th>
                <Table.Th ta="right">Receives</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.shares.map((share) => (
                <Table.Tr key={share.userId} data-user-id={share.userId}>
                  <Table.Td>{names.get(share.userId) ?? share.userId}</Table.Td>
                  <Table.Td ta="right" data-cents={share.amountCents}>
                    {formatCents(share.amountCents)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>Total</Table.Th>
                <Table.Th ta="right">{formatCents(preview.amountCents)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPreview(null)} disabled={busy}>
              Back
            </Button>
            <Button loading={busy} onClick={() => void confirm()}>
              Reallocate {formatCents(preview.amountCents)}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={review} noValidate>
          <Stack gap="md">
            <Text>
              Choose who receives the remaining budget of {namesOf(from)}. It is split evenly, free of fee.
            </Text>
            <Checkbox
              label="All employees"
              description="Every active employee of the team"
              checked={all}
              onChange={(event) => {
                setAll(event.currentTarget.checked);
                setError(undefined);
              }}
            />
            <fieldset disabled={all} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
              <legend style={{ fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)', marginBottom: 8 }}>
                Or choose employees
              </legend>
              <ScrollArea.Autosize mah={220} type="auto">
                <Stack gap={8} pr="sm">
                  {candidates.map((c) => (
                    <Checkbox
                      key={c.userId}
                      label={`${fullName(c)} (${c.email})`}
                      checked={all || chosen.has(c.userId)}
                      onChange={(event) => toggle(c.userId, event.currentTarget.checked)}
                    />
                  ))}
                  {candidates.length === 0 ? (
                    <Text c="gray.7">No active employees to receive it.</Text>
                  ) : null}
                </Stack>
              </ScrollArea.Autosize>
            </fieldset>
            {error ? (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Review shares
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Shell>
  );
}

// --- Redeem -----------------------------------------------------------------------

type RedemptionPreview = RouteOutput<'previewRedemption'>;

export function RedeemDialog(props: { from: EmployeeRow[]; onClose: () => void; onDone: () => void }) {
  const { from, onClose, onDone } = props;
  const [preview, setPreview] = useState<RedemptionPreview | null>(null);
  const [refused, setRefused] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [key] = useState(newKey);
  const deletedUserIds = from.map((p) => p.userId);
  const names = new Map(from.map((p) => [p.userId, fullName(p)]));
  const idsKey = deletedUserIds.join(',');

  useEffect(() => {
    let live = true;
    call('previewRedemption', { deletedUserIds: idsKey.split(',') }).then(
      (answer) => live && setPreview(answer),
      (failure: unknown) => live && setRefused(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [idsKey]);

  async function confirm() {
    setBusy(true);
    try {
      await call('redeemFunds', { deletedUserIds }, { idempotencyKey: key });
      notify({ kind: 'success', message: employeeMessages.redeemed });
      onDone();
    } catch (failure) {
      if (!isStepUpCancelled(failure))
        notify({ kind: 'error', message: employeeMessages.redeemFailed(errorMessage(failure)) });
      setBusy(false);
    }
  }

  return (
    <Shell opened title="Redeem to your card" busy={busy} onClose={onClose}>
      <Stack gap="md">
        <Text>
          The remaining budget of {namesOf(from)} is refunded to your card, less a fee of 15% or $5.00,
          whichever is greater. Balances under $5.00 cannot be redeemed.
        </Text>
        {refused ? (
          <Alert color="red" variant="light" title="This cannot be redeemed" role="alert">
            {refused}
          </Alert>
        ) : !preview ? (
          <Group justify="center">
            <Loader size="sm" role="status" aria-label="Working out the fee" />
          </Group>
        ) : (
          <Table aria-label="Redemption" data-testid="redemption-preview">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>From</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th ta="right">Fee</Table.Th>
                <Table.Th ta="right">To your card</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.people.map((p) => (
                <Table.Tr key={p.userId}>
                  <Table.Td>{names.get(p.userId) ?? p.userId}</Table.Td>
                  <Table.Td ta="right">{formatCents(p.amountCents)}</Table.Td>
                  <Table.Td ta="right">{formatCents(p.feeCents)}</Table.Td>
                  <Table.Td ta="right">{formatCents(p.netCents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            {preview.people.length > 1 ? (
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th>Total</Table.Th>
                  <Table.Th ta="right">{formatCents(preview.amountCents)}</Table.Th>
                  <Table.Th ta="right">{formatCents(preview.feeCents)}</Table.Th>
                  <Table.Th ta="right">{formatCents(preview.netCents)}</Table.Th>
                </Table.Tr>
              </Table.Tfoot>
            ) : null}
          </Table>
        )}
        {preview ? (
          <Text
            size="sm"
            data-testid="redemption-summary"
            data-fee-cents={preview.feeCents}
            data-net-cents={preview.netCents}
          >
            Fee {formatCents(preview.feeCents)}; {formatCents(preview.netCents)} goes back to your card.
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {refused ? 'Close' : 'Cancel'}
          </Button>
          {preview ? (
            <Button loading={busy} onClick={() => void confirm()}>
              Redeem {formatCents(preview.netCents)}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Shell>
  );
}

// --- Extra deposit ------------------------------------------------------------------

type DepositPreview = RouteOutput<'previewDeposit'>;

/**
 * Two steps: the amount, then the server's preview of the total charged to the
 * team's card (refused there, with the team's daily limit named, when it would
 * exceed it); only the second step charges.
 */
export function DepositDialog(props: { person: EmployeeRow; onClose: () => void; onDone: () => void }) {
  const { person, onClose, onDone } = props;
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [preview, setPreview] = useState<DepositPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [key] = useState(newKey);
  const parsed = amountDollars.safeParse(amount);

  async function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter an amount in whole dollars');
      return;
    }
    if (parsed.data <= 0) {
      setError('Amount must be more than $0');
      return;
    }
    setBusy(true);
    try {
      setPreview(await call('previewDeposit', { userIds: [person.userId], amount }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
    setBusy(false);
  }

  async function confirm() {
    setBusy(true);
    try {
      const { results } = await call(
        'depositFunds',
        { userIds: [person.userId], amount },
        { idempotencyKey: key, freshFactor: preview?.needsFreshFactor },
      );
      const mine = results.find((r) => r.userId === person.userId);
      if (mine?.status === 'credited') {
        notify({ kind: 'success', message: employeeMessages.deposited });
        onDone();
      } else {
        notify({
          kind: 'error',
          message: employeeMessages.depositFailed(mine?.message ?? 'The deposit was not made.'),
        });
        setBusy(false);
      }
    } catch (failure) {
      // Cancelling 'Confirm it is you' is the person's choice: nothing was charged, the dialog stays.
      if (!isStepUpCancelled(failure))
        notify({ kind: 'error', message: employeeMessages.depositFailed(errorMessage(failure)) });
      setBusy(false);
    }
  }

  return (
    <Shell opened title={`Extra deposit for ${fullName(person)}`} busy={busy} onClose={onClose}>
      {preview ? (
        <Stack gap="md">
          <Text data-testid="deposit-summary" data-total-cents={preview.totalCents}>
            {formatCents(preview.totalCents)} will be charged to your team's card now and added to{' '}
            {fullName(person)}'s card when the charge succeeds.
          </Text>
          <Text size="sm" c="gray.7">
            Your team can deposit {formatCents(preview.remainingTodayCents)} more today (daily limit{' '}
            {formatCents(preview.dailyLimitCents)}).
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPreview(null)} disabled={busy}>
              Back
            </Button>
            <Button loading={busy} onClick={() => void confirm()}>
              Charge {formatCents(preview.totalCents)}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={review} noValidate>
          <Stack gap="md">
            <TextInput
              label="Amount"
              description="Whole dollars. Charged to your team's card at once and added to the card when the charge succeeds."
              inputMode="numeric"
              leftSection="$"
              maxLength={7}
              data-autofocus
              value={amount}
              error={error}
              onChange={(event) => {
                setAmount(event.currentTarget.value);
                setError(undefined);
              }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" loading={busy} disabled={amount.trim() === ''}>
                Review
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Shell>
  );
}
