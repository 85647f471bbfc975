/**
 * Setup: the wizard's last step, which creates the team's Stripe customer,
 * anchors its billing cycle and sends the first invitations. Depends on
 * billing and employees.
 */
export { finalizeSetup } from './finalizeSetup';
