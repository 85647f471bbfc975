/** Notification texts of the public forms (spec §8), kept word for word. */

export const waitlistMessages = {
  successTitle: 'Interest logged',
  successText: "Thank you for your interest. We'll be in touch soon!",
  /** Not in the spec (it leaves save failures unhandled); our wording. */
  failureTitle: 'Could not join the waitlist',
} as const;

export const contactMessages = {
  success: 'Message sent successfully!',
  failure: (error: string) => `Error in sending message: ${error}`,
} as const;
