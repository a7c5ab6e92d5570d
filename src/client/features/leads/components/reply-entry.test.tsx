// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { ReplyDetails } from './reply-entry.tsx';

type Reply = Extract<TimelineEntry, { kind: 'email_in' }>;

const reply: Reply = {
  id: 'email_in:1',
  kind: 'email_in',
  at: '2026-12-07T10:00:00.000Z',
  actor: null,
  email_in_id: '00000000-0000-4000-8000-000000000012',
  thread_id: '00000000-0000-4000-8000-000000000001',
  thread_size: 2,
  thread_unread: 0,
  from: 'jane@example.com',
  from_name: 'Jane Doe',
  to: 'replies@keystone.test',
  cc: '',
  subject: 'Re: Your report',
  body: 'Thursday works.',
  truncated: false,
  sent_at: null,
  attachments: [],
  sender_verified: true,
  from_someone_else: false,
  unread: false,
  answers_email_id: null,
};

afterEach(cleanup);

describe('a reply on the timeline says who it is shown to be from', () => {
  it('the lead, shown: no mark', () => {
    render(<ReplyDetails entry={reply} />);
    expect(screen.queryByText('Sender not verified')).toBeNull();
    expect(screen.queryByText(/From someone else/)).toBeNull();
  });

  it('the lead’s address, not shown to be theirs: Sender not verified', () => {
    render(<ReplyDetails entry={{ ...reply, sender_verified: false }} />);
    expect(screen.getByText('Sender not verified')).toBeInTheDocument();
    expect(screen.queryByText(/From someone else/)).toBeNull();
  });

  it('another address than the lead’s: From someone else, with that address', () => {
    render(
      <ReplyDetails
        entry={{ ...reply, from: 'stranger@evil.test', from_name: 'Jane Doe', sender_verified: false, from_someone_else: true }}
      />,
    );
    expect(screen.getByText('From someone else: stranger@evil.test')).toBeInTheDocument();
    expect(screen.queryByText('Sender not verified')).toBeNull();
  });
});
