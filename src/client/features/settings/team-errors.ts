import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';

/** A team change's onError: the server's message, or this one when there is none. */
export const failed = (fallback: string) => (err: unknown) => toast.error(err instanceof ApiError ? err.message : fallback);
