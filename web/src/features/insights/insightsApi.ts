/**
 * The Insights calls (issue 26), behind the route table's operation ids:
 * GET /insights, GET /insights/people, GET /me/spend and
 * PUT /purchases/{purchaseId}/skill, answering the contract in
 * shared/src/schemas/insights.ts.
 */
import {
  type InsightsAnswer,
  type InsightsPeopleAnswer,
  type InsightsQuery,
  insightsAnswer,
  insightsPeopleAnswer,
  type MySpendAnswer,
  mySpendAnswer,
  type PurchaseMedia,
  type SkillArea,
} from '@shared/schemas/insights';
import { type CallOptions, call } from '../../api/client';

// TEMPORARY until feat-ins lands its route entries: the ids are not in the route table yet.
type LooseCall = (operationId: string, input: unknown, options?: CallOptions) => Promise<unknown>;
const loose = call as unknown as LooseCall;

export async function readInsights(query: InsightsQuery, signal?: AbortSignal): Promise<InsightsAnswer> {
  return insightsAnswer.parse(await loose('getInsights', query, { signal }));
}

export async function readInsightsPeople(
  query: InsightsQuery,
  signal?: AbortSignal,
): Promise<InsightsPeopleAnswer> {
  return insightsPeopleAnswer.parse(await loose('getInsightsPeople', query, { signal }));
}

export async function readMySpend(signal?: AbortSignal): Promise<MySpendAnswer> {
  return mySpendAnswer.parse(await loose('getMySpend', {}, { signal }));
}

export async function savePurchaseSkill(
  purchaseId: string,
  skill: { skillArea: SkillArea; media: PurchaseMedia },
): Promise<void> {
  await loose('setPurchaseSkill', { purchaseId, ...skill });
}
