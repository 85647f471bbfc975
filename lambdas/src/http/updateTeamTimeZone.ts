/** PUT /team/timeZone - manager: the zone every date of the team is printed in. */
import { httpHandler } from '../platform/http';
import { setTeamTimeZone } from '../services/team';

export const handler = httpHandler('updateTeamTimeZone', ({ actor, input, now }) =>
  setTeamTimeZone(actor, input.timeZone, now),
);
