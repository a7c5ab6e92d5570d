import * as z from 'zod';
import { leadIdParamSchema } from '#shared/schemas/lead';
import { noteParamsSchema, noteRequestSchema, noteSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { createNote, deleteNote, updateNote, type NoteRefusal } from '../db/queries/lead-notes-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const createRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/notes',
  tags: ['leads'],
  summary: 'Add a note to the lead (plain text, line breaks kept)',
  request: { params: leadIdParamSchema, body: { required: true, ...jsonContent(noteRequestSchema, 'The note') } },
  responses: { 201: jsonContent(noteSchema, 'The note'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/leads/{id}/notes/{noteId}',
  tags: ['leads'],
  summary: 'Change a note (its author only)',
  request: { params: noteParamsSchema, body: { required: true, ...jsonContent(noteRequestSchema, 'The new text') } },
  responses: {
    200: jsonContent(noteSchema, 'The note'),
    ...errorResponses({ 400: 'Invalid input', 403: 'Written by another admin', 404: 'No such note on this lead' }),
  },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/leads/{id}/notes/{noteId}',
  tags: ['leads'],
  summary: 'Delete a note (its author only)',
  request: { params: noteParamsSchema },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Deleted'),
    ...errorResponses({ 400: 'Invalid input', 403: 'Written by another admin', 404: 'No such note on this lead' }),
  },
});

/** docs/product-rules.md, "Notes": only the author changes or deletes a note. */
const refused = (why: NoteRefusal) =>
  why === 'not_author' ? new AppError('forbidden', 'You can only change your own notes.') : new AppError('not_found', 'Note not found.');

export const leadNoteRoutes = createRouter()
  .openapi(createRoute, async (c) => {
    const note = await createNote(c.get('db'), c.req.valid('param').id, c.get('user').id, c.req.valid('json').body);
    if (!note) throw new AppError('not_found', 'Lead not found.');
    return c.json(note, 201);
  })
  .openapi(updateRoute, async (c) => {
    const { id, noteId } = c.req.valid('param');
    const note = await updateNote(c.get('db'), id, noteId, c.get('user').id, c.req.valid('json').body);
    if (typeof note === 'string') throw refused(note);
    return c.json(note, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id, noteId } = c.req.valid('param');
    const deleted = await deleteNote(c.get('db'), id, noteId, c.get('user').id);
    if (deleted !== true) throw refused(deleted);
    return c.json({ id: noteId }, 200);
  });
