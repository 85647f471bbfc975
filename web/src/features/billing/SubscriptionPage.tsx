/**
 * /dashboard/subscription (spec §4 "The subscription can be suspended or
 * deleted"; docs/decisions.md "Subscription lifecycle"): the manager's
 * subscription, its state in words, and suspend, resume and close, each asking
 * for confirmation with the consequences in plain words. Closing asks what to
 * do with the money left (redeem it to the card on file less the fee, or keep
 * it) with the amounts from GET /subscription. After a change `me` is
 * reloaded, so the frame's banner follows. Under it, the payments history:
 * what the card on file was charged and refunded (PaymentsTable), a page at a
 * time from the same read, and the invoices (InvoicesList), each with its PDF;
 * last, the monthly accounting export for QuickBooks Online and Xero (AccountingExport).
 */
import { Alert, Button, Group, Loader, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RouteOutput } from '@shared/api/routes';
import { ordinalDay } from '@shared/domain/billingCycle';
import { formatCents } from '@shared/domain/money';
import { useEffect, useState } from 'react';
import { call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { AppModal } from '../../components/AppModal';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { notify } from '../../stores/notifications';
import { formatDate } from '../purchases/purchaseText';
import { AccountingExport } from './AccountingExport';
import { InvoicesList } from './InvoicesList';
import { PaymentsTable } from './PaymentsTable';

/** The subscription itself, as every route of this page answers it (the read adds its payments). */
type Subscription = RouteOutput<'suspendSubscription'>;
type Payments = RouteOutput<'getSubscription'>['payments'];
type Dialog = 'suspend' | 'resume' | 'close' | undefined;

const STATE_WORDS: Record<Subscription['state'], { label: string; text: string }> = {
  running: {
    label: 'Active',
    text: 'Budgets are charged to your primary card and funded on your billing day each month.',
  },
  suspended: {
    label: 'Suspended',
    text: 'Nobody is charged and no budget is funded. Cards keep what they already hold.',
  },
  closed: {
    label: 'Closed',
    text: 'Every card is cancelled and nobody is charged again. Your records stay here to read.',
  },
};

/** Spec §9: MM/DD/YYYY, read in UTC as every date of the product. */
function formatDay(iso: string | undefined): string {
  return iso ? formatDate(iso) : '';
}

/** The next monthly charge, as the server computed it from the funding job's rules. */
function NextCharge({ billing }: { billing: NonNullable<Subscription['billing']> }) {
  const lateInMonth = billing.cycleDay > 28 ? ' (the last day in shorter months)' : '';
  return (
    <dl style={{ margin: 0 }} data-testid="next-charge">
      <Text component="dt" size="sm" fw={600}>
        Billing day
      </Text>
      <Text component="dd" size="sm" m={0} mb="xs">
        The {ordinalDay(billing.cycleDay)} of each month{lateInMonth}
      </Text>
      <Text component="dt" size="sm" fw={600}>
        Next charge
      </Text>
      <Text component="dd" size="sm" m={0} mb="xs">
        {formatDate(billing.nextChargeDate)}
      </Text>
      <Text component="dt" size="sm" fw={600}>
        Expected monthly total
      </Text>
      <Text component="dd" size="sm" m={0}>
        {formatCents(billing.expectedTotalCents)} for {billing.employees} active{' '}
        {billing.employees === 1 ? 'employee at their next budget' : 'employees at their next budgets'}
      </Text>
      {billing.invited > 0 ? (
        // The setup wizard's total counted them; here they are said apart, as they cost nothing yet.
        <Text component="dd" size="sm" m={0} mt={4} c="gray.7" data-testid="invited-cost">
          {billing.invited === 1 ? '1 invited person adds' : `${billing.invited} invited people add`}{' '}
          {formatCents(billing.invitedMonthlyCents)} a month once they join. Each is charged their first
          budget on the day they finish signing up.
        </Text>
      ) : null}
    </dl>
  );
}

export function SubscriptionPage() {
  useDocumentTitle('Subscription');
  const reloadMe = useSession((s) => s.reloadMe);
  const [subscription, setSubscription] = useState<Subscription | undefined>();
  const [failed, setFailed] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>();
  const [busy, setBusy] = useState(false);
  const [remaining, setRemaining] = useState<'redeem' | 'keep'>('redeem');
  const [closeKey, setCloseKey] = useState(() => crypto.randomUUID());

  const [payments, setPayments] = useState<Payments | undefined>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [firstOfPage, setFirstOfPage] = useState<string | undefined>();
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  useEffect(() => {
    const controller = new AbortController();
    call('getSubscription', {}, { signal: controller.signal }).then(
      ({ payments: firstPage, ...rest }) => {
        setSubscription(rest);
        setPayments(firstPage);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailed(errorMessage(error));
      },
    );
    return () => controller.abort();
  }, []);

  async function morePayments() {
    if (!payments?.nextCursor) return;
    setLoadingMore(true);
    try {
      const next = await call('getSubscription', { paymentsCursor: payments.nextCursor });
      setPayments({ rows: [...payments.rows, ...next.payments.rows], nextCursor: next.payments.nextCursor });
      setFirstOfPage(next.payments.rows[0]?.id);
    } catch (error) {
      notify({ kind: 'error', message: errorMessage(error), title: 'More payments could not be loaded' });
    } finally {
      setLoadingMore(false);
    }
  }

  const redeemable = subscription?.redeemNetCents !== undefined;
  useEffect(() => {
    if (subscription && !redeemable) setRemaining('keep');
  }, [subscription, redeemable]);

  async function act(action: Exclude<Dialog, undefined>) {
    setBusy(true);
    try {
      const next =
        action === 'suspend'
          ? await call('suspendSubscription', {})
          : action === 'resume'
            ? await call('resumeSubscription', {})
            : await call('closeSubscription', { remaining }, { idempotencyKey: `close-${closeKey}` });
      setSubscription(next);
      setDialog(undefined);
      notify({
        kind: 'success',
        message:
          action === 'suspend'
            ? 'Subscription suspended.'
            : action === 'resume'
              ? 'Subscription resumed.'
              : 'Subscription closed.',
      });
      await reloadMe().catch(() => null);
    } catch (error) {
      setDialog(undefined);
      setCloseKey(crypto.randomUUID());
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: errorMessage(error), title: 'Your subscription was not changed' });
    } finally {
      setBusy(false);
    }
  }

  const words = subscription ? STATE_WORDS[subscription.state] : undefined;
  return (
    <Stack gap="lg" maw={760}>
      <div>
        <Title order={1}>{pageHeadings.subscription.title}</Title>
        <Text c="gray.7">{pageHeadings.subscription.lead}</Text>
      </div>
      {failed ? (
        <Alert color="red" variant="light" title="Your subscription could not be loaded">
          {failed}
        </Alert>
      ) : null}
      {!subscription && !failed ? (
        <Group justify="center" py="xl">
          <Loader role="status" aria-label="Loading your subscription" />
        </Group>
      ) : null}
      {subscription && words ? (
        <Paper withBorder p="md" radius="md" data-subscription-state={subscription.state}>
          <Stack gap="sm">
            <Text fw={600} size="lg">
              {words.label}
            </Text>
            <Text size="sm">{words.text}</Text>
            {subscription.state === 'running' && subscription.billing ? (
              <NextCharge billing={subscription.billing} />
            ) : null}
            {subscription.state === 'suspended' ? (
              <Text size="sm" c="gray.7">
                {subscription.suspendedBy === 'unpaid'
                  ? `Suspended on ${formatDay(subscription.suspendedAt)} because the payment stayed unpaid. Update your card before resuming.`
                  : `Suspended on ${formatDay(subscription.suspendedAt)}.`}
              </Text>
            ) : null}
            {subscription.state === 'closed' && subscription.closing ? (
              <Text size="sm" c="gray.7" data-cents={subscription.closing.amountCents}>
                Closed on {formatDay(subscription.closedAt)}.{' '}
                {subscription.closing.amountCents === 0
                  ? 'No money was left.'
                  : subscription.closing.choice === 'redeem'
                    ? `${formatCents(subscription.closing.netCents)} was refunded to your card on file after the ${formatCents(subscription.closing.feeCents)} fee.`
                    : `${formatCents(subscription.closing.amountCents)} is kept in your team's pool; contact us to have it refunded.`}
              </Text>
            ) : null}
            <Group gap="sm">
              {subscription.state === 'running' ? (
                <Button variant="default" onClick={() => setDialog('suspend')}>
                  Suspend subscription
                </Button>
              ) : null}
              {subscription.state === 'suspended' ? (
                <Button onClick={() => setDialog('resume')}>Resume subscription</Button>
              ) : null}
              {subscription.state !== 'closed' ? (
                <Button variant="subtle" color="red" c="red.9" onClick={() => setDialog('close')}>
                  Close subscription
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Paper>
      ) : null}
      {payments ? (
        <section aria-labelledby="payments-title">
          <Stack gap="xs">
            <Title order={2} size="h3" id="payments-title">
              Payments
            </Title>
            <Text size="sm" c="gray.7">
              What your card on file was charged, and what was refunded to it.
            </Text>
            {payments.rows.length === 0 ? (
              <Text size="sm" data-testid="payments-empty">
                Nothing has been charged yet. Your card is charged when an employee joins and on your billing
                day each month.
              </Text>
            ) : (
              <PaymentsTable rows={payments.rows} compact={phone} focusRowId={firstOfPage} />
            )}
            {payments.nextCursor ? (
              <Group>
                <Button variant="default" loading={loadingMore} onClick={() => void morePayments()}>
                  Show older payments
                </Button>
              </Group>
            ) : null}
          </Stack>
        </section>
      ) : null}
      {subscription ? <InvoicesList compact={phone} /> : null}
      {subscription ? <AccountingExport /> : null}

      <AppModal
        opened={dialog === 'suspend'}
        onClose={() => setDialog(undefined)}
        title="Suspend subscription?"
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            While it is suspended, nobody is charged, no monthly budget is funded and extra deposits are off.
            Cards keep what they already hold and can still be used; freeze a card on the Employees page to
            stop it.
          </Text>
          <Text size="sm">
            You can resume any time. The months it is suspended are not charged and not funded.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(undefined)}>
              Cancel
            </Button>
            <Button loading={busy} onClick={() => void act('suspend')}>
              Suspend
            </Button>
          </Group>
        </Stack>
      </AppModal>

      <AppModal
        opened={dialog === 'resume'}
        onClose={() => setDialog(undefined)}
        title="Resume subscription?"
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            Budgets are charged to your primary card and funded again from your next billing day. Anyone who
            joined while it was suspended is charged and funded now.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(undefined)}>
              Cancel
            </Button>
            <Button loading={busy} onClick={() => void act('resume')}>
              Resume
            </Button>
          </Group>
        </Stack>
      </AppModal>

      <AppModal
        opened={dialog === 'close'}
        onClose={() => setDialog(undefined)}
        title="Close subscription?"
        centered
      >
        {subscription ? (
          <Stack gap="md">
            <Text size="sm">
              Closing cannot be undone. Every employee's card is cancelled at once (
              {subscription.cardsToCancel} card{subscription.cardsToCancel === 1 ? '' : 's'}), nobody is
              charged again, and nothing can be changed afterwards. Purchase history, receipts, statements and
              activity stay here to read.
            </Text>
            <Text size="sm" data-cents={subscription.remainingCents}>
              Money left on the cards and in the team pool: <b>{formatCents(subscription.remainingCents)}</b>
            </Text>
            {subscription.chargeBeingConfirmed ? (
              <Text size="sm" data-testid="charge-being-confirmed">
                A charge to your card is still being confirmed, so its money is not counted above yet. Closing
                adds it to the team first.
              </Text>
            ) : null}
            {subscription.remainingCents > 0 ? (
              <Radio.Group
                label="What should happen to it?"
                value={remaining}
                onChange={(value) => setRemaining(value as 'redeem' | 'keep')}
              >
                <Stack gap="xs" mt="xs">
                  <Radio
                    value="redeem"
                    disabled={!redeemable}
                    data-fee-cents={subscription.redeemFeeCents}
                    data-net-cents={subscription.redeemNetCents}
                    label={
                      redeemable
                        ? `Refund it to my card on file: ${formatCents(subscription.redeemNetCents ?? 0)} after the ${formatCents(subscription.redeemFeeCents ?? 0)} fee (15% or $5, whichever is greater)`
                        : 'Refund it to my card on file (not available for balances under $5)'
                    }
                  />
                  <Radio
                    value="keep"
                    label="Keep it in the team pool (contact us later to have it refunded)"
                  />
                </Stack>
              </Radio.Group>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(undefined)}>
                Cancel
              </Button>
              <Button color="red.9" loading={busy} onClick={() => void act('close')}>
                Close subscription
              </Button>
            </Group>
          </Stack>
        ) : null}
      </AppModal>
    </Stack>
  );
}
