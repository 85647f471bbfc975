/**
 * Team: who a manager may act on (their own team's employees only) and the
 * Activity Log: the entries managers and the jobs write, and reading it; the
 * team's time zone; the monthly accounting export of its money movements.
 */
export { exportAccounting } from './accountingExport';
export { dormantEntry, receiptFreezeEntry, receiptFreezeLiftedEntry } from './systemAudit';
export { teamAudit } from './teamAudit';
export { setTeamTimeZone } from './teamCalendar';
export { audit, teamEmployee, teamEmployees } from './teamScope';
