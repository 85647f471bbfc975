/**
 * Provisioning (issue 28): a team's identity provider adds and removes people
 * over SCIM 2.0 with a token the manager makes. Depends on employees (the
 * invitation, the manager's delete, withdrawing an invitation); nothing
 * depends on it but the handlers.
 */
export {
  createUser,
  deleteUser,
  getUserResource,
  listUsers,
  patchUser,
  replaceUser,
  SCIM_MAX_RESULTS,
} from './scimUsers';
export {
  createProvisioningToken,
  getProvisioning,
  revokeToken,
  scimBaseUrl,
  updateProvisioningSettings,
} from './tokens';
