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
});
export type MeOutput = z.infer<typeof meOutput>;
