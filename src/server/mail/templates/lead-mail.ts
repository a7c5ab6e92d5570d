import * as z from 'zod';
import { oneLine, parse, propertyType, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/** The lead as the form stored it, for the staff's "new lead" message and the lead's acknowledgement. */
const leadData = z.object({
  lead_id: z.string(),
  full_name: z.string(),
  email: z.string(),
  phone: z.string(),
  property_types: z.array(z.string()),
  message: z.string().nullable(),
  source: z.string().nullable(),
  utm_source: z.string().nullable(),
  utm_medium: z.string().nullable(),
  utm_campaign: z.string().nullable(),
  landing_page: z.string().nullable(),
});

const newLeadSubject = (lead: z.infer<typeof leadData>) => oneLine(`New lead: ${lead.full_name}`);
const acknowledgementSubject = (ctx: MailContext) => oneLine(`We received your request: ${ctx.site.name}`);

function newLead(data: unknown, ctx: MailContext): ComposedEmail {
  const lead = parse(leadData, data);
  const campaign = [lead.utm_campaign, lead.utm_source && `source ${lead.utm_source}`, lead.utm_medium && `medium ${lead.utm_medium}`]
    .filter(Boolean)
    .join(', ');
  return {
    subject: newLeadSubject(lead),
    ...render(ctx, `${lead.full_name} asked for a call.`, [
      {
        rows: [
          ['Name', lead.full_name],
          ['Email', lead.email],
          ['Phone', lead.phone],
          ['Property type', propertyType(lead.property_types)],
          ['Message', lead.message],
          ['Came from', lead.source],
          ['Campaign', campaign || null],
          ['Landing page', lead.landing_page],
        ],
      },
      { link: { label: 'Open the lead in the dashboard', href: `${ctx.publicUrl}/dashboard/leads/${encodeURIComponent(lead.lead_id)}` } },
    ]),
  };
}

function leadAcknowledgement(data: unknown, ctx: MailContext): ComposedEmail {
  const lead = parse(leadData, data);
  const first = lead.full_name.split(/\s+/)[0] ?? lead.full_name;
  return {
    subject: acknowledgementSubject(ctx),
    ...render(ctx, `Hello ${first},`, [
      {
        lines: [
          `Thank you for contacting ${ctx.site.name}. We received your request for a free call about your ${propertyType(lead.property_types)?.toLowerCase() ?? 'property'} deal.`,
          'What happens next: one of our analysts will call you at the number you gave us within one business day to talk through the deal. Your first deal analysis is free.',
          `If you would like to reach us sooner, call ${ctx.site.phone} or write to ${ctx.site.email}.`,
        ],
      },
    ]),
  };
}

export const newLeadTemplate: Template = { compose: newLead, subject: (data) => newLeadSubject(parse(leadData, data)) };

export const leadAcknowledgementTemplate: Template = {
  compose: leadAcknowledgement,
  subject: (data, ctx) => {
    parse(leadData, data); // a snapshot that does not fit gets the placeholder, as composing it would fail
    return acknowledgementSubject(ctx);
  },
};
