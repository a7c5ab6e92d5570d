import * as z from 'zod';
import { currentUserSchema } from '#shared/schemas/auth';
import {
  acceptInviteSchema,
  inviteCreatedSchema,
  inviteLookupSchema,
  inviteParamsSchema,
  inviteRequestSchema,
  linkTokenSchema,
  memberParamsSchema,
  reassignRequestSchema,
  reassignResultSchema,
  roleChangeSchema,
  setupRequestSchema,
  teamMemberSchema,
  teamSchema,
} from '#shared/schemas/team';
import { actorOf } from '../audit/audit-log.ts';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { endAccountAccess } from '../auth/end-access.ts';
import { requireSetupLink, setUpFirstOwner } from '../auth/first-owner.ts';
import { acceptInvitation, inviteMember } from '../auth/invitations.ts';
import { startSession } from '../auth/start-session.ts';
import { teamRefusal } from '../auth/team-refusal.ts';
import { hashToken } from '../lib/secret-token.ts';
import {
  changeRole,
  deactivateMember,
  findInvite,
  getTeam,
  INVITE_NOT_VALID,
  reactivateMember,
  reassignLeads,
  removeMember,
  revokeInvite,
} from '../db/queries/team-queries.ts';
import { AppError } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** The team page (owners), invitations, and the first owner's set-up. */

const listRoute = createOwnerRoute({
  method: 'get',
  path: '/api/team',
  tags: ['team'],
  summary: 'The team: every account (name, email, phone, role, last sign-in, two-factor, active or not) and the pending invitations',
  responses: { 200: jsonContent(teamSchema, 'The team') },
});

const inviteRoute = createOwnerRoute({
  method: 'post',
  path: '/api/team/invites',
  tags: ['team'],
  summary: 'Invite someone by email: a single-use link valid 72 hours, emailed (and returned, to copy when email is off)',
  request: { body: { required: true, ...jsonContent(inviteRequestSchema, 'Who, and as what') } },
  responses: { 201: jsonContent(inviteCreatedSchema, 'Invited'), ...errorResponses({ 400: 'Invalid input', 409: 'Already on the team' }) },
});

const revokeRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/team/invites/{id}',
  tags: ['team'],
  summary: 'Withdraw a pending invitation (its link stops working)',
  request: { params: inviteParamsSchema },
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true) }), 'Withdrawn'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such pending invitation' }),
  },
});

const memberResponses = {
  200: jsonContent(teamMemberSchema, 'The account after the change'),
  ...errorResponses({
    400: 'Invalid input',
    404: 'No such account',
    409: 'The team would be left without an active owner, or it is your own account',
  }),
};

const roleRoute = createOwnerRoute({
  method: 'patch',
  path: '/api/team/members/{id}',
  tags: ['team'],
  summary: "Change someone's role",
  request: { params: memberParamsSchema, body: { required: true, ...jsonContent(roleChangeSchema, 'The new role') } },
  responses: memberResponses,
});

const deactivateRoute = createOwnerRoute({
  method: 'post',
  path: '/api/team/members/{id}/deactivate',
  tags: ['team'],
  summary:
    'Deactivate an account: its sessions, live streams, calendar feed and remembered devices end at once; its leads keep it as owner',
  request: { params: memberParamsSchema },
  responses: memberResponses,
});

const reactivateRoute = createOwnerRoute({
  method: 'post',
  path: '/api/team/members/{id}/reactivate',
  tags: ['team'],
  summary: 'Let a deactivated account sign in again',
  request: { params: memberParamsSchema },
  responses: memberResponses,
});

const removeRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/team/members/{id}',
  tags: ['team'],
  summary: 'Remove an account for good (its leads and notes stay, without owner or author)',
  request: { params: memberParamsSchema },
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true) }), 'Removed'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such account', 409: 'The last active owner, or your own account' }),
  },
});

