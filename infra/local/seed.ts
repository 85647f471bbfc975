/**
 * Demo data for `npm start` and the browser tests: a verified manager whose
 * team has billing set up, and a verified employee with a funded card, made
 * through the same services the API uses (registration, setup, invitation,
 * sign-up with its charge, card and ledger credit, e-mail verification), never
 * by writing records directly. Running it again changes nothing.
 */
import { getEmailOwner } from '../../lambdas/src/data/accounts';
import { issueEmailToken } from '../../lambdas/src/data/emailTokens';
import { getUser } from '../../lambdas/src/data/users';
import { createLogger } from '../../lambdas/src/platform/log';
import { registerEmployee, registerManager, verifyEmail } from '../../lambdas/src/services/accounts';
import { finalizeSetup } from '../../lambdas/src/services/billing';
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

/** The demo team pays with Stripe's always-succeeding test card, tokenized by the emulator. */
export const DEMO_BILLING = {
  businessName: 'Northwind Learning Inc.',
  token: 'tok_visa',
  billingAddress: { address1: '500 Howard St', city: 'San Francisco', state: 'CA', zip: '94105' },
};

export async function seedDemo(log: LogSink): Promise<void> {
  const now = new Date();
  const lambdaLog = createLogger({ seed: true });
  let managerId = await getEmailOwner(DEMO_MANAGER.email);
  if (!managerId) {
    ({ userId: managerId } = await registerManager(DEMO_MANAGER, now));
    await verify(managerId, now);
    const manager = await getUser(managerId);
    if (!manager) throw new Error('demo manager record missing');
    await finalizeSetup({ ...manager, emailVerified: true }, DEMO_BILLING, now, lambdaLog);
    log(`demo manager ${DEMO_MANAGER.email} created, billing set up`);
  }
  if (!(await getEmailOwner(DEMO_EMPLOYEE.email))) {
    const manager = await getUser(managerId);
    if (!manager) throw new Error('demo manager record missing');
    await inviteEmployees(
      { ...manager, emailVerified: true },
      { emails: [DEMO_EMPLOYEE.email], budget: DEMO_EMPLOYEE.budgetDollars * 100 },
      now,
    );
    // Joining charges the budget, issues the card and credits it through the ledger.
    const { userId } = await registerEmployee(DEMO_EMPLOYEE, now, lambdaLog);
    await verify(userId, now);
    log(`demo employee ${DEMO_EMPLOYEE.email} created with a funded card`);
  }
}
