/**
 * The team's time zone (issue 25 "One calendar"): chosen at setup, changed by
 * the manager. Every date the product prints for the team is the day in it;
 * the change is audited with the zone before and after.
 */
import { getTeam, setTeamFields, zoneOf } from '../../data/accounts';
import type { Actor } from '../../platform/auth';
import { audit } from './teamScope';

export async function setTeamTimeZone(actor: Actor, timeZone: string, now: Date) {
  const before = zoneOf(await getTeam(actor.teamId));
  if (before !== timeZone) {
    await setTeamFields(actor.teamId, { timeZone });
    await audit(actor, 'team.timeZone', now, { before: { timeZone: before }, after: { timeZone } });
  }
  return { timeZone };
}
