import { RelativeTime } from '#client/components/ui/relative-time.tsx';

/** Who and when, under every timeline entry. */
export function EntryMeta({ who, at }: { who: string; at: string }) {
  return (
    <p className="text-xs text-slate-500">
      <span className="break-all">{who}</span> · <RelativeTime iso={at} />
    </p>
  );
}
