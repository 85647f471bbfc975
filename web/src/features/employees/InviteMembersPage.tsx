/**
 * /inviteMembers (spec §2, §5 "Invite", §8): e-mails (comma-separated) and a
 * monthly budget (default 25). Invite stays disabled while either is blank.
 * Each address gets its own answer. Registered people are skipped, not refused
 * (spec §5: "existing registered users are not invited again"): the success
 * says so. When every other address was simply invited the page says
 * 'Employee invited successfully' and returns to /dashboard after 1000 ms; when
 * some were refused, or someone invited before now has another budget, it stays
 * so the manager can read which and why ("budget $40.00 → $60.00",
 * docs/decisions.md); when all were refused, 'Error on inviting employee:
 * {detail}'. The budgets invited are a monthly commitment (issue 24, attack 2):
 * large ones ask 'Confirm it is you' (the API client's step-up dialog), and
 * past the team's daily limit the request is refused in the limit's words.
 */
import { Alert, Button, Group, List, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import { DEFAULT_BUDGET_DOLLARS, splitEmailList } from '@shared/schemas/invitations';
import { budgetDollars } from '@shared/schemas/profile';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { inviteMessages } from '../../content/consoleMessages';
import { pageHeadings } from '../../content/pageHeadings';
import { INVITE_REDIRECT_MS } from '../../content/timings';
import { notify } from '../../stores/notifications';
import { type EmployeeRow, useEmployees } from './employeesStore';

type Result = RouteOutput<'inviteEmployees'>['results'][number];

const resultText: Record<Result['result'], string> = {
  invited: 'Invited',
  reinvited: 'Invited again',
  alreadyRegistered: 'Already registered: not invited again',
  invitedByAnotherTeam: 'Invited by another team',
  invalidEmail: 'Not a valid email address',
};

const isInvited = (r: Result) => r.result === 'invited' || r.result === 'reinvited';

/** Registered already: the spec skips them ("not invited again"), which is no failure. */
const isSkipped = (r: Result) => r.result === 'alreadyRegistered';

/** Neither invited nor skipped: the address needs another look. */
const isRefused = (r: Result) => !isInvited(r) && !isSkipped(r);

/** The success's second sentence, naming the registered people it skipped. */
function skippedWords(skipped: readonly Result[]): string {
  if (skipped.length === 0) return '';
  const who = skipped.map((r) => r.email).join(', ');
  return `Already registered, so not invited again: ${who}.`;
}

/** Invited again with another budget: the new one replaced the old, which the manager must see. */
const budgetChanged = (r: Result) =>
  r.result === 'reinvited' &&
  r.previousBudgetCents !== undefined &&
  r.budgetCents !== undefined &&
  r.previousBudgetCents !== r.budgetCents;

/** Invited, but the address had today's invitation e-mails already (the server's daily cap): no e-mail went. */
const notEmailed = (r: Result) => isInvited(r) && r.emailed === false;

/** Anything the manager must read before leaving: a refusal, a replaced budget, an e-mail held back. */
const needsReading = (r: Result) => isRefused(r) || budgetChanged(r) || notEmailed(r);

function answerText(r: Result): string {
  const text = budgetChanged(r)
    ? `Invited again: budget ${formatCents(r.previousBudgetCents ?? 0)} → ${formatCents(r.budgetCents ?? 0)} (the new budget replaces the old one)`
    : resultText[r.result];
  return notEmailed(r)
    ? `${text}, but not emailed: this address has had today's invitation emails already. Send it again tomorrow.`
    : text;
}

/**
 * The pending invitations this submit would give another budget, said before
 * Invite is pressed: inviting again replaces the budget (the server answers
 * "budget $30.00 → $25.00" after the fact), and the form starts at $25.
 */
function budgetReplacements(rows: readonly EmployeeRow[], emails: string, budget: string) {
  const parsed = budgetDollars.safeParse(budget);
  if (!parsed.success) return [];
  const pending = new Map(rows.filter((r) => r.status === 'invited').map((r) => [r.email, r.budgetCents]));
  return splitEmailList(emails).flatMap((email) => {
    const cents = pending.get(email);
    return cents !== undefined && cents !== parsed.data ? [{ email, cents, next: parsed.data }] : [];
  });
}

export function InviteMembersPage() {
  useDocumentTitle('Invite Members');
  const navigate = useNavigate();
  const reload = useEmployees((s) => s.load);
  const roster = useEmployees((s) => s.rows);
  const rosterStatus = useEmployees((s) => s.status);
  const [emails, setEmails] = useState('');
  const [budget, setBudget] = useState(String(DEFAULT_BUDGET_DOLLARS));
  const [errors, setErrors] = useState<{ emails?: string; budget?: string }>({});
  const [results, setResults] = useState<Result[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (!leaving) return;
    const timer = setTimeout(() => navigate('/dashboard'), INVITE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [leaving, navigate]);

  // The pending invitations, to warn before a budget is replaced (a direct visit has not loaded them yet).
  useEffect(() => {
    if (rosterStatus === 'idle') void reload();
  }, [rosterStatus, reload]);
  const replacing = budgetReplacements(roster, emails, budget);

  const blank = emails.trim() === '' || budget.trim() === '';
  const count = splitEmailList(emails).length;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blank || busy) return;
    setBusy(true);
    setErrors({});
    // The last attempt's answers are not this one's: a failed submit must not leave them showing.
    setResults(null);
    try {
      // Past the step-up threshold (the server counts it as the invitation would): 'Confirm it is
      // you' before sending, not after a refusal.
      const { needsFreshFactor } = await call('previewInvitations', { emails, budget });
      const answer = await call('inviteEmployees', { emails, budget }, { freshFactor: needsFreshFactor });
      setResults(answer.results);
      const invited = answer.results.filter(isInvited);
      const skipped = answer.results.filter(isSkipped);
      const refused = answer.results.filter(isRefused);
      if (invited.length > 0) void reload();
      const refusedNotice = () =>
        notify({
          kind: 'error',
          message: inviteMessages.failed(
            refused.map((r) => `${r.email}: ${resultText[r.result]}`).join('; '),
          ),
        });
      if (invited.length === 0 && refused.length > 0) {
        refusedNotice();
      } else if (invited.length === 0 && skipped.length > 0) {
        // Everyone on the list has an account already: nothing failed, and nothing was sent.
        notify({ kind: 'info', message: skippedWords(skipped) });
        setEmails('');
      } else {
        notify({
          kind: 'success',
          // The spec's words as they are; the skipped ones, if any, in a sentence after them.
          message:
            skipped.length > 0
              ? `${inviteMessages.invited}. ${skippedWords(skipped)}`
              : inviteMessages.invited,
        });
        // Some invited, some not: the success notice alone would hide the ones that failed.
        if (refused.length > 0) refusedNotice();
        // Stay when something needs reading: a refusal, a budget that replaced another, an e-mail held back.
        if (!answer.results.some(needsReading)) setLeaving(true);
        // Keep only the addresses that still need attention.
        else setEmails(refused.map((r) => r.email).join(', '));
      }
    } catch (error) {
      // Cancelling 'Confirm it is you' (asked for large budgets) is the manager's choice: nobody was
      // invited, the form keeps what they typed, nothing to report.
      if (isStepUpCancelled(error)) return;
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      notify({ kind: 'error', message: inviteMessages.failed(errorMessage(error)) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>{pageHeadings.inviteMembers.title}</Title>
        <Text c="gray.7">{pageHeadings.inviteMembers.lead}</Text>
      </div>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form noValidate onSubmit={submit} aria-label="Invite members">
          <Stack gap="md">
            <Textarea
              label="Emails"
              description="Separate addresses with commas"
              placeholder="ann@company.com, bob@company.com"
              autosize
              minRows={2}
              maxRows={8}
              required
              value={emails}
              error={errors.emails}
              disabled={leaving}
              onChange={(event) => setEmails(event.currentTarget.value)}
            />
            <TextInput
              label="Budget"
              description="Monthly budget per person, in whole dollars"
              inputMode="numeric"
              leftSection="$"
              maxLength={7}
              required
              value={budget}
              error={errors.budget}
              disabled={leaving}
              onChange={(event) => setBudget(event.currentTarget.value)}
            />
            {replacing.length > 0 && !leaving ? (
              <Alert color="yellow" variant="light" title="Already invited" data-testid="budget-replacements">
                <Text size="sm" c="dark" style={{ overflowWrap: 'anywhere' }}>
                  {replacing
                    .map((r) => `${r.email} was invited with ${formatCents(r.cents)} a month`)
                    .join('; ')}
                  . Inviting again replaces that with {formatCents(replacing[0]?.next ?? 0)} and emails the
                  change.
                </Text>
              </Alert>
            ) : null}
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="gray.7">
                {count === 0 ? 'No addresses yet' : `${count} ${count === 1 ? 'address' : 'addresses'}`}
              </Text>
              <Button type="submit" loading={busy} disabled={blank || leaving}>
                Invite
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {results ? (
        <Alert
          color={results.some(needsReading) ? 'yellow' : 'green'}
          variant="light"
          title={leaving ? 'Invitations sent. Back to your dashboard in a moment.' : 'Invitation results'}
          aria-live="polite"
        >
          {/* An address has no spaces to wrap at: it breaks anywhere rather than run out of the box. */}
          <List
            size="sm"
            spacing={4}
            aria-label="Invitation results"
            styles={{
              itemWrapper: { display: 'inline', overflowWrap: 'anywhere' },
              itemLabel: { minWidth: 0 },
            }}
          >
            {results.map((r) => (
              <List.Item
                key={r.email}
                data-result={r.result}
                {...(budgetChanged(r)
                  ? { 'data-previous-cents': r.previousBudgetCents, 'data-cents': r.budgetCents }
                  : {})}
              >
                <Text span fw={600} c="dark">
                  {r.email}
                </Text>
                <Text span c="dark">
                  : {answerText(r)}
                </Text>
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
    </Stack>
  );
}
