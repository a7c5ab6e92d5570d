import type { TimelineEntry, Visit } from '#shared/schemas/lead-workspace';
import { CALL_OUTCOME_LABELS, TASK_TYPE_LABELS } from '#shared/constants';
import { formatAppointmentTime } from '#client/lib/format.ts';
import { followUpText } from '#client/lib/follow-up.ts';
import { SUSPECTED_ABUSE_LABEL } from './components/suspected-abuse-badge.tsx';

/**
 * What each timeline entry says, as plain text (the component adds links, quotes and times).
 * Who did it: the admin's name; otherwise the lead (a form, a booking link) or the system.
 */
export function entryActor(entry: TimelineEntry): string {
  if (entry.actor) return entry.actor;
  if (entry.kind === 'email_in') return entry.from_name || entry.from;
  if (entry.kind === 'inquiry' || (entry.kind === 'created' && entry.via === 'form')) return 'the lead';
  if (entry.kind === 'appointment' && entry.by === 'lead')
    return entry.booked_as ? `${entry.booked_as}, through a repeat form’s link` : 'the lead';
  return 'System';
}

const APPOINTMENT_ACTION = {
  scheduled: 'scheduled',
  moved: 'moved',
  cancelled: 'cancelled',
  completed: 'marked as completed',
  no_show: 'marked as a no-show',
} as const;
export const EMAIL_STATUS_LABEL = { queued: 'Queued', sent: 'Sent', failed: 'Failed', not_sent: 'Not sent' } as const;

export function entryTitle(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'created':
      return entry.via === 'form' ? 'Came in through the website form' : entry.via === 'import' ? 'Added by an import' : 'Added by staff';
    case 'inquiry':
      return 'Wrote again';
    case 'status':
      return entry.from_status ? `Status changed from ${entry.from_status} to ${entry.to_status}` : `Status set to ${entry.to_status}`;
    case 'note':
      return 'Note';
    case 'appointment': {
      const when = formatAppointmentTime(entry.date, entry.time);
      if (entry.action === 'cancelled' && entry.reason === 'suspected_abuse') return `${SUSPECTED_ABUSE_LABEL}: ${entry.type} on ${when}`;
      if (entry.action === 'moved' && entry.from_date && entry.from_time)
        return `${entry.type} moved from ${formatAppointmentTime(entry.from_date, entry.from_time)} to ${when}`;
      return `${entry.type} on ${when} ${APPOINTMENT_ACTION[entry.action]}`;
    }
    case 'email_in':
      // Mail read from the reply mailbox: "Jane Doe replied: Re: Your report".
      return `${entry.from_name || entry.from} ${entry.answers_email_id ? 'replied' : 'wrote'}: ${entry.subject || '(no subject)'}`;
    case 'email_out':
      // A message someone wrote on the lead's page: "Dana emailed: Your report".
      if (entry.email_kind === 'lead-message')
        return entry.actor ? `${entry.actor} emailed: ${entry.subject}` : `Emailed: ${entry.subject}`;
      return `Email: ${entry.subject}`;
    case 'owner':
      if (entry.to === null) return entry.from ? `Unassigned from ${entry.from}` : 'Unassigned';
      return entry.from ? `Reassigned from ${entry.from} to ${entry.to}` : `Assigned to ${entry.to}`;
    case 'follow_up':
      return entry.on ? `Next step set: ${followUpText(entry.on, entry.note)}` : 'Next step cleared';
    case 'call': {
      const minutes = entry.duration_minutes ? `, ${entry.duration_minutes} min` : '';
      return `${entry.actor ? `${entry.actor} logged a call` : 'Call logged'}: ${CALL_OUTCOME_LABELS[entry.outcome]}${minutes}`;
    }
    case 'task': {
      const what = entry.title ? `${TASK_TYPE_LABELS[entry.task_type]}: ${entry.title}` : TASK_TYPE_LABELS[entry.task_type];
      return entry.actor ? `${entry.actor} completed a task: ${what}` : `Task completed: ${what}`;
    }
    case 'stage':
      if (entry.lost_reason) return `Marked lost: ${entry.lost_reason}`;
      return `Moved from ${entry.from ?? 'a removed stage'} to ${entry.to ?? 'a removed stage'}`;
    case 'merged':
      return `Merged with ${entry.full_name} (${entry.email})`;
    case 'imported':
      return entry.file ? `Imported from ${entry.file}` : 'Imported';
  }
}

/** "Source: google · Campaign: google / cpc / spring · Landed on /pricing · 4 pages viewed"; '' with nothing known. */
export function visitText(visit: Visit | null): string {
  if (!visit) return '';
  const campaign = [visit.utm_source, visit.utm_medium, visit.utm_campaign].filter(Boolean).join(' / ');
  return [
    visit.source ? `Source: ${visit.source}` : '',
    campaign ? `Campaign: ${campaign}` : '',
    visit.landing_page ? `Landed on ${visit.landing_page}` : '',
    visit.pages_viewed != null ? `${visit.pages_viewed} ${visit.pages_viewed === 1 ? 'page' : 'pages'} viewed` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
