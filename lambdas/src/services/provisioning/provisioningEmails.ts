/**
 * What provisioning tells the manager. A removal or a reactivation by the
 * identity provider is one the manager did not make here, so the team's
 * manager is e-mailed: who left or came back, what happened to their card and
 * money (the pool), and which token did it.
 */
import { reactivationWords } from '@shared/domain/auditLog';
import { safeNameForEmail } from '@shared/domain/emailText';
import { sendEmail } from '../../adapters/email';
import { getTeam } from '../../data/accounts';
import { getUser, type UserRecord } from '../../data/users';
import type { ProvisioningCaller } from '../../platform/auth';
import { webConfig } from '../../platform/config';

/**
 * Who a provisioning e-mail is to and names: the team's manager (none once
 * they left), the person as "Name (address)" when the name is safe to print,
 * and the token's name (else "your identity provider").
 */
async function partiesOf(
  caller: ProvisioningCaller,
  person: { email: string; name?: string },
): Promise<{ manager: UserRecord; who: string; token: string } | undefined> {
  const team = await getTeam(caller.teamId);
  const manager = team ? await getUser(team.managerId) : undefined;
  if (!manager || manager.status === 'deleted') return undefined;
  const name = safeNameForEmail(person.name);
  return {
    manager,
    who: name ? `${name} (${person.email})` : person.email,
    token: safeNameForEmail(caller.tokenName) ?? 'your identity provider',
  };
}

export async function sendProvisioningRemovalEmail(
  caller: ProvisioningCaller,
  person: { email: string; name?: string; joined: boolean },
): Promise<void> {
  const parties = await partiesOf(caller, person);
  if (!parties) return;
  const { manager, who, token } = parties;
  const what = person.joined
    ? [
        `${who} was removed from your team by ${token} (provisioning).`,
        '',
        'Their card is cancelled, the money left on it is in your team pool, and they are no longer billed.',
        `To give that money to others or back to your card, open ${new URL('/dashboard/employees', webConfig().WEB_ORIGIN).toString()}.`,
      ]
    : [`The invitation of ${who} was withdrawn by ${token} (provisioning). They had not joined yet.`];
  await sendEmail({
    to: [manager.email],
    subject: person.joined ? `${who} was removed from your team` : `The invitation of ${who} was withdrawn`,
    text: [`Hi ${manager.firstName},`, '', ...what].join('\n'),
  });
}

/** A removed member restored by the identity provider (issue 28): new card, what came back from the pool. */
export async function sendProvisioningReactivationEmail(
  caller: ProvisioningCaller,
  person: { email: string; name?: string; pooledCents: number; returnedCents: number },
): Promise<void> {
  const parties = await partiesOf(caller, person);
  if (!parties) return;
  const { manager, who, token } = parties;
  await sendEmail({
    to: [manager.email],
    subject: `${who} was reactivated`,
    text: [
      `Hi ${manager.firstName},`,
      '',
      `${who} was reactivated by ${token} (provisioning), before your next billing day.`,
      '',
      `${reactivationWords(person.pooledCents, person.returnedCents)}.`,
      'They sign in as before, keep their budget, and are billed again from your next billing day.',
      `Employees: ${new URL('/dashboard/employees', webConfig().WEB_ORIGIN).toString()}`,
    ].join('\n'),
  });
}