const reassignRoute = createOwnerRoute({
  method: 'post',
  path: '/api/team/members/{id}/reassign',
  tags: ['team'],
  summary: 'Give every lead this person owns to someone else (or to nobody)',
  request: { params: memberParamsSchema, body: { required: true, ...jsonContent(reassignRequestSchema, 'The new owner') } },
  responses: {
    200: jsonContent(reassignResultSchema, 'How many leads moved'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such account', 409: 'The new owner is deactivated' }),
  },
});

const tokenParams = z.object({ token: linkTokenSchema });

const inviteLookupRoute = createPublicRoute({
  method: 'get',
  path: '/api/auth/invites/{token}',
  tags: ['auth'],
  summary: 'The invitation a link stands for (email and role), while it can be accepted',
  request: { params: tokenParams },
  responses: {
    200: jsonContent(inviteLookupSchema, 'The invitation'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Used, withdrawn, expired or unknown' }),
  },
});

const signedIn = jsonContent(z.object({ user: currentUserSchema }), 'The new account, signed in');

const acceptRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/invites/accept',
  tags: ['auth'],
  summary: 'Accept an invitation: give your name and choose a password; the account is created and signed in',
  request: { body: { required: true, ...jsonContent(acceptInviteSchema, 'The token, your name and the new password, twice') } },
  responses: {
    201: signedIn,
    ...errorResponses({ 400: 'Invalid input', 404: 'Used, withdrawn, expired or unknown', 409: 'The email is already on the team' }),
  },
});

const setupCheckRoute = createPublicRoute({
  method: 'get',
  path: '/api/auth/setup/{token}',
  tags: ['auth'],
  summary: 'Whether a first-run set-up link still works',
  request: { params: tokenParams },
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true) }), 'It works'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Not valid' }),
  },
});

const setupRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/setup',
  tags: ['auth'],
  summary: "Create the first owner from the set-up link printed in the server's log, and sign in",
  request: {
    body: { required: true, ...jsonContent(setupRequestSchema, "The token, the owner's name and email, and the password, twice") },
  },
  responses: { 201: signedIn, ...errorResponses({ 400: 'Invalid input', 404: 'The link is not valid' }) },
});

export const teamRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await getTeam(c.get('db')), 200))
  .openapi(inviteRoute, async (c) => {
    const { config, outbox } = c.get('deps');
    const invited = await inviteMember(c.get('db'), config, c.req.valid('json'), actorOf(c));
    outbox.nudge();
    return c.json(invited, 201);
  })
  .openapi(revokeRoute, async (c) => {
    if (!(await revokeInvite(c.get('db'), c.req.valid('param').id, actorOf(c))))
      throw new AppError('not_found', 'No pending invitation has that id.');
    return c.json({ ok: true as const }, 200);
  })
  .openapi(roleRoute, async (c) =>
    c.json(await changeRole(c.get('db'), c.req.valid('param').id, c.req.valid('json').role, actorOf(c)).catch(teamRefusal), 200),
  )
  .openapi(deactivateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const member = await deactivateMember(c.get('db'), id, actorOf(c)).catch(teamRefusal);
    // Sign-in and every session check refuse a deactivated account already; this ends what is open.
    await endAccountAccess(c, c.get('db'), id, { feeds: true });
    return c.json(member, 200);
  })
  .openapi(reactivateRoute, async (c) =>
    c.json(await reactivateMember(c.get('db'), c.req.valid('param').id, actorOf(c)).catch(teamRefusal), 200),
  )
  .openapi(removeRoute, async (c) => {
    const { id } = c.req.valid('param');
    const ended = await removeMember(c.get('db'), id, actorOf(c)).catch(teamRefusal);
    for (const key of ended) c.get('deps').hub.endSession(key);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(reassignRoute, async (c) => {
    const moved = await reassignLeads(c.get('db'), c.req.valid('param').id, c.req.valid('json').to, actorOf(c)).catch(teamRefusal);
    return c.json({ moved }, 200);
  })
  .openapi(inviteLookupRoute, async (c) => {
    const invite = await findInvite(c.get('db'), hashToken(c.req.valid('param').token));
    if (!invite) throw new AppError('not_found', INVITE_NOT_VALID);
    return c.json(invite, 200);
  })
  .openapi(acceptRoute, async (c) => {
    const { token, display_name, password } = c.req.valid('json');
    const user = await acceptInvitation(c.get('db'), { token, displayName: display_name, password }, actorOf(c, undefined));
    await startSession(c, c.get('db'), user.id);
    return c.json({ user }, 201);
  })
  .openapi(setupCheckRoute, async (c) => {
    requireSetupLink(c.get('deps').firstRun, c.req.valid('param').token);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(setupRoute, async (c) => {
    const { token, display_name, email, password } = c.req.valid('json');
    const { firstRun, logger } = c.get('deps');
    const owner = { token, email, displayName: display_name, password };
    const user = await setUpFirstOwner(c.get('db'), firstRun, owner, actorOf(c, undefined), logger);
    await startSession(c, c.get('db'), user.id);
    return c.json({ user }, 201);
  });
