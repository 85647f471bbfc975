import { z } from 'zod';
import { EMAIL_PATTERN } from './fields';

/** A required text field: trimmed, non-empty (with the given message), bounded. */
export function requiredText(
  requiredMessage: string,
  max: number,
  tooLongMessage = `Must be at most ${max} characters`,
) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage })
    .max(max, { error: tooLongMessage });
}

/** An optional text field: trimmed; missing, null and blank all become undefined. */
export function optionalText(max: number, tooLongMessage = `Must be at most ${max} characters`) {
  return z.preprocess(
    (value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value),
    z.string().trim().max(max, { error: tooLongMessage }).optional(),
  );
}

/** A required e-mail with the spec's messages, lower-cased so it can be a key. */
export const requiredEmail = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, { error: 'Email is required' })
  .max(254, { error: 'Email is invalid' })
  .regex(EMAIL_PATTERN, { error: 'Email is invalid' })
  .transform((email) => email.toLowerCase());

export const okResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;

/**
 * Before a new monthly commitment (an invitation, a budget raise) is sent:
 * whether it passes the step-up threshold with what the team moved and
 * committed today, counted by the code the action itself counts with. Sent,
 * it needs a factor proven in the last few minutes (GET /me/secondFactor
 * `stepUpNeeded` says whether this session has one).
 */
export const commitmentPreviewOutput = z.object({ needsFreshFactor: z.boolean() });

/** Turns a zod error into `{ field: first message }`, the shape of our envelope's `fields`. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
