import type { PublicLeadRequest, PublicLeadResponse } from '#shared/schemas/lead';
import { postJson } from '#client/lib/api-client.ts';

export const PUBLIC_LEADS_PATH = '/api/public/leads';

/** POST /api/public/leads: 201 {"status":"received","booking_token":…}; failures throw ApiError or TypeError. */
export function submitLead(request: PublicLeadRequest): Promise<PublicLeadResponse> {
  return postJson<PublicLeadResponse>(PUBLIC_LEADS_PATH, request);
}
