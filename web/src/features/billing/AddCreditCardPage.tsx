/**
 * /dashboard/addcreditcard (spec §2, §5 "Card form", §8): the card form
 * without the business name (the team has one since setup; docs/decisions.md).
 * The card goes to the provider's tokenizer from the browser; only the token
 * reaches POST /billing/cards, with an Idempotency-Key derived from it.
 * 'Added card successfully!' then back to the cards; any failure, the
 * provider's included, is 'Error upon adding card {detail}'.
 */
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useFocusAfterBusy } from '../../components/useFocusAfterBusy';
import { cardMessages } from '../../content/consoleMessages';
import { pageHeadings } from '../../content/pageHeadings';
import { notify } from '../../stores/notifications';
import { CardFields, IncompleteHint, useCardForm } from './CardForm';

export function AddCreditCardPage() {
  useDocumentTitle('Add Credit Card');
  const me = useSession((s) => s.me);
  const reloadMe = useSession((s) => s.reloadMe);
  const navigate = useNavigate();
  const card = useCardForm(false);
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  useFocusAfterBusy(submitting, formRef, submitRef);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || !card.complete) return;
    setSubmitting(true);
    try {
      const result = await card.tokenize();
      if (!result.ok) {
        // The provider refused the card: nothing was sent to our API; say why.
        if (result.providerError)
          notify({ kind: 'error', message: cardMessages.addFailed(result.providerError) });
        return;
      }
      const { token } = result;
      await call('addCard', { token: token.id }, { idempotencyKey: `addcard-${token.id}` });
      notify({ kind: 'success', message: cardMessages.added });
      // A past-due team's new card became primary and paid what was waiting: the banner may go.
      await reloadMe().catch(() => null);
      navigate('/dashboard/creditcard');
    } catch (error) {
      if (!isStepUpCancelled(error))
        notify({ kind: 'error', message: cardMessages.addFailed(errorMessage(error)) });
    } finally {
      setSubmitting(false);
    }
  }

  if (me?.teamStatus === 'setup') {
    return (
      <Stack gap="lg" maw={720}>
        <Title order={1}>Add Credit Card</Title>
        <Alert color="blue" variant="light" title="Finish setting up your account first">
          <Text size="sm">
            Your first card is added in the setup.{' '}
            <Anchor component={Link} to="/setupAccount" fw={600}>
              Set up your account
            </Anchor>
          </Text>
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>{pageHeadings.addCreditCard.title}</Title>
        <Text c="gray.7">{pageHeadings.addCreditCard.lead}</Text>
      </div>
      <form ref={formRef} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add credit card">
        <Stack gap="lg">
          <CardFields form={card} />
          <Group>
            <Button variant="default" component={Link} to="/dashboard/creditcard">
              Cancel
            </Button>
            <Button ref={submitRef} type="submit" disabled={!card.complete} loading={submitting}>
              Add Card
            </Button>
          </Group>
          <IncompleteHint form={card} />
        </Stack>
      </form>
    </Stack>
  );
}
