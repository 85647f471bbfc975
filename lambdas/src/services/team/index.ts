/**
 * Team: who a manager may act on (their own team's employees only) and the
 * Activity Log: the entries managers and the jobs write, and reading it.
 */
export { dormantEntry, receiptFreezeEntry, receiptFreezeLiftedEntry } from './systemAudit';
export { teamAudit } from './teamAudit';
export { audit, teamEmployee, teamEmployees } from './teamScope';
