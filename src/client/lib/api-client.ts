import type { ErrorCode, ErrorResponse } from '#shared/schemas/error';

/**
 * The one way the browser talks to /api (docs/conventions.md, "Errors"): every non-2xx
 * answer becomes an ApiError carrying the server's error envelope; a failed connection is
 * left as the fetch TypeError.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly fields: Record<string, string> | undefined;
  /** With a 409 for a taken time: the open times of that day now. */
  readonly slots: string[] | undefined;
  /** With a 409 for an appointment over others: the ones it overlaps. */
  readonly conflicts: ErrorResponse['error']['conflicts'];
  /** With a 409 for an appointment: its time is busy in the host's outside calendar. */
  readonly busyOutside: boolean;
  /** With a 400 for a lead import with rows in error: the report (nothing was stored). */
  readonly importReport: ErrorResponse['error']['import_report'];

  constructor(
    status: number,
    message: string,
    code?: ErrorCode,
    fields?: Record<string, string>,
    extra: Pick<ErrorResponse['error'], 'slots' | 'conflicts' | 'import_report' | 'busy_outside'> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.slots = extra.slots;
    this.conflicts = extra.conflicts;
    this.importReport = extra.import_report;
    this.busyOutside = extra.busy_outside === true;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!isErrorResponse(body)) return new ApiError(response.status, `HTTP ${response.status}`);
  const { code, message, fields, slots, conflicts, import_report, busy_outside } = body.error;
  return new ApiError(response.status, message, code, fields, {
    busy_outside: busy_outside === true,
    slots: Array.isArray(slots) && slots.every((s) => typeof s === 'string') ? slots : undefined,
    conflicts: Array.isArray(conflicts) ? conflicts : undefined,
    import_report: import_report && Array.isArray(import_report.errors) ? import_report : undefined,
  });
}

/** Whether an answer is our error envelope (a proxy's HTML error page is not). */
function isErrorResponse(body: unknown): body is ErrorResponse {
  const error = (body as { error?: Partial<ErrorResponse['error']> } | null)?.error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') return false;
  return (
    error.fields === undefined ||
    (typeof error.fields === 'object' && error.fields !== null && Object.values(error.fields).every((v) => typeof v === 'string'))
  );
}

/** A path with each value in it URI-encoded, so no id can reach another endpoint: apiPath`/api/leads/${id}`. */
export function apiPath(parts: TemplateStringsArray, ...values: (string | number)[]): string {
  return parts.reduce((path, part, i) => path + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}

export async function postJson<T>(path: string, body: unknown, init?: { signal?: AbortSignal }): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal: init?.signal,
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as T;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** The admin app's auth state listens here: any 401 means the session is gone. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** A JSON request to our API (undefined for a 204); non-2xx answers throw ApiError (401s also notify onUnauthorized). */
export async function apiRequest<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const error = await toApiError(response);
    if (response.status === 401) for (const listener of unauthorizedListeners) listener();
    throw error;
  }
  // 204 No Content (a task removed, a calendar disconnected): no body to read.
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
