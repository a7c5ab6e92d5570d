import { useState } from 'react';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { attachmentUrl } from '../api/replies.ts';
import { LinkedText } from './linked-text.tsx';

type Reply = Extract<TimelineEntry, { kind: 'email_in' }>;

/** Shown whole up to this many characters; a longer message opens with "Show the whole message". */
const PREVIEW_CHARS = 1_200;

const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * What a reply says, as text: who it is from and to, the message (links made links, nothing
 * read as HTML), and its files as downloads. One not shown to be the lead's says so: from
 * another address ("From someone else"), or from theirs unconfirmed ("Sender not verified").
 */
export function ReplyDetails({ entry }: { entry: Reply }) {
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        {entry.unread ? <span className="rounded-full bg-blue-100 px-2 py-0.5 text-xs font-medium text-blue-800">Unread</span> : null}
        {entry.from_someone_else ? (
          <span
            className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium break-all text-amber-900"
            title="It joined this lead's conversation, but it was sent from another address than the lead's."
          >
            From someone else: {entry.from}
          </span>
        ) : entry.sender_verified ? null : (
          <span
            className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900"
            title="It comes from the lead's address, but nothing showed that the lead sent it (it was not sent to their reply address, and the firm's mail server did not confirm the address): it may be forged."
          >
            Sender not verified
          </span>
        )}
      </div>
      <p className="text-xs break-all text-slate-500">
        From {entry.from_name ? `${entry.from_name} <${entry.from}>` : entry.from}
        {entry.to ? ` · To ${entry.to}` : ''}
        {entry.cc ? ` · Cc ${entry.cc}` : ''}
      </p>
      <ReplyText replyId={entry.email_in_id} body={entry.body} truncated={entry.truncated} attachments={entry.attachments} />
    </div>
  );
}

/** A message's text (its start, then "Show the whole message") and its files as downloads. */
export function ReplyText({
  replyId,
  body,
  truncated,
  attachments,
}: {
  replyId: string;
  body: string;
  truncated: boolean;
  attachments: Reply['attachments'];
}) {
  const [whole, setWhole] = useState(false);
  const long = body.length > PREVIEW_CHARS;
  const shown = long && !whole ? `${body.slice(0, PREVIEW_CHARS).trimEnd()}…` : body;
  return (
    <>
      {body.trim() ? (
        <blockquote className="border-l-4 border-blue-200 pl-3 text-sm text-slate-800">
          <LinkedText text={shown} />
        </blockquote>
      ) : (
        <p className="text-xs text-slate-500">(No text)</p>
      )}
      {long ? (
        <button
          type="button"
          onClick={() => setWhole((w) => !w)}
          className="text-xs font-medium text-blue-700 underline hover:text-blue-900"
        >
          {whole ? 'Show less' : 'Show the whole message'}
        </button>
      ) : null}
      {truncated && whole ? (
        <p className="text-xs text-slate-500">The first 20,000 characters; the whole message is in the mailbox.</p>
      ) : null}
      {attachments.length > 0 ? (
        <ul aria-label="Attachments" className="flex flex-wrap gap-2">
          {attachments.map((file) => (
            <li key={file.id}>
              <a
                href={attachmentUrl(replyId, file.id)}
                download={file.filename}
                className="inline-flex rounded-md border border-slate-300 px-2 py-1 text-xs break-all text-slate-700 hover:bg-slate-50"
              >
                {file.filename} ({sizeText(file.size)})
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
