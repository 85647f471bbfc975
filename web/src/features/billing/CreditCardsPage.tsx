/**
 * /dashboard/creditcard (spec §2 "Credit card screens", §8): the manager's
 * cards on file by brand and last4, the primary one marked; set another as
 * primary ('Change primary card successfully!'); delete, offered only while
 * more than one card is on file ('Deleted card successfully!'); and the way to
 * /dashboard/addcreditcard. The server holds the same rules
 * (services/billing/cardsOnFile.ts). After a change `me` is reloaded, so the past-due
 * banner goes once the new primary card has paid what was waiting.
 */
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { cardOnFileName } from '@shared/domain/cardBrand';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { AppModal } from '../../components/AppModal';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { cardMessages } from '../../content/consoleMessages';
import { pageHeadings } from '../../content/pageHeadings';
import { notify } from '../../stores/notifications';

type Customer = RouteOutput<'getCustomer'>;
type Card = Customer['cards'][number];

type Load =
  | { state: 'loading' }
  | { state: 'notSetUp' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; customer: Customer };

/** 'Visa ending in 4242': how a card is named on screen and in button labels. */
export function cardName(card: Pick<Card, 'brand' | 'last4'>): string {
  return cardOnFileName(card);
}

function expiry(card: Card): string {
  return `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
}

export function CreditCardsPage() {
  useDocumentTitle('Credit Cards');
  const reloadMe = useSession((s) => s.reloadMe);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  // The card being changed and how: only the button that was pressed shows the spinner.
  const [busy, setBusy] = useState<{ cardId: string; action: 'primary' | 'delete' } | undefined>();
  const [confirming, setConfirming] = useState<Card | undefined>();
  // The card the dialog names, kept while it closes so its title does not blank mid-animation.
  const [named, setNamed] = useState<Card | undefined>();
  useEffect(() => {
    if (confirming) setNamed(confirming);
  }, [confirming]);

  useEffect(() => {
    const controller = new AbortController();
    call('getCustomer', {}, { signal: controller.signal }).then(
      (customer) => setLoad({ state: 'ready', customer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code === 'CONFLICT') setLoad({ state: 'notSetUp' });
        else setLoad({ state: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, []);

  async function makePrimary(card: Card) {
    if (busy) return;
    setBusy({ cardId: card.id, action: 'primary' });
    try {
      const customer = await call('updateCustomer', { defaultCardId: card.id });
      setLoad({ state: 'ready', customer });
      notify({ kind: 'success', message: cardMessages.primaryChanged });
      await reloadMe().catch(() => null);
    } catch (error) {
      // Cancelling 'Confirm it is you' is the manager's choice: the primary card stays, nothing to report.
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: cardMessages.primaryFailed(errorMessage(error)) });
    } finally {
      setBusy(undefined);
    }
  }

  async function remove(card: Card) {
    if (busy) return;
    setBusy({ cardId: card.id, action: 'delete' });
    try {
      const customer = await call('deleteCard', { cardId: card.id });
      setConfirming(undefined);
      setLoad({ state: 'ready', customer });
      notify({ kind: 'success', message: cardMessages.deleted });
    } catch (error) {
      setConfirming(undefined);
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: cardMessages.deleteFailed(errorMessage(error)) });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Stack gap="lg" maw={760}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>{pageHeadings.creditCards.title}</Title>
          <Text c="gray.7">{pageHeadings.creditCards.lead}</Text>
        </div>
        {load.state === 'ready' ? (
          <Button component={Link} to="/dashboard/addcreditcard">
            Add Credit Card
          </Button>
        ) : null}
      </Group>

      {load.state === 'loading' ? (
        <Group justify="center" py="xl">
          <Loader role="status" aria-label="Loading your cards" />
        </Group>
      ) : null}
      {load.state === 'notSetUp' ? (
        <Alert color="blue" variant="light" title="No card on file yet">
          <Text size="sm">
            Add your first card when you set up your account.{' '}
            <Anchor component={Link} to="/setupAccount" fw={600}>
              Set up your account
            </Anchor>
          </Text>
        </Alert>
      ) : null}
      {load.state === 'failed' ? (
        <Alert color="red" variant="light" title="Your cards could not be loaded">
          {load.message}
        </Alert>
      ) : null}
      {load.state === 'ready' ? (
        <Stack component="ul" gap="sm" p={0} m={0} aria-label="Cards on file" style={{ listStyle: 'none' }}>
          {load.customer.cards.map((card) => {
            const primary = card.id === load.customer.defaultCardId;
            const canDelete = load.customer.cards.length > 1;
            return (
              <Paper component="li" key={card.id} withBorder p="md" radius="md" data-card-id={card.id}>
                <Group justify="space-between" gap="sm">
                  <div>
                    <Group gap="xs">
                      <Text fw={600}>{cardName(card)}</Text>
                      {primary ? (
                        <Badge color="blue" variant="light">
                          Primary
                        </Badge>
                      ) : null}
                    </Group>
                    <Text size="sm" c="gray.7">
                      Expires {expiry(card)}
                    </Text>
                  </div>
                  <Group gap="xs">
                    {primary ? null : (
                      <Button
                        variant="light"
                        size="sm"
                        loading={busy?.cardId === card.id && busy.action === 'primary'}
                        disabled={busy !== undefined}
                        // Starts with the visible words, so a voice user who says them finds it (WCAG 2.5.3).
                        aria-label={`Make primary: ${cardName(card)}`}
                        onClick={() => void makePrimary(card)}
                      >
                        Make primary
                      </Button>
                    )}
                    {canDelete ? (
                      <Button
                        variant="subtle"
                        color="red"
                        // red.9 text: Mantine's subtle red is below 4.5:1 on white.
                        c="red.9"
                        size="sm"
                        disabled={busy !== undefined}
                        aria-label={`Delete ${cardName(card)}`}
                        onClick={() => setConfirming(card)}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      ) : null}

      <AppModal
        opened={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        title={named ? `Delete ${cardName(named)}?` : ''}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            The card is removed from your account. Budgets are charged to the primary card.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(undefined)}>
              Cancel
            </Button>
            <Button
              color="red.9"
              loading={busy?.action === 'delete'}
              onClick={() => (confirming ? void remove(confirming) : undefined)}
            >
              Delete card
            </Button>
          </Group>
        </Stack>
      </AppModal>
    </Stack>
  );
}
