/**
 * Cards: the issuer's real-time authorization and the settlement that follows
 * (captures, refunds, expiries), the card's backstop limits at the issuer, and
 * the employee's own card, balance and statement. Depends on receipts (overdue
 * receipts freeze a card).
 */
export { type AuthorizationRequest, decideAuthorization, recordIssuerDecline } from './cardAuthorization';
export { creditedToCard, updateBackstop } from './cardBackstop';
export { applyCapture, applyMerchantRefund, syncAuthorization } from './cardSettlement';
export { cardKey, myBalance, myStatement } from './myCard';
