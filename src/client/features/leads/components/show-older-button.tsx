import { Button } from '#client/components/ui/button.tsx';

/** The next page of a list read a page at a time (newest first): there while there is one. */
export function ShowOlderButton({
  pages,
  label,
  className,
}: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label: string;
  className: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <Button
      onClick={() => void pages.fetchNextPage()}
      disabled={pages.isFetchingNextPage}
      variant="secondary"
      size="sm"
      className={className}
    >
      {pages.isFetchingNextPage ? 'Loading...' : label}
    </Button>
  );
}
