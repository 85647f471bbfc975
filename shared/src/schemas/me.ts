import { z } from 'zod';

export const roleSchema = z.enum(['manager', 'employee']);
export type Role = z.infer<typeof roleSchema>;

export const userStatusSchema = z.enum(['invited', 'active', 'paused', 'deleted']);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** The signed-in person as the web app needs them: identity, role and team. */
export const meOutput = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  teamId: z.string(),
  status: userStatusSchema,
  emailVerified: z.boolean(),
  finishedWalkthrough: z.boolean(),
  /**
   * The team's billing state: `setup` until the manager finishes /setupAccount,
   * `pastDue` while the team's card is declined, `suspended` or `closed` by the
   * subscription's lifecycle (the console shows a banner for each).
   */
  teamStatus: z.enum(['setup', 'active', 'pastDue', 'suspended', 'closed']),
});
export type MeOutput = z.infer<typeof meOutput>;
