import { LIMITS } from '../constants.ts';
import { NUL_MESSAGE, checkText, type TextRule } from './text-checks.ts';

/**
 * A person on the team: the name the product shows for them (as a lead's owner, a note's
 * author, a timeline entry's or an audit entry's actor) and an optional phone. Asked when the
 * account is made (first run, an invitation, `npm run admin -- create --name`) and changed on
 * the account page (docs/product-rules.md, "The team"). schemas/account.ts builds the server's
 * schema from these rules.
 */
export const DISPLAY_NAME_MAX = 80;

export const PROFILE_RULES = {
  display_name: {
    required: 'Name is required',
    max: { length: DISPLAY_NAME_MAX, message: `Name must be at most ${DISPLAY_NAME_MAX} characters` },
    noNul: NUL_MESSAGE,
  },
  phone: {
    max: { length: LIMITS.phone, message: `Phone number must be at most ${LIMITS.phone} characters` },
    noNul: NUL_MESSAGE,
  },
} satisfies Record<string, TextRule>;

export type ProfileInput = { display_name?: string; phone?: string | null };
/** The phone as typed and trimmed: blank ('') or absent means none (stored as null). */
export type CheckedProfile = { display_name: string; phone?: string | null };
export type ProfileErrors = Partial<Record<keyof ProfileInput, string>>;

/** The browser's check of the profile form: the cleaned fields, or the first message for each field. */
export function checkProfile(input: ProfileInput): { ok: true; value: CheckedProfile } | { ok: false; errors: ProfileErrors } {
  const name = checkText(input.display_name, PROFILE_RULES.display_name);
  const phone = checkText(input.phone, PROFILE_RULES.phone);
  const errors: ProfileErrors = {};
  if (!name.ok) errors.display_name = name.error;
  if (!phone.ok) errors.phone = phone.error;
  if (!name.ok || !phone.ok) return { ok: false, errors };
  const value: CheckedProfile = { display_name: name.value! };
  if ('phone' in input) value.phone = phone.value;
  return { ok: true, value };
}

/**
 * A name for an account made without one (ADMIN_EMAIL without ADMIN_NAME, accounts from
 * before names): the part of the email before the @, cut to the longest name. The database
 * migration that added names does the same in SQL (drizzle/*_people_names.sql).
 */
export function defaultDisplayName(email: string): string {
  const local = email.split('@')[0]!.trim();
  return [...(local || email.trim() || 'Admin')].slice(0, DISPLAY_NAME_MAX).join('');
}
