/** PUT /provisioning/settings - manager, fresh factor: the budgets of people the identity provider adds. Audited. */
import { httpHandler } from '../platform/http';
import { updateProvisioningSettings } from '../services/provisioning';

export const handler = httpHandler('updateProvisioningSettings', ({ actor, input, now }) =>
  updateProvisioningSettings(actor, input, now),
);
