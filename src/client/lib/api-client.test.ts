import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, ApiError } from './api-client.ts';

afterEach(() => vi.unstubAllGlobals());

const answer = (response: Response) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(response)),
  );

describe('apiRequest', () => {
  it('reads a JSON answer', async () => {
    answer(Response.json({ id: 'a' }, { status: 201 }));
    await expect(apiRequest('POST', '/api/x', {})).resolves.toEqual({ id: 'a' });
  });

  it('answers undefined for 204 No Content (DELETE /api/leads/{id}/tasks/{task_id})', async () => {
    answer(new Response(null, { status: 204 }));
    await expect(apiRequest('DELETE', '/api/x')).resolves.toBeUndefined();
  });

  it('throws the error envelope as an ApiError', async () => {
    answer(Response.json({ error: { code: 'not_found', message: 'Task not found.' } }, { status: 404 }));
    await expect(apiRequest('DELETE', '/api/x')).rejects.toEqual(new ApiError(404, 'Task not found.', 'not_found'));
  });
});
