/**
 * PUT /purchases/{purchaseId}/skill (issue 26): the employee (their own
 * purchase, in the receipt dialog) or the manager (the team's, in purchase
 * history) sets a purchase's skill area and media type. The purchase's net
 * amount (settled less refunded) moves between the areas in the insights
 * aggregates of the month its capture was counted in, in one transaction
 * conditioned on the values read (skill, media and refunded amount): a change
 * or a refund meanwhile cancels it and it is read again, so nothing is moved
 * twice. A manager's change is audited in the same transaction.
 */
import { teamMonthOf, UNKNOWN_MEDIA, UNKNOWN_SKILL } from '@shared/domain/insightDeltas';
import type { PurchaseMedia, SkillArea } from '@shared/schemas/insights';
import type { PurchaseRow } from '@shared/schemas/purchases';
import { newId } from '../../adapters/clock';
import { getTeamZone } from '../../data/accounts';
import { auditTransactItem } from '../../data/audit';
import { tableName } from '../../data/client';
import { skillMoveItems } from '../../data/insightTotals';
import { keys } from '../../data/keys';
import { getPurchase, type PurchaseRecord } from '../../data/purchases';
import { failedConditionItems, sendTransaction, type TransactItem } from '../../data/transactions';
import type { Actor } from '../../platform/auth';
import { toRow, visiblePurchase } from './purchases';

const ATTEMPTS = 5;

function purchaseUpdate(
  purchase: PurchaseRecord,
  to: { skillArea: string; media: string },
  source: 'employee' | 'manager',
): TransactItem {
  const known = purchase.skillArea !== undefined;
  const refunded = purchase.refundedCents ?? 0;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.purchase(purchase.purchaseId),
      UpdateExpression: 'SET skillArea = :skill, media = :media, skillSource = :source',
      ConditionExpression: [
        'attribute_exists(pk)',
        known ? 'skillArea = :oldSkill AND media = :oldMedia' : 'attribute_not_exists(skillArea)',
        refunded > 0
          ? 'refundedCents = :refunded'
          : '(attribute_not_exists(refundedCents) OR refundedCents = :zero)',
      ].join(' AND '),
      ExpressionAttributeValues: {
        ':skill': to.skillArea,
        ':media': to.media,
        ':source': source,
        ...(known ? { ':oldSkill': purchase.skillArea, ':oldMedia': purchase.media } : {}),
        ...(refunded > 0 ? { ':refunded': refunded } : { ':zero': 0 }),
      },
    },
  };
}

export async function setPurchaseSkill(
  actor: Actor,
  input: { purchaseId: string; skillArea: SkillArea; media: PurchaseMedia },
  now: Date,
): Promise<PurchaseRow> {
  let purchase = await visiblePurchase(actor, input.purchaseId);
  const zone = await getTeamZone(purchase.teamId);
  const to = { skillArea: input.skillArea, media: input.media };
  const source = actor.role === 'manager' ? 'manager' : 'employee';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const from = { skillArea: purchase.skillArea ?? UNKNOWN_SKILL, media: purchase.media ?? UNKNOWN_MEDIA };
    const unchanged = from.skillArea === to.skillArea && from.media === to.media;
    if (unchanged && purchase.skillArea !== undefined && purchase.skillSource !== 'none') {
      return toRow(purchase, now, zone);
    }
    const at = now.toISOString();
    const items: TransactItem[] = [
      purchaseUpdate(purchase, to, source),
      ...skillMoveItems({
        teamId: purchase.teamId,
        userId: purchase.userId,
        month: purchase.insightMonth ?? teamMonthOf(purchase.createdAt, zone),
        netCents: purchase.amountCents - (purchase.refundedCents ?? 0),
        from,
        to,
      }),
      ...(source === 'manager'
        ? [
            auditTransactItem(
              {
                teamId: purchase.teamId,
                actorId: actor.userId,
                action: 'purchase.skillChanged',
                targetId: purchase.userId,
                before: { purchaseId: purchase.purchaseId, merchant: purchase.merchant, ...from },
                after: { purchaseId: purchase.purchaseId, merchant: purchase.merchant, ...to },
                at,
              },
              // Each change its own entry: two changes in the same millisecond are two events.
              `purchaseSkill#${purchase.purchaseId}#${newId(now)}`,
            ),
          ]
        : []),
    ];
    try {
      await sendTransaction(items);
      return toRow({ ...purchase, ...to, skillSource: source }, now, zone);
    } catch (error) {
      if (!failedConditionItems(error).includes(0)) throw error;
      // Changed meanwhile (another change, or a refund): read it again and move from what it is now.
      const fresh = await getPurchase(purchase.purchaseId);
      if (!fresh) throw error;
      purchase = fresh;
    }
  }
  throw new Error(`purchase ${input.purchaseId}: its skill area kept changing`);
}
