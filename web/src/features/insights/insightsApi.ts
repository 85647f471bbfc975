/**
 * The Insights calls (issue 26), by the route table's operation ids:
 * GET /insights, GET /insights/people, GET /insights/people/all, GET /me/spend and
 * PUT /purchases/{purchaseId}/skill, answering the contract in
 * shared/src/schemas/insights.ts.
 */
import type {
  InsightsAnswer,
  InsightsPeopleAnswer,
  InsightsPeopleListAnswer,
  InsightsPeopleListQuery,
  InsightsQuery,
  MySpendAnswer,
  PurchaseMedia,
  SkillArea,
} from '@shared/schemas/insights';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { call } from '../../api/client';

export function readInsights(query: InsightsQuery, signal?: AbortSignal): Promise<InsightsAnswer> {
  return call('getInsights', query, { signal });
}

export function readInsightsPeople(
  query: InsightsQuery,
  signal?: AbortSignal,
): Promise<InsightsPeopleAnswer> {
  return call('getInsightsPeople', query, { signal });
}

/** One of the page's people lists in full (for its CSV): the answer is the list asked for. */
export function readInsightsPeopleList<List extends InsightsPeopleListQuery['list']>(
  query: InsightsQuery & { list: List },
  signal?: AbortSignal,
): Promise<Extract<InsightsPeopleListAnswer, { list: List }>> {
  return call('getInsightsPeopleList', query, { signal }) as Promise<
    Extract<InsightsPeopleListAnswer, { list: List }>
  >;
}

export function readMySpend(signal?: AbortSignal): Promise<MySpendAnswer> {
  return call('getMySpend', {}, { signal });
}

/** The purchase as it is stored afterwards (the server says who set it). */
export function savePurchaseSkill(
  purchaseId: string,
  skill: { skillArea: SkillArea; media: PurchaseMedia },
): Promise<PurchaseRow> {
  return call('setPurchaseSkill', { purchaseId, ...skill });
}
