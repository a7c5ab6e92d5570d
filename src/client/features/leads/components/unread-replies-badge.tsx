/** "2 new replies" beside a lead's name in the lists, while nobody has read them. */
export function UnreadRepliesBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="ml-0 inline-flex w-fit rounded-full bg-blue-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-blue-800">
      {count === 1 ? '1 new reply' : `${count} new replies`}
    </span>
  );
}
