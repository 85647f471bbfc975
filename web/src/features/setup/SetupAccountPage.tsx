/**
 * /setupAccount (spec §2, §4 "Setup wizard", §5): two steps, 'Invite team'
 * and 'Billing Info', with Back and Submit.
 *
 * Invite team: budget (default '25', a leading $ accepted) and a comma list
 * of e-mails (blanks skipped), with the expected monthly total (entries x
 * budget) as you type. Inviting is optional here: the invitations go with the
 * setup only when both are filled in (spec §5), and the team can be invited
 * later from the Employees screen (docs/decisions.md).
 *
 * Billing Info: the card form (business name, card, billing address, Country
 * fixed to US) and a purchase summary. The card goes to the provider's
 * tokenizer from the browser; only the token reaches POST /billing/setup,
 * whose Idempotency-Key is derived from the token, so a retried request with
 * the same card is answered once and a new card is a new request.
 *
 * Success goes to /dashboard; failure says 'There was an error setting up
 * your account' titled 'Try again'. A manager who already finished setup is
 * sent to /dashboard. Large invited budgets ask 'Confirm it is you' first (the
 * API client's step-up dialog); cancelling it is no failure.
 */
import {
  Alert,
  Box,
  Button,
  Divider,
  Grid,
  Group,
  Paper,
  Stack,
  Stepper,
  Text,
  Textarea,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { DEFAULT_TIME_ZONE } from '@shared/domain/calendar';
import {
  invitableEntries,
  inviteEntries,
  monthlyTotalCents,
  parseBudgetDollars,
  shouldInvite,
} from '@shared/domain/cardForm';
import { formatCents } from '@shared/domain/money';
import { DEFAULT_BUDGET_DOLLARS, isInvitableEmail } from '@shared/schemas/invitations';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ApiError, call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { browserTimeZone, TimeZoneSelect } from '../../components/TimeZoneSelect';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useFocusAfterBusy } from '../../components/useFocusAfterBusy';
import { setupMessages } from '../../content/consoleMessages';
import { notify } from '../../stores/notifications';
import { CardFields, type CardFormState, IncompleteHint, useCardForm } from '../billing/CardForm';
import { EmailNotVerifiedBanner } from '../dashboard/EmailNotVerifiedBanner';

const STEPS = ['Invite team', 'Billing Info'] as const;

interface Invite {
  budget: string;
  emails: string;
}

function people(count: number): string {
  return `${count} ${count === 1 ? 'person' : 'people'}`;
}

/** How a budget must be written; said under the field on Next and by the total while it is not. */
const BUDGET_RULE = 'a whole number of dollars (up to $10,000)';

/** What the invite step asks about: nothing when the list is blank (inviting is optional here). */
function checkInvite(invite: Invite): { budget?: string; emails?: string } {
  const entries = inviteEntries(invite.emails);
  if (entries.length === 0) return {};
  const errors: { budget?: string; emails?: string } = {};
  if (invite.budget.trim() === '') errors.budget = 'Budget is required';
  else if (parseBudgetDollars(invite.budget) === undefined) errors.budget = `Budget must be ${BUDGET_RULE}`;
  const wrong = entries.filter((email) => !isInvitableEmail(email));
  if (wrong.length > 0) errors.emails = `These addresses are not valid: ${wrong.join(', ')}`;
  return errors;
}

