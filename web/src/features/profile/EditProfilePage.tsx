/**
 * /editProfile/:employeeId? (spec §2, §5 "Edit profile", §8). Yourself, or -
 * for a manager - an employee of the team: first and last name, Job Role, and
 * (manager editing an employee only) next month's budget in whole dollars.
 * Save: 'Update succeeded' or 'The account update could not be saved'. A large
 * raise asks 'Confirm it is you' first (the API client's step-up dialog); one
 * past the team's daily limit is refused in the limit's words, on the field.
 * Delete Account asks first, then soft-deletes; deleting yourself signs you out.
 * Your own profile also turns your monthly e-mail on or off (issue 26): "Monthly
 * nudges" for an employee, "Monthly digest" for a manager.
 * The server decides who may see and change what; this page only follows it.
 */
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { fieldErrorsOf } from '@shared/schemas/common';
import { JOB_ROLES, updateProfileInput } from '@shared/schemas/profile';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { AppModal } from '../../components/AppModal';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { profileMessages } from '../../content/accountMessages';
import { pageHeadings } from '../../content/pageHeadings';
import { notify } from '../../stores/notifications';
import { LastDaySection } from './LastDaySection';
import { PasswordSection } from './PasswordSection';
import { SecondFactorSection } from './SecondFactorSection';
import { TeamTimeZoneSection } from './TeamTimeZoneSection';

type Profile = RouteOutput<'getProfile'>;
type Fields = 'firstName' | 'lastName' | 'jobRole' | 'budget';
type Values = Record<Fields, string>;

const NONE = 'None';
const jobRoleOptions = [NONE, ...JOB_ROLES];

/** Your own monthly e-mail (issue 26), as the e-mails' footers name the setting. */
const monthlyEmailText = {
  employee: {
    label: 'Monthly nudges',
    description:
      'On the first business day of the month, when money is waiting on your card: your balance and three picks from the catalogue.',
  },
  manager: {
    label: 'Monthly digest',
    description:
      "On the first business day of the month: last month's budget use, top skill areas, who has not spent for 3 months and receipts outstanding.",
  },
} as const;

function dollars(cents: number | undefined): string {
  return cents === undefined ? '' : String(Math.round(cents / 100));
}

function money(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function valuesOf(profile: Profile): Values {
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    jobRole: profile.jobRole ?? NONE,
    budget: dollars(profile.nextBudgetCents),
  };
}

type Load =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'failed'; message: string }
  | { state: 'ready' };

