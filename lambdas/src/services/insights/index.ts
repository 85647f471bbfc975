/**
 * Insights (issue 26): a team's figures over a period and its people, and an
 * employee's own spend by skill area, read from the aggregates the ledger
 * keeps. Depends on billing (the next charge).
 */

export {
  getInsightsPeople,
  getInsightsPeopleList,
  teamInsightsPeople,
  teamPeopleList,
} from './insightPeople';
export { getInsights, mySpend, NEXT_CHARGE_FRESH_MS, teamInsights } from './insights';
