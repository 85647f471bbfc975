/** Unsubscribing from the monthly e-mails (issue 26, point 5) with the link's token, signed out. */
import { z } from 'zod';

export const unsubscribeInput = z.object({
  token: z.string().min(20, 'This unsubscribe link is not valid or has expired.').max(200),
});

export const unsubscribeOutput = z.object({
  kind: z.enum(['nudge', 'digest']),
  /** The profile setting that turns it back on ("Monthly nudges", "Monthly digest"). */
  setting: z.string(),
});
