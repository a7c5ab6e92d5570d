import type { PublicLeadRequest } from '#shared/schemas/lead';
import type { CheckedLeadFields } from '#shared/rules/lead-fields';

/** What the public form adds to a checked lead: the honeypot, the idempotency key, the form token and the visit. */
export function buildLeadRequest(
  lead: CheckedLeadFields,
  extra: { website: string; submissionId: string; formToken: string; analyticsSessionId?: string | undefined },
): PublicLeadRequest {
  return {
    ...lead,
    website: extra.website,
    submission_id: extra.submissionId,
    form_token: extra.formToken,
    ...(extra.analyticsSessionId ? { analytics_session_id: extra.analyticsSessionId } : {}),
  };
}

/** crypto.randomUUID exists only in secure contexts (https, localhost); fall back to a v4 UUID. */
export function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
