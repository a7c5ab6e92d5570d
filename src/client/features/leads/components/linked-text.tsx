import { linkify } from '#client/lib/linkify.ts';

/**
 * Plain text with its line breaks kept and its http(s) addresses as links. Each part is a text
 * node or an <a> React builds from the parsed URL: the text is never read as HTML.
 */
export function LinkedText({ text, className = '' }: { text: string; className?: string }) {
  return (
    <p className={`break-words whitespace-pre-wrap ${className}`}>
      {linkify(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer" className="text-blue-700 underline hover:text-blue-900">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
