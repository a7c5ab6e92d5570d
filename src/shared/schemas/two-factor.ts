import * as z from 'zod';

/** Two-factor set-up and the team's security rule. */

export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean(),
    recovery_codes_left: z.number().int(),
    /** The team requires it of everyone. */
    required: z.boolean(),
    /** Required, not set up, and this account has a calendar feed: the feed answers 403 until two-factor is on. */
    calendar_feed_paused: z.boolean().optional(),
  })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const twoFactorSetupSchema = z
  .object({
    /** For the authenticator app: scanned from the QR code, or typed (the secret). */
    otpauth_uri: z.string(),
    secret: z.string(),
    qr_code: z.string(),
  })
  .meta({ id: 'TwoFactorSetup' });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

export const CODE_INVALID = 'That code is not right. Check the time on your phone, or wait for the next code.';
export const codeSchema = z
  .string({ error: 'Code is required' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your app');
export const confirmTwoFactorSchema = z.object({ code: codeSchema }).meta({ id: 'ConfirmTwoFactor' });
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) }).meta({ id: 'RecoveryCodes' });
export const passwordConfirmSchema = z
  .object({ current_password: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(1024) })
  .meta({ id: 'PasswordConfirm' });

export const securitySettingsSchema = z.object({ require_two_factor: z.boolean() }).meta({ id: 'SecuritySettings' });
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;
