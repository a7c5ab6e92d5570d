import { LIMITS, PROPERTY_TYPES, type PropertyType } from '../constants.ts';
import { NUL_MESSAGE, checkText, type TextRule } from './text-checks.ts';

/**
 * The rules of a lead's fields, as a person types them into the public form or the admin's
 * Add and Edit Lead forms; the messages are the product's own (docs/product-rules.md,
 * "Validation"). schemas/lead.ts builds the server's schema from these same rules.
 */

/** The "standard email pattern" of the original form. */
export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

export { NUL_MESSAGE };

export const LEAD_FIELD_RULES = {
  full_name: {
    required: 'Name is required',
    max: { length: LIMITS.name, message: `Name must be at most ${LIMITS.name} characters` },
    noNul: NUL_MESSAGE,
  },
  email: {
    required: 'Email is required',
    max: { length: LIMITS.email, message: `Email must be at most ${LIMITS.email} characters` },
    pattern: { regex: EMAIL_PATTERN, message: 'Invalid email address' },
    lowerCase: true,
  },
  phone: {
    required: 'Phone number is required',
    max: { length: LIMITS.phone, message: `Phone number must be at most ${LIMITS.phone} characters` },
    noNul: NUL_MESSAGE,
  },
  message: {
    max: { length: LIMITS.message, message: `Message must be at most ${LIMITS.message} characters` },
    noNul: NUL_MESSAGE,
  },
} satisfies Record<string, TextRule>;

/** Forms use exactly one property type (the data model holds a list). */
export const PROPERTY_TYPE_MESSAGES = { required: 'Property type is required', onlyOne: 'Choose one property type' } as const;

export type LeadFieldsInput = {
  full_name?: string;
  email?: string;
  phone?: string;
  property_types?: string[];
  message?: string | null;
};
export type CheckedLeadFields = {
  full_name: string;
  email: string;
  phone: string;
  property_types: PropertyType[];
  message?: string | null;
};
export type LeadFieldErrors = Partial<Record<keyof LeadFieldsInput, string>>;

const isPropertyType = (value: string): value is PropertyType => (PROPERTY_TYPES as readonly string[]).includes(value);

function checkPropertyTypes(types: string[] | undefined): { ok: true; value: PropertyType[] } | { ok: false; error: string } {
  if (!Array.isArray(types)) return { ok: false, error: PROPERTY_TYPE_MESSAGES.required };
  if (types.length > 1) return { ok: false, error: PROPERTY_TYPE_MESSAGES.onlyOne };
  if (types.length === 0 || !types.every(isPropertyType)) return { ok: false, error: PROPERTY_TYPE_MESSAGES.required };
  return { ok: true, value: types };
}

/** The browser's check of a lead form: the cleaned fields, or the first message for each field that fails. */
export function checkLeadFields(input: LeadFieldsInput): { ok: true; value: CheckedLeadFields } | { ok: false; errors: LeadFieldErrors } {
  const errors: LeadFieldErrors = {};
  const text = (key: keyof typeof LEAD_FIELD_RULES) => {
    const result = checkText(input[key], LEAD_FIELD_RULES[key]);
    if (!result.ok) errors[key] = result.error;
    return result.ok ? result.value : undefined;
  };
  const full_name = text('full_name');
  const email = text('email');
  const phone = text('phone');
  const types = checkPropertyTypes(input.property_types);
  if (!types.ok) errors.property_types = types.error;
  const message = text('message');
  if (Object.keys(errors).length > 0 || !types.ok) return { ok: false, errors };
  const value: CheckedLeadFields = { full_name: full_name!, email: email!, phone: phone!, property_types: types.value };
  if ('message' in input) value.message = message;
  return { ok: true, value };
}
