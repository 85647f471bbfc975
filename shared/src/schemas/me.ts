import { z } from 'zod';

export const roleSchema = z.enum(['manager', 'employee']);
export type Role = z.infer<typeof roleSchema>;

export const userStatusSchema = z.enum(['invited', 'active', 'paused', 'deleted']);
export type UserStatus = z.infer<typeof userStatusSchema>;

/**
 * Where someone stands with dormancy (docs/decisions.md "Dormancy"): `warned`
 * (manager told at 11 months), `noticed` (12 months or more: both told),
 * `dormant` (card inactive, paused; the money waits for the manager), with the
 * day the card stops if nothing is bought.
 */
export const dormancyView = z.object({
  stage: z.enum(['active', 'warned', 'noticed', 'dormant']),
  inactiveFrom: z.string().nullable(),
});
export type DormancyView = z.infer<typeof dormancyView>;

/** The signed-in person as the web app needs them: identity, role and team. */
export const meOutput = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  teamId: z.string(),
  /** The team's name (the company given at sign-up): the setup wizard's Business Name starts with it. */
  teamName: z.string().optional(),
  status: userStatusSchema,
  emailVerified: z.boolean(),
  finishedWalkthrough: z.boolean(),
  /**
   * The team's billing state: `setup` until the manager finishes /setupAccount,
   * `pastDue` while the team's card is declined, `suspended` or `closed` by the
   * subscription's lifecycle (the console shows a banner for each).
   */
  teamStatus: z.enum(['setup', 'active', 'pastDue', 'suspended', 'closed']),
  /** The team's time zone (IANA): every date on every screen is the day in it (shared/src/domain/calendar.ts). */
  timeZone: z.string(),
  /** Employees: dormancy, for the banner in the signed-in frame. */
  dormancy: dormancyView.optional(),
});
export type MeOutput = z.infer<typeof meOutput>;
