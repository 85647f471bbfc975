/**
 * Scheduled jobs. CDK turns each into an EventBridge schedule and the local
 * scheduler fires the same handlers on the same cron. Every job is idempotent
 * (deterministic keys), so firing twice or late is safe.
 *
 * Handler file: `lambdas/src/jobs/<jobId>.ts`, exporting `handler`.
 */
import type { Capability } from './routes';

/** EventBridge cron fields, UTC. Only the fields used here; `*` when absent. */
export interface Cron {
  minute: string;
  hour: string;
  /** Day of month. */
  day?: string;
}

export interface JobDef {
  summary: string;
  cron: Cron;
  uses: readonly Capability[];
}

export const jobs = {
  monthlyFunding: {
    summary:
      'Charges each team whose billing cycle renews today for its active employees and funds their cards (one key per team and month).',
    cron: { minute: '0', hour: '6' },
    uses: ['table:read', 'table:write', 'email:send', 'stripe'],
  },
  receiptDeadlines: {
    summary:
      'Reminds employees of receipts due soon; freezes cards with an overdue receipt, and unfreezes them once all are in.',
    cron: { minute: '0', hour: '14' },
    uses: ['table:read', 'table:write', 'email:send', 'stripe'],
  },
  dormancyNotices: {
    summary:
      'Warns managers at 11 months without a purchase; notifies at 12, 12.5 and 13 months; then deactivates.',
    cron: { minute: '0', hour: '15' },
    uses: ['table:read', 'table:write', 'email:send', 'stripe'],
  },
  peopleSchedule: {
    summary:
      "Invites roster rows whose start day has come and removes people whose last day has come, each on the day in their team's calendar (issue 28).",
    // 10:00 UTC: early morning in the Americas, the same day's afternoon or evening eastward;
    // every zone from UTC-10 to UTC+14 is on the same calendar day as UTC then.
    cron: { minute: '0', hour: '10' },
    uses: [
      'table:read',
      'table:write',
      'table:delete:scheduledStart',
      'email:send',
      'stripe',
      'userPool:disableUser',
      'userPool:signOutEverywhere',
      'table:delete:session',
    ],
  },
  reconciliation: {
    summary:
      'Compares Stripe (charges, refunds, issuing transactions and authorizations since the last run) with the ledger; posts what a flow left unposted, reports what it cannot explain.',
    cron: { minute: '0', hour: '5' },
    uses: ['table:read', 'table:write', 'email:send', 'stripe'],
  },
  requestExpiry: {
    summary:
      'Expires fund requests unanswered for 14 days (each once) and e-mails the employee and the manager.',
    cron: { minute: '0', hour: '13' },
    uses: ['table:read', 'table:write', 'email:send'],
  },
  monthlyEmails: {
    summary:
      "On the first business day of each team's month: a nudge to employees with money and no purchase this month, a digest of last month to managers (issue 26; one per person and month).",
    // 16:00 UTC: late morning in the Americas; later zones get theirs on their own calendar day.
    cron: { minute: '0', hour: '16' },
    uses: ['table:read', 'table:write', 'email:send'],
  },
} as const satisfies Record<string, JobDef>;

export type JobId = keyof typeof jobs;
export const jobIds = Object.keys(jobs) as JobId[];

export function jobFile(jobId: JobId): string {
  return `lambdas/src/jobs/${jobId}.ts`;
}
