/** POST /provisioning/tokens - manager, fresh factor: a named provisioning token, answered once (only its hash is kept). Audited. */
import { httpHandler } from '../platform/http';
import { createProvisioningToken } from '../services/provisioning';

export const handler = httpHandler('createProvisioningToken', ({ actor, input, now }) =>
  createProvisioningToken(actor, input.name, now),
);
