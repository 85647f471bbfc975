/**
 * Money: extra deposits, the team pool, reallocation and redemption of a
 * removed person's money (or its return to them, reactivated), the daily money limits (which new monthly
 * commitments count against too), and repaying a card's debt from its next
 * credit. Every movement goes through the ledger (data/ledger.ts).
 */
export {
  checkCommitment,
  commit,
  commitmentNeedsFreshFactor,
  commitProvisioned,
  committedToday,
  movedOrCommittedToday,
  settleCommitment,
} from './commitments';
export { collectDebt } from './debtCollection';
export { deposit, previewDeposit } from './deposits';
export { movedToday } from './movedToday';
export { finishOpenPoolClaims } from './openClaims';
export { pooledFrom, retireEmployeeMoney, sweepToPool } from './pool';
export { asRule } from './poolClaim';
export { poolSince, returnPooledMoney } from './poolReturn';
export { previewReallocation, reallocate } from './reallocation';
export { previewRedemption, redeem, refundableCharges } from './redemption';
export { reserveWithinLimit, settleWithinLimit } from './velocityLimits';
