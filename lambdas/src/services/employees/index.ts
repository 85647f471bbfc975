/**
 * Employees: the manager's roster, invitations (and withdrawing them), and
 * the controls on people (pause, freeze, delete). Depends on accounts (the
 * invitation e-mail, deleting an account), money (what inviting commits counts
 * against the daily limit) and receipts (counts on the roster).
 */
export { deleteEmployees, reactivateEmployee, setCardStatus, setPaused } from './employeeControls';
export { listEmployees } from './employeeRoster';
export { invitationCommitment, previewInvitations } from './invitationCommitment';
export {
  inviteEmployees,
  inviteProvisioned,
  type ProvisionedInvitation,
  type ProvisionedInviter,
  withdrawInvitations,
} from './invitations';
export { importRoster, runPeopleSchedule, setLastDay } from './roster';