function InviteStep({
  invite,
  errors,
  onChange,
}: {
  invite: Invite;
  errors: { budget?: string; emails?: string };
  onChange: (next: Invite) => void;
}) {
  const entries = inviteEntries(invite.emails);
  const count = invitableEntries(invite.emails).length;
  // Named under the field already; the total says it left them out.
  const notCounted = entries.length - count;
  const dollars = parseBudgetDollars(invite.budget);
  const total = monthlyTotalCents(invite.emails, invite.budget);
  return (
    <Stack gap="md" maw={560}>
      <Text>
        Invite the people who get a learning budget. Each gets a virtual card with this budget every month.
      </Text>
      <TextInput
        label="Monthly budget per person"
        description="Whole dollars, e.g. 25 or $25"
        inputMode="numeric"
        value={invite.budget}
        error={errors.budget}
        onChange={(event) => onChange({ ...invite, budget: event.currentTarget.value })}
      />
      <Textarea
        label="Team emails"
        description="Separate addresses with commas. You can also invite people later."
        autosize
        minRows={3}
        value={invite.emails}
        error={errors.emails}
        onChange={(event) => onChange({ ...invite, emails: event.currentTarget.value })}
      />
      <Paper withBorder p="sm" radius="md" bg="gray.0">
        {/* Announced as it changes, so the total is heard while typing. */}
        <Text aria-live="polite" aria-atomic="true" data-testid="monthly-total">
          {entries.length === 0 ? (
            <>Monthly total: {formatCents(0)} (no one invited yet)</>
          ) : dollars === undefined ? (
            // No total for a budget that cannot be sent: '$0.00' read as if nobody were listed.
            <>
              Monthly total: {people(count)} listed; shown once the budget is{' '}
              {invite.budget.trim() === '' ? 'entered' : BUDGET_RULE}
            </>
          ) : (
            <>
              Monthly total: {people(count)} × {formatCents(dollars * 100)} ={' '}
              <strong>{formatCents(total)}</strong>
              {notCounted > 0
                ? ` (${notCounted} ${notCounted === 1 ? 'address is' : 'addresses are'} not valid and not counted)`
                : ''}
            </>
          )}
        </Text>
      </Paper>
    </Stack>
  );
}

function PurchaseSummary({ invite }: { invite: Invite }) {
  const inviting = shouldInvite(invite.emails, invite.budget);
  const count = inviting ? invitableEntries(invite.emails).length : 0;
  const dollars = parseBudgetDollars(invite.budget) ?? DEFAULT_BUDGET_DOLLARS;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="summary-title">
      <Title order={2} size="h4" id="summary-title" mb="sm">
        Purchase summary
      </Title>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">Invitations</Text>
          <Text size="sm" fw={600}>
            {people(count)}
          </Text>
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">Budget per person</Text>
          <Text size="sm" fw={600}>
            {formatCents(dollars * 100)} / month
          </Text>
        </Group>
        <Divider my={4} />
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={700}>
            Expected monthly total
          </Text>
          <Text size="sm" fw={700}>
            {formatCents(count * dollars * 100)}
          </Text>
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">Charged today</Text>
          <Text size="sm" fw={600}>
            {formatCents(0)}
          </Text>
        </Group>
        <Text size="xs" c="gray.7" mt="xs">
          Each person's budget is charged to this card when they join, then monthly from today. All of it goes
          to their card; there is no fee.
        </Text>
      </Stack>
    </Paper>
  );
}

