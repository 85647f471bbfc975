/**
 * Purchases: the purchase history (employee and manager), the team's CSV
 * export, and the pre-purchase check.
 */
export { checkPurchase } from './purchaseCheck';
export { exportTeamPurchases } from './purchaseExport';
export { setPurchaseSkill } from './purchaseSkill';
export { listPurchases, toRow, visiblePurchase } from './purchases';
