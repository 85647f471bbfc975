/**
 * Dormancy: the daily job that warns, notifies and finally deactivates cards
 * nobody has used for 12 to 13 months.
 */
export { runDormancy } from './dormancy';
