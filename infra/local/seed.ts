/**
 * Demo data for `npm start` and the browser tests: a verified manager with a
 * team and a verified employee, made through the same services the API uses
 * (registration, invitation, sign-up, e-mail verification), never by writing
 * records directly. Running it again changes nothing.
 */
import { getEmailOwner } from '../../lambdas/src/data/accounts';
import { issueEmailToken } from '../../lambdas/src/data/emailTokens';
import { getUser } from '../../lambdas/src/data/users';
import { createLogger } from '../../lambdas/src/platform/log';
import { registerEmployee, registerManager, verifyEmail } from '../../lambdas/src/services/accounts';
import { inviteEmployees } from '../../lambdas/src/services/invitations';
import type { LogSink } from './processes';

export const DEMO_MANAGER = {
  email: 'manager@demo.test',
  password: 'demo-manager-pass',
  firstName: 'Maya',
  lastName: 'Patel',
  company: 'Northwind Learning',
};

export const DEMO_EMPLOYEE = {
  email: 'employee@demo.test',
  password: 'demo-employee-pass',
  firstName: 'Sam',
  lastName: 'Rivera',
  zip: '94110',
  budgetDollars: 25,
};

async function verify(userId: string, now: Date) {
  // The same redemption the e-mailed link triggers.
  const token = await issueEmailToken('verifyEmail', userId, now);
  await verifyEmail(token, now);
}

export async function seedDemo(log: LogSink): Promise<void> {
  const now = new Date();
  let managerId = await getEmailOwner(DEMO_MANAGER.email);
  if (!managerId) {
    ({ userId: managerId } = await registerManager(DEMO_MANAGER, now));
    await verify(managerId, now);
    log(`demo manager ${DEMO_MANAGER.email} created`);
  }
  if (!(await getEmailOwner(DEMO_EMPLOYEE.email))) {
    const manager = await getUser(managerId);
    if (!manager) throw new Error('demo manager record missing');
    await inviteEmployees(
      { ...manager, emailVerified: true },
      { emails: [DEMO_EMPLOYEE.email], budget: DEMO_EMPLOYEE.budgetDollars * 100 },
      now,
    );
    const { userId } = await registerEmployee(DEMO_EMPLOYEE, now, createLogger({ seed: true }));
    await verify(userId, now);
    log(`demo employee ${DEMO_EMPLOYEE.email} created`);
  }
}
