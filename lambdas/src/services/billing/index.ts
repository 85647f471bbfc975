/**
 * Billing: the team's cards on file, the monthly renewal, the charge and
 * funding when an employee joins, the subscription's lifecycle (suspend,
 * resume, close) and the payments history. Depends on money and cards.
 */
export { addCard, declined, getCustomer, removeCard, teamOf, updateDefaultCard } from './cardsOnFile';
export { activateEmployee, issueReplacementCard, type MemberRecord } from './joining';
export { fundPendingMembers, pendingMembers } from './pendingFunding';
export {
  CARD_CALL_CONCURRENCY,
  type CyclePlan,
  monthOfDate,
  type RenewableTeam,
  renewTeam,
} from './renewals';
export {
  closeSubscription,
  nextCharge,
  nextChargeOfTeam,
  resumeSubscription,
  subscriptionScreen,
  suspendIfStillUnpaid,
  suspendSubscription,
} from './subscription';
