/** DELETE /provisioning/tokens/{tokenId} - manager: revokes a token of the team; its next call is refused. Audited. */
import { httpHandler } from '../platform/http';
import { revokeToken } from '../services/provisioning';

export const handler = httpHandler('revokeProvisioningToken', ({ actor, input, now }) =>
  revokeToken(actor, input.tokenId, now),
);
