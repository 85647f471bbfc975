/**
 * Accounts: registration, invitations check, sign-in, e-mail verification and
 * password recovery (spec §2, §4, §5; decisions.md "Passwords").
 */
import { z } from 'zod';
import { optionalText, requiredEmail, requiredText } from './common';
import { PASSWORD_MIN_LENGTH } from './fields';
import { meOutput, roleSchema } from './me';

/** One rule for client and server: at least 8 characters (decisions.md), at most Cognito's 256. */
export const passwordRule = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, { error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(256, { error: 'Password must be at most 256 characters' });

export const PASSWORD_HELPER_TEXT = `Must include at least ${PASSWORD_MIN_LENGTH} characters`;

const firstName = requiredText('First name is required', 50);
const lastName = requiredText('Last name is required', 50);

export const registerManagerInput = z.object({
  firstName,
  lastName,
  email: requiredEmail,
  password: passwordRule,
  company: requiredText('Company name is required', 120),
});
export type RegisterManagerInput = z.input<typeof registerManagerInput>;

/** US ZIP or ZIP+4. */
export const zipRule = z
  .string({ error: 'Zip code is required' })
  .trim()
  .min(1, { error: 'Zip code is required' })
  .regex(/^\d{5}(-\d{4})?$/, { error: 'Zip code must be 5 digits (or ZIP+4)' });

/** Without the invitation's link there is nothing to join with: knowing an invited address is not enough. */
export const INVITATION_LINK_REQUIRED = 'Open the link in your invitation email to join your team';

export const registerEmployeeInput = z.object({
  firstName,
  lastName,
  email: requiredEmail,
  password: passwordRule,
  zip: zipRule,
  /** The secret from the invitation e-mail's link (`?token=`); the address alone is not enough. */
  token: z
    .string({ error: INVITATION_LINK_REQUIRED })
    .trim()
    .min(1, { error: INVITATION_LINK_REQUIRED })
    .max(200, { error: INVITATION_LINK_REQUIRED }),
});
export type RegisterEmployeeInput = z.input<typeof registerEmployeeInput>;

export const registeredOutput = z.object({ userId: z.string(), role: roleSchema });

export const inviteCheckInput = z.object({ email: requiredEmail });
/**
 * "Enter your email" answers these words whether or not the address is invited
 * (the link goes to the address only if it is), so asking tells nobody anything.
 */
export const INVITATION_LINK_SENT = 'If you were invited, a link is on its way to that address';
export const inviteCheckOutput = z.object({ message: z.literal(INVITATION_LINK_SENT) });

/** 'Invite your manager to the product' (decisions.md): the manager gets an e-mail to create a team. */
export const inviteManagerInput = z.object({
  managerEmail: requiredEmail,
  fromName: optionalText(100),
  /** The address the person tried on the invite check, so the manager knows whom to invite. */
  fromEmail: optionalText(254),
});

/** An authenticator code (6 digits) or a recovery code (`xxxx-xxxx-xxxx`). */
/**
 * An authenticator code (six digits) or a recovery code (letters and digits,
 * dashes and spaces as typed). Nothing else gets further: a multi-byte or
 * direction-control character would make a six-character code longer than
 * six bytes, which the constant-time comparison refuses by throwing.
 */
export const secondFactorCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, { error: 'Code is required' })
  .max(40, { error: 'That code is too long' })
  .regex(/^[A-Za-z0-9 -]+$/, { error: 'That code is not valid. Use only the letters and digits shown.' });

export const signInInput = z.object({
  email: requiredEmail,
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(256),
  /** Only for an account with an authenticator app: asked for (MFA_REQUIRED) once the password is right. */
  code: secondFactorCode.optional(),
});

/** A fresh factor for money-moving actions: the code when an authenticator is set up, else the password. */
export const stepUpInput = z.object({
  code: secondFactorCode.optional(),
  password: z.string().min(1, { error: 'Password is required' }).max(256).optional(),
});

export const secondFactorStatusOutput = z.object({
  totpEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /**
   * This access token has no factor proven in the last few minutes: a route
   * marked `freshFactor` (when it applies) would be refused with
   * STEP_UP_REQUIRED now. The web app asks for one before sending such a
   * request instead of after the refusal; the server checks again regardless.
   */
  stepUpNeeded: z.boolean(),
});

/** Shown once while enrolling: the secret is never sent again. */
export const totpEnrolmentOutput = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  otpauthUri: z.string(),
  /** The otpauth URI as a PNG data URL. */
  qrCode: z.string(),
});

export const secondFactorCodeInput = z.object({ code: secondFactorCode });

/** A code we e-mailed to the account's verified address (POST /me/identityCode): eight digits. */
export const emailedCode = z
  .string({ error: 'Code is required' })
  .trim()
  .regex(/^\d{8}$/, { error: 'Enter the 8-digit code from the email.' });

