import * as z from 'zod';

// The Inbox: mail read from the reply mailbox that joined no lead. Staff put a message on a
// lead's page, make a lead of it (source "Email"), or dismiss it (deleted after 30 days).

/** What is kept of a message read from the reply mailbox, as the timeline and the Inbox show it. */
export const receivedMailFields = {
  from: z.string(),
  from_name: z.string(),
  to: z.string(),
  cc: z.string(),
  subject: z.string(),
  /** Its text (HTML turned into text), the first 20,000 characters. */
  body: z.string(),
  truncated: z.boolean(),
  /** Its Date header, when it had a readable one. */
  sent_at: z.string().nullable(),
  attachments: z.array(z.object({ id: z.uuid(), filename: z.string(), size: z.number().int() })),
};

export const inboxMessageSchema = z
  .object({
    id: z.uuid(),
    ...receivedMailFields,
    /** From a person whose data was erased at their request. */
    erased_sender: z.boolean(),
    received_at: z.string(),
    dismissed_at: z.string().nullable(),
  })
  .meta({ id: 'InboxMessage' });
export type InboxMessage = z.infer<typeof inboxMessageSchema>;

export const inboxQuerySchema = z.object({
  view: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['open', 'dismissed']).default('open')),
});

export const inboxResponseSchema = z
  .object({
    messages: z.array(inboxMessageSchema),
    /** How many wait (not dismissed), whichever view was asked for. */
    open: z.number().int(),
  })
  .meta({ id: 'InboxResponse' });
export type InboxResponse = z.infer<typeof inboxResponseSchema>;

export const inboxIdParamSchema = z.object({ id: z.uuid('Invalid message id') });

export const attachInboundRequestSchema = z.object({ lead_id: z.uuid('Choose a lead') }).meta({ id: 'AttachInboundRequest' });

export const inboundAttachedSchema = z.object({ id: z.uuid(), lead_id: z.uuid() }).meta({ id: 'InboundAttached' });
