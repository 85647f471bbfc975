/**
 * The people of the Insights page (issue 26; docs/insights.md "People"): who
 * spent most over a period, who has not spent for 3 months, and whose money is
 * heading for the pool. Read without reading every member, so the page costs
 * the same for a team of 10 or 10,000:
 *
 * - spend by person from the period's people shards (8 items a month, every
 *   person's spend as an attribute; data/insightTotals.ts), then the names of
 *   the few listed (BatchGet);
 * - the quiet from the team's employees ordered by when their dormancy clock
 *   started (gsi4): a count, and the quietest PEOPLE_LISTED;
 * - heading for dormancy from the same order: only clocks old enough to reach
 *   13 months within the horizon are read.
 *
 * The full lists (for the CSVs) are teamPeopleList: the same reads, every name.
 */
import { dayIn, startOfDayIn } from '@shared/domain/calendar';
import { addMonths, dormancyViewOf } from '@shared/domain/dormancy';
import { teamMonthOf } from '@shared/domain/insightDeltas';
import {
  DORMANCY_HORIZON_DAYS,
  type InsightSpender,
  type InsightsPeopleAnswer,
  type InsightsPeopleListAnswer,
  type InsightsPeopleListQuery,
  type InsightsQuery,
  PEOPLE_LISTED,
  type QuietPerson,
  TOP_SPENDERS,
} from '@shared/schemas/insights';
import { countQuietEmployees, getTeam, getUsersProjected, quietEmployees, zoneOf } from '../../data/accounts';
import { lastSpentMonths, teamSpendByPerson } from '../../data/insightTotals';
import type { UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { shiftMonth } from './insights';

/** The user attributes the lists show. */
const PERSON_ATTRIBUTES = [
  'userId',
  'status',
  'firstName',
  'lastName',
  'email',
  'quietSince',
  'dormancy',
] as const;

/** Dormancy moves money 13 months after the clock started, at the earliest. */
const DORMANCY_MONTHS = 13;

interface Moments {
  zone: string;
  /** Quiet: the clock started before this instant (the first of the month two months ago, team calendar). */
  quietBefore: string;
  /** Heading for dormancy: their money goes to the pool on this day or before (team calendar). */
  horizonDay: string;
  /** Only clocks started before this can reach the pool by the horizon. */
  dormancyBefore: string;
}

function momentsOf(zone: string, now: Date): Moments {
  const quietBefore = startOfDayIn(`${shiftMonth(teamMonthOf(now, zone), -2)}-01`, zone).toISOString();
  const horizonDay = dayIn(new Date(now.getTime() + DORMANCY_HORIZON_DAYS * 86_400_000), zone);
  // A clock started later than 13 months before the horizon's end reaches the pool after it
  // (inactiveFrom is 13 months and a day or two after the clock): two days more is a safe bound,
  // and the exact day is checked on what is read.
  const horizonEnd = new Date(now.getTime() + (DORMANCY_HORIZON_DAYS + 2) * 86_400_000);
  const reach = addMonths(horizonEnd.toISOString(), -DORMANCY_MONTHS).toISOString();
  // The earlier of the two (ISO instants sort as text).
  const [dormancyBefore] = [reach, quietBefore].sort() as [string, string];
  return { zone, quietBefore, horizonDay, dormancyBefore };
}

function nameOf(user: Partial<UserRecord>): string {
  return `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
}

/** The state the People list shows: dormant once dormancy paused them. */
function shownStatus(user: Partial<UserRecord>, zone: string): string {
  return dormancyViewOf(user.quietSince, user.dormancy, zone).stage === 'dormant'
    ? 'dormant'
    : String(user.status);
}

async function spenders(
  teamId: string,
  query: InsightsQuery,
  zone: string,
  now: Date,
  limit?: number,
): Promise<{ count: number; people: InsightSpender[] }> {
  // Months after this one hold nothing yet: a period reaching it may read whole quarters and years.
  const spend = await teamSpendByPerson(teamId, query.from, query.to, teamMonthOf(now, zone));
  // Largest first; the same amount in id order, so the list is the same on every read.
  const ranked = [...spend].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const listed = limit === undefined ? ranked : ranked.slice(0, limit);
  const users = new Map(
    (
      await getUsersProjected(
        listed.map(([id]) => id),
        PERSON_ATTRIBUTES,
      )
    ).map((u) => [u.userId, u]),
  );
  return {
    count: ranked.length,
    people: listed.map(([userId, spentCents]) => {
      const user = users.get(userId) ?? {};
      return {
        userId,
        name: nameOf(user),
        email: user.email ?? '',
        status: users.has(userId) ? shownStatus(user, zone) : 'deleted',
        spentCents,
      };
    }),
  };
}

async function quietPeople(
  teamId: string,
  users: Partial<UserRecord>[],
  zone: string,
): Promise<QuietPerson[]> {
  const lastMonths = await lastSpentMonths(
    teamId,
    users.map((u) => u.userId as string),
  );
  return users.map((u) => ({
    userId: u.userId as string,
    name: nameOf(u),
    email: u.email ?? '',
    status: shownStatus(u, zone),
    lastSpentMonth: lastMonths.get(u.userId as string) ?? null,
    dormancyDay: dormancyViewOf(u.quietSince, u.dormancy, zone).inactiveFrom,
  }));
}

/** What the Insights page shows about people (the digest e-mail reads it too). */
export async function teamInsightsPeople(
  teamId: string,
  query: InsightsQuery,
  now = new Date(),
): Promise<InsightsPeopleAnswer> {
  const moments = momentsOf(zoneOf(await getTeam(teamId)), now);
  const [spend, quietCount, quietest, nearPool] = await Promise.all([
    spenders(teamId, query, moments.zone, now, TOP_SPENDERS),
    countQuietEmployees(teamId, moments.quietBefore),
    quietEmployees(teamId, moments.quietBefore, PERSON_ATTRIBUTES, PEOPLE_LISTED),
    quietEmployees(teamId, moments.dormancyBefore, PERSON_ATTRIBUTES),
  ]);
  const heading = nearPool
    .map((u) => ({ user: u, day: dormancyViewOf(u.quietSince, u.dormancy, moments.zone).inactiveFrom }))
    .filter(
      (p): p is { user: Partial<UserRecord>; day: string } => p.day !== null && p.day <= moments.horizonDay,
    )
    .sort((a, b) => a.day.localeCompare(b.day) || nameOf(a.user).localeCompare(nameOf(b.user)));
  const [quietListed, headingListed] = await Promise.all([
    quietPeople(teamId, quietest, moments.zone),
    quietPeople(
      teamId,
      heading.slice(0, PEOPLE_LISTED).map((p) => p.user),
      moments.zone,
    ),
  ]);
  return {
    period: { from: query.from, to: query.to },
    topSpenders: spend.people,
    spenderCount: spend.count,
    quiet: { count: quietCount, people: quietListed },
    headingForDormancy: { count: heading.length, people: headingListed },
  };
}

/** One of the page's people lists in full, for its CSV. */
export async function teamPeopleList(
  teamId: string,
  query: InsightsPeopleListQuery,
  now = new Date(),
): Promise<InsightsPeopleListAnswer> {
  const zone = zoneOf(await getTeam(teamId));
  const period = { from: query.from, to: query.to };
  if (query.list === 'spenders') {
    return { period, list: 'spenders', people: (await spenders(teamId, query, zone, now)).people };
  }
  const quiet = await quietEmployees(teamId, momentsOf(zone, now).quietBefore, PERSON_ATTRIBUTES);
  return { period, list: 'quiet', people: await quietPeople(teamId, quiet, zone) };
}

/** GET /insights/people: the manager's own team. */
export function getInsightsPeople(
  actor: Actor,
  query: InsightsQuery,
  now: Date,
): Promise<InsightsPeopleAnswer> {
  return teamInsightsPeople(actor.teamId, query, now);
}

/** GET /insights/people/all: the manager's own team. */
export function getInsightsPeopleList(
  actor: Actor,
  query: InsightsPeopleListQuery,
  now: Date,
): Promise<InsightsPeopleListAnswer> {
  return teamPeopleList(actor.teamId, query, now);
}