/**
 * Proof beyond the access token, for changes to the account's factors
 * (issue 24, attack 1): the password, or for an account without one (made by
 * social sign-in) a code e-mailed to its verified address. A stolen access
 * token has neither.
 */
export const identityProof = {
  password: z.string().min(1, { error: 'Password is required' }).max(256).optional(),
  emailCode: emailedCode.optional(),
};
export const identityProofInput = z.object(identityProof);
export type IdentityProof = z.infer<typeof identityProofInput>;

/** Turning the app off or renewing recovery codes: a code from the app (or a recovery code) and the proof. */
export const factorChangeInput = z.object({ code: secondFactorCode, ...identityProof });

/** Shown once; only their hashes are kept. */
export const recoveryCodesOutput = z.object({ recoveryCodes: z.array(z.string()) });
/** The refresh token is never in a body: it travels in the HttpOnly session cookie (docs/security.md). */
export const sessionOutput = z.object({
  accessToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int(),
  role: roleSchema,
});
export type SessionOutput = z.infer<typeof sessionOutput>;
/**
 * A renewed session (POST /auth/refresh) also carries GET /me's answer for its
 * holder, so a reload restores the session in one round trip.
 */
export const refreshedSessionOutput = sessionOutput.extend({ me: meOutput });

/**
 * Social sign-in's return (POST /auth/social): the hosted UI's authorization
 * code and the PKCE verifier the browser made for it; our API exchanges them
 * for tokens, so no token is ever kept by a script. When the account has an
 * authenticator app the answer is MFA_REQUIRED, and the same route then takes
 * the code alone (the pending sign-in rides in an HttpOnly cookie). When the
 * provider's address has an account the provider may not join on the address
 * alone, the answer is PASSWORD_REQUIRED, and the route then takes that
 * account's password, once.
 */
export const socialSignInInput = z.union([
  z.object({
    authorizationCode: z.string().trim().min(1).max(2048),
    /** RFC 7636: 43-128 characters of A-Z a-z 0-9 - . _ ~ */
    codeVerifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, { error: 'The sign-in with the provider did not complete.' }),
  }),
  z.object({ code: secondFactorCode }),
  z.object({
    password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(256),
  }),
]);
export type SocialSignInInput = z.input<typeof socialSignInInput>;

/** Refresh and sign-out take nothing in the body: the session cookie names the session. */
export const refreshSessionInput = z.object({});

export const emailTokenInput = z.object({ token: z.string().trim().min(16).max(200) });
/**
 * `alreadyVerified`: this very link was opened before and the address is verified,
 * so the page says so instead of "invalid" (only the e-mail's reader holds the link).
 */
export const verifyEmailOutput = z.object({ role: roleSchema, alreadyVerified: z.boolean() });

export const forgotPasswordInput = z.object({
  email: z
    .string({ error: 'Valid email is required!' })
    .trim()
    .min(1, { error: 'Valid email is required!' })
    .regex(/^\S+@\S+\.\S+$/, { error: 'Valid email is required!' })
    .transform((e) => e.toLowerCase()),
});

/** spec §5 "Reset": the two passwords must match. */
export const PASSWORDS_DIFFER = 'Passwords do not match!';

/** The new password twice, as the reset form asks for it: the server checks they match too. */
export const resetPasswordInput = z
  .object({
    token: z.string().trim().min(16).max(200),
    password: passwordRule,
    confirmPassword: z.string({ error: PASSWORDS_DIFFER }).max(256, { error: PASSWORDS_DIFFER }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    error: PASSWORDS_DIFFER,
    path: ['confirmPassword'],
  });

/** spec-less (ours): a wrong current password on the profile's change form. */
export const CURRENT_PASSWORD_WRONG = 'Your current password is not right.';
export const CURRENT_PASSWORD_REQUIRED = 'Enter your current password.';
export const PASSWORD_UNCHANGED = 'Choose a password different from your current one.';

/**
 * Changing the password while signed in (/editProfile): the current one as
 * proof (a stolen session alone cannot change it), the new one twice.
 */
export const changePasswordInput = z
  .object({
    currentPassword: z
      .string({ error: CURRENT_PASSWORD_REQUIRED })
      .min(1, { error: CURRENT_PASSWORD_REQUIRED })
      .max(256, { error: CURRENT_PASSWORD_WRONG }),
    password: passwordRule,
    confirmPassword: z.string({ error: PASSWORDS_DIFFER }).max(256, { error: PASSWORDS_DIFFER }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    error: PASSWORDS_DIFFER,
    path: ['confirmPassword'],
  })
  .refine((input) => input.password !== input.currentPassword, {
    error: PASSWORD_UNCHANGED,
    path: ['password'],
  });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;
