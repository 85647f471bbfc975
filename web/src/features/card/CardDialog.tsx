/**
 * The virtual card dialog (spec §2 "Virtual card dialog"): what the card can
 * spend and what is on hold, the last declined purchase with its reason, the
 * card itself and what it may be used for, and "Will this be approved?".
 *
 * Active: number, expiry and CVC in the issuer's frame (./CardFrame.tsx), the
 * cardholder and billing address from our records beside it. Frozen: 'Virtual
 * Card Frozen', what lifts the freeze (receipts, or the manager), and the
 * number masked; the frame is not loaded at all (the server refuses its key).
 */
import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatCents } from '@shared/domain/money';
import { declineCodeOf, declineWithNextStep } from '@shared/domain/spendPolicy';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { AppModal } from '../../components/AppModal';
import { cardDialogMessages as text } from '../../content/consoleMessages';
import { COPIED_NOTICE_MS } from '../../content/timings';
import { type Balance, useCard } from '../../stores/card';
import { formatDateTime } from '../../stores/teamCalendar';
import { useRequests } from '../requests/requestStore';
import { requestText } from '../requests/requestText';
import { CardFrame } from './CardFrame';
import { announceCopied } from './copied';
import { PurchaseCheck } from './PurchaseCheck';

function expiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

function Amounts({ balance }: { balance: Balance }) {
  return (
    <SimpleGrid cols={2} spacing="sm">
      <Paper withBorder p="sm" radius="md">
        <Text size="sm" c="gray.7">
          Remaining budget
        </Text>
        <Text fw={700} size="xl" data-testid="card-available">
          {formatCents(balance.availableCents)}
        </Text>
      </Paper>
      <Paper withBorder p="sm" radius="md">
        <Text size="sm" c="gray.7">
          On hold
        </Text>
        <Text fw={700} size="xl" data-testid="card-on-hold">
          {formatCents(balance.onHoldCents)}
        </Text>
      </Paper>
    </SimpleGrid>
  );
}

function LastDecline({ decline }: { decline: NonNullable<Balance['lastDecline']> }) {
  const openRequest = useRequests((s) => s.open);
  const closeCard = useCard((s) => s.closeDialog);
  return (
    <Alert color="red" variant="light" title={text.lastDecline} data-testid="last-decline">
      <Text size="sm" c="dark">
        {formatCents(decline.amountCents)} at {decline.merchant}, {formatDateTime(decline.at)}
      </Text>
      <Text size="sm" c="dark" fw={600}>
        {declineWithNextStep(decline.reason)}
      </Text>
      {declineCodeOf(decline.reason) === 'over_balance' ? (
        <Button
          mt="xs"
          size="xs"
          onClick={() => {
            closeCard();
            openRequest({ merchant: decline.merchant, amountCents: decline.amountCents });
          }}
        >
          {requestText.askButton}
        </Button>
      ) : null}
    </Alert>
  );
}

function BillingDetails({ card }: { card: NonNullable<Balance['card']> }) {
  const address = card.billingAddress;
  const addressText = address
    ? `${address.address1}${address.address2 ? `, ${address.address2}` : ''}, ${address.city}, ${address.state.toUpperCase()} ${address.zip}`
    : '';
  return (
    <Stack gap={6}>
      <div>
        <Text size="sm" c="gray.7">
          Cardholder
        </Text>
        <Text fw={600}>{card.cardholderName}</Text>
      </div>
      {address ? (
        <Group justify="space-between" align="flex-end" wrap="nowrap" gap="sm">
          <div>
            <Text size="sm" c="gray.7">
              Billing address
            </Text>
            <Text>{address.address1}</Text>
            {address.address2 ? <Text>{address.address2}</Text> : null}
            <Text>
              {address.city}, {address.state.toUpperCase()} {address.zip}
            </Text>
          </div>
          <CopyButton value={addressText} timeout={COPIED_NOTICE_MS}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                size="xs"
                onClick={() => {
                  copy();
                  announceCopied();
                }}
              >
                {copied ? 'Copied!' : 'Copy address'}
              </Button>
            )}
          </CopyButton>
        </Group>
      ) : null}
    </Stack>
  );
}

function FrozenCard({ balance }: { balance: Balance }) {
  const reason = balance.freezeReason ?? 'manager';
  return (
    <Stack gap="sm">
      {/* No title of its own: the dialog's title already says 'Virtual Card Frozen' (spec §3). */}
      <Alert color="orange" variant="light" data-testid="frozen-notice">
        <Text size="sm" c="dark">
          {text.frozenNotice[reason]}
        </Text>
      </Alert>
      <Paper p="md" radius="md" bg="gray.1" aria-label="Card number, hidden while frozen">
        <Text size="sm" c="gray.7">
          Card number
        </Text>
        <Text ff="monospace" fz="lg" data-testid="masked-number">
          •••• •••• •••• {balance.last4 ?? '••••'}
        </Text>
        {balance.card ? (
          <>
            <Text size="sm" c="gray.7" mt="xs">
              Expiry (MM/YY)
            </Text>
            <Text ff="monospace">{expiry(balance.card.expMonth, balance.card.expYear)}</Text>
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}

function CardBody({ balance }: { balance: Balance }) {
  if (balance.cardStatus === 'pending' || !balance.card) return <Text>{text.pending}</Text>;
  if (balance.cardStatus === 'canceled') return <Text>{text.cancelled}</Text>;
  return (
    <Stack gap="md">
      {balance.cardStatus === 'inactive' ? <FrozenCard balance={balance} /> : <CardFrame />}
      <BillingDetails card={balance.card} />
    </Stack>
  );
}

export function CardDialog() {
  const opened = useCard((s) => s.dialogOpen);
  const close = useCard((s) => s.closeDialog);
  const balance = useCard((s) => s.balance);
  const error = useCard((s) => s.error);
  const refresh = useCard((s) => s.refresh);
  const phone = useMediaQuery('(max-width: 36em)');

  useEffect(() => {
    if (opened) void refresh();
  }, [opened, refresh]);

  const frozen = balance?.cardStatus === 'inactive';
  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={frozen ? text.frozenTitle : text.title}
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {balance === null ? (
        <Text c={error ? 'red.9' : undefined} role={error ? 'alert' : undefined}>
          {error ?? 'Loading your card…'}
        </Text>
      ) : (
        <Stack gap="md">
          <Amounts balance={balance} />
          <Anchor component={Link} to="/dashboard/statement" onClick={close} size="sm">
            See every movement on your card (statement)
          </Anchor>
          {balance.lastDecline ? <LastDecline decline={balance.lastDecline} /> : null}
          <CardBody balance={balance} />
          <Text size="sm" c="gray.7">
            {text.usedFor}
          </Text>
          {balance.card ? (
            <>
              <Divider />
              <PurchaseCheck />
            </>
          ) : null}
        </Stack>
      )}
    </AppModal>
  );
}