export function EditProfilePage() {
  useDocumentTitle('Edit Profile');
  const { employeeId } = useParams();
  const navigate = useNavigate();
  const me = useSession((s) => s.me);
  const reloadMe = useSession((s) => s.reloadMe);
  const signOut = useSession((s) => s.signOut);
  const userId = employeeId ?? me?.userId;

  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [profile, setProfile] = useState<Profile | null>(null);
  const [values, setValues] = useState<Values>({ firstName: '', lastName: '', jobRole: NONE, budget: '' });
  const [monthlyEmails, setMonthlyEmails] = useState<boolean | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    call('getProfile', { userId }, { signal: controller.signal }).then(
      (loaded) => {
        setProfile(loaded);
        setValues(valuesOf(loaded));
        setMonthlyEmails(loaded.monthlyEmails);
        setErrors({});
        setLoad({ state: 'ready' });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 400))
          setLoad({ state: 'missing' });
        else setLoad({ state: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [userId]);

  if (load.state === 'loading' || !me) {
    return (
      <Group justify="center" py="xl">
        <Loader role="status" aria-label="Loading the profile" />
      </Group>
    );
  }
  if (load.state === 'missing' || !profile) {
    return (
      <Stack gap="xs">
        <Title order={1}>No Match</Title>
        <Text>There is no profile here that you can edit.</Text>
        <Text>
          <Link to="/editProfile">Edit your own profile</Link>
        </Text>
      </Stack>
    );
  }
  if (load.state === 'failed') {
    return (
      <Alert color="red" title="The profile could not be loaded">
        {load.message}
      </Alert>
    );
  }

  const isSelf = profile.userId === me.userId;
  // Spec §2: the budget shows only to a manager editing an employee.
  const showBudget = me.role === 'manager' && !isSelf && profile.role === 'employee';
  const deleted = profile.status === 'deleted';
  const fullName = `${profile.firstName} ${profile.lastName}`.trim();

  function change(field: Fields, value: string) {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => (previous[field] ? { ...previous, [field]: undefined } : previous));
  }

  async function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || !profile) return;
    const parsed = updateProfileInput.safeParse({
      userId: profile.userId,
      firstName: values.firstName,
      lastName: values.lastName,
      jobRole: values.jobRole,
      ...(showBudget ? { budget: values.budget } : {}),
    });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setSaving(true);
    try {
      // A raise past the step-up threshold (the server counts it as the save would): 'Confirm it is
      // you' before saving, not after a refusal.
      const freshFactor =
        showBudget &&
        (await call('previewBudgetChange', { userId: profile.userId, budget: values.budget }))
          .needsFreshFactor;
      const saved = await call(
        'updateProfile',
        {
          userId: profile.userId,
          firstName: values.firstName,
          lastName: values.lastName,
          jobRole: values.jobRole === NONE ? null : (values.jobRole as (typeof JOB_ROLES)[number]),
          ...(showBudget ? { budget: values.budget } : {}),
          ...(monthlyEmails !== undefined ? { monthlyEmails } : {}),
        },
        { freshFactor },
      );
      setProfile(saved);
      setValues(valuesOf(saved));
      setMonthlyEmails(saved.monthlyEmails);
      notify({ kind: 'success', message: profileMessages.saved });
      if (isSelf) await reloadMe().catch(() => null);
    } catch (error) {
      // Cancelling 'Confirm it is you' (asked for a large raise) is the manager's choice: nothing
      // was saved, the form keeps what they typed, nothing to report.
      if (isStepUpCancelled(error)) return;
      if (error instanceof ApiError && error.status === 400 && error.fields) setErrors(error.fields);
      // A raise past the team's daily limit: the limit's own words say what would still go through.
      const overLimit = error instanceof ApiError && error.code === 'LIMIT_EXCEEDED';
      if (overLimit) setErrors({ budget: errorMessage(error) });
      notify({
        kind: 'error',
        title: profileMessages.saveFailedTitle,
        message: overLimit ? errorMessage(error) : profileMessages.saveFailedText,
      });
    } finally {
      setSaving(false);
    }
  }

  async function onDelete() {
    if (deleting || !profile) return;
    setDeleting(true);
    try {
      await call('deleteAccount', { userId: profile.userId });
      setConfirming(false);
      const done = { kind: 'success', message: profileMessages.saved } as const;
      if (isSelf) {
        // Signed out, the route guard leaves this page for / as well.
        await signOut('/', done);
        navigate('/', { replace: true });
      } else {
        notify(done);
        navigate('/dashboard');
      }
    } catch (error) {
      setDeleting(false);
      notify({ kind: 'error', title: profileMessages.deleteFailedTitle, message: errorMessage(error) });
    }
  }

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>{pageHeadings.editProfile.title}</Title>
        <Text c="gray.7">{isSelf ? profile.email : `${fullName} · ${profile.email}`}</Text>
      </div>

      {deleted ? (
        <Alert color="gray" title="This account was deleted">
          It can no longer sign in. Its details are kept for your records.
        </Alert>
      ) : null}

      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form noValidate onSubmit={onSave} aria-label="Profile">
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="First Name"
                autoComplete={isSelf ? 'given-name' : 'off'}
                required
                maxLength={50}
                value={values.firstName}
                error={errors.firstName}
                disabled={deleted}
                onChange={(event) => change('firstName', event.currentTarget.value)}
              />
              <TextInput
                label="Last Name"
                autoComplete={isSelf ? 'family-name' : 'off'}
                required
                maxLength={50}
                value={values.lastName}
                error={errors.lastName}
                disabled={deleted}
                onChange={(event) => change('lastName', event.currentTarget.value)}
              />
            </SimpleGrid>
            <NativeSelect
              label="Job Role"
              description="Optional"
              data={jobRoleOptions}
              value={values.jobRole}
              error={errors.jobRole}
              disabled={deleted}
              onChange={(event) => change('jobRole', event.currentTarget.value)}
            />
            {showBudget ? (
              <TextInput
                label="Budget"
                description={profileMessages.budgetHelper}
                inputMode="numeric"
                leftSection="$"
                maxLength={7}
                value={values.budget}
                error={errors.budget}
                disabled={deleted}
                onChange={(event) => change('budget', event.currentTarget.value)}
              />
            ) : null}
            {showBudget && profile.nextBudgetCents !== undefined ? (
              <Text size="sm" c="gray.7">
                Next budget: {money(profile.nextBudgetCents)} a month
                {profile.budgetCents !== undefined && profile.budgetCents !== profile.nextBudgetCents
                  ? ` (this month: ${money(profile.budgetCents)})`
                  : ''}
              </Text>
            ) : null}
            {isSelf && monthlyEmails !== undefined ? (
              <Checkbox
                label={monthlyEmailText[profile.role].label}
                description={monthlyEmailText[profile.role].description}
                checked={monthlyEmails}
                disabled={deleted}
                onChange={(event) => setMonthlyEmails(event.currentTarget.checked)}
              />
            ) : null}
            <Group justify="space-between" mt="sm">
              <Button type="submit" loading={saving} disabled={deleted}>
                Save
              </Button>
              <Button variant="outline" color="red.8" disabled={deleted} onClick={() => setConfirming(true)}>
                Delete Account
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {showBudget && !deleted ? (
        <LastDaySection userId={profile.userId} name={fullName} current={profile.lastDay ?? null} />
      ) : null}
      {isSelf && !deleted && me.role === 'manager' ? <TeamTimeZoneSection current={me.timeZone} /> : null}
      {isSelf && !deleted ? <PasswordSection /> : null}
      {isSelf && !deleted ? <SecondFactorSection /> : null}

      <AppModal
        opened={confirming}
        onClose={() => (deleting ? undefined : setConfirming(false))}
        title={isSelf ? 'Delete your account?' : `Delete ${fullName}'s account?`}
        centered
      >
        <Stack gap="md">
          <Text>
            {isSelf
              ? 'You will be signed out and will no longer be able to sign in.'
              : `${fullName} will no longer be able to sign in.`}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={deleting}>
              Cancel
            </Button>
            <Button color="red.8" loading={deleting} onClick={() => void onDelete()}>
              Delete Account
            </Button>
          </Group>
        </Stack>
      </AppModal>
    </Stack>
  );
}