export function SetupAccountPage() {
  useDocumentTitle('Set Up Your Account');
  const me = useSession((s) => s.me);
  const reloadMe = useSession((s) => s.reloadMe);
  const navigate = useNavigate();
  const [active, setActive] = useState(0);
  const [invite, setInvite] = useState<Invite>({ budget: String(DEFAULT_BUDGET_DOLLARS), emails: '' });
  const [inviteErrors, setInviteErrors] = useState<{ budget?: string; emails?: string }>({});
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  useFocusAfterBusy(submitting, formRef, submitRef);
  const [failure, setFailure] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const card: CardFormState = useCardForm(true);
  // The team's calendar starts as this browser's; the manager can change it here or later on their profile.
  const [timeZone, setTimeZone] = useState(() => browserTimeZone() ?? me?.timeZone ?? DEFAULT_TIME_ZONE);
  // The company given at sign-up is the business we bill: the manager need not type it twice.
  const teamName = me?.teamName;
  const prefill = card.prefill;
  useEffect(() => {
    if (teamName) prefill('businessName', teamName);
  }, [teamName, prefill]);
  // Side by side the two steps do not fit a phone: they stack there.
  const stepperOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });

  // Finished already (or finished in another tab): the wizard has nothing to do.
  if (me && (me.role !== 'manager' || me.teamStatus !== 'setup')) return <Navigate to="/dashboard" replace />;

  function onNext(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = checkInvite(invite);
    setInviteErrors(errors);
    if (errors.budget || errors.emails) return;
    setActive(1);
    heading.current?.focus();
  }

  function onBack() {
    setActive(0);
    setFailure(undefined);
    heading.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || !card.complete) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      // Card details go to the provider only; a refusal there posts nothing to our API.
      const result = await card.tokenize();
      if (!result.ok) return;
      const { token } = result;
      const { values } = card;
      await call(
        'finalizeSetup',
        {
          businessName: values.businessName ?? '',
          token: token.id,
          billingAddress: {
            address1: values.address1,
            address2: values.address2,
            city: values.city,
            state: values.state,
            zip: values.zip,
          },
          timeZone,
          ...(shouldInvite(invite.emails, invite.budget)
            ? { invite: { emails: invite.emails, budget: invite.budget } }
            : {}),
        },
        {
          idempotencyKey: `setup-${token.id}`,
          // Invitations past the step-up threshold (the server counts them as setup would): 'Confirm
          // it is you' before sending, not after a refusal.
          freshFactor:
            shouldInvite(invite.emails, invite.budget) &&
            (await call('previewInvitations', { emails: invite.emails, budget: invite.budget }))
              .needsFreshFactor,
        },
      );
      await reloadMe().catch(() => null);
      navigate('/dashboard');
    } catch (error) {
      // Cancelling 'Confirm it is you' (asked for large invited budgets) is the manager's choice:
      // nothing was set up or charged, the wizard stays as filled in, nothing to report.
      if (isStepUpCancelled(error)) return;
      setFailure(errorMessage(error));
      // A field the server refused (its message names it) is marked on the form as well.
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED')
        card.showServerErrors(error.fields);
      if (error instanceof ApiError && error.code === 'CONFLICT') await reloadMe().catch(() => null);
      notify({ kind: 'error', title: setupMessages.failedTitle, message: setupMessages.failed });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Stack gap="lg">
      <EmailNotVerifiedBanner />
      <Box>
        <Title order={1} ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          Set Up Your Account
        </Title>
        <Text c="gray.7">Two steps: invite your team, then add the card we charge for their budgets.</Text>
      </Box>

      <Stepper
        active={active}
        orientation={stepperOrientation}
        allowNextStepsSelect={false}
        size="sm"
        // Mantine's dimmed step description is 3.3:1 on white; gray.7 reads at AA.
        styles={{ stepDescription: { color: 'var(--mantine-color-gray-7)' } }}
      >
        <Stepper.Step label={STEPS[0]} description="Budget and emails" />
        <Stepper.Step label={STEPS[1]} description="Card and address" />
      </Stepper>

      {active === 0 ? (
        <form onSubmit={onNext} noValidate aria-label={STEPS[0]}>
          <Stack gap="lg">
            <Title order={2} size="h3">
              {STEPS[0]}
            </Title>
            <InviteStep invite={invite} errors={inviteErrors} onChange={setInvite} />
            <Group>
              <Button type="submit">Next</Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <form ref={formRef} onSubmit={(event) => void onSubmit(event)} noValidate aria-label={STEPS[1]}>
          <Stack gap="lg">
            <Title order={2} size="h3">
              {STEPS[1]}
            </Title>
            {failure ? (
              <Alert color="red" variant="light" title={setupMessages.failedTitle} role="alert">
                {setupMessages.failed}: {failure}
              </Alert>
            ) : null}
            <Grid gap="xl">
              <Grid.Col span={{ base: 12, md: 8 }}>
                <Stack gap="lg">
                  <CardFields form={card} />
                  <TimeZoneSelect value={timeZone} onChange={setTimeZone} disabled={submitting} />
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <PurchaseSummary invite={invite} />
              </Grid.Col>
            </Grid>
            <Group>
              <Button variant="default" onClick={onBack} disabled={submitting}>
                Back
              </Button>
              <Button ref={submitRef} type="submit" disabled={!card.complete} loading={submitting}>
                Submit
              </Button>
            </Group>
            <IncompleteHint form={card} />
          </Stack>
        </form>
      )}
    </Stack>
  );
}
