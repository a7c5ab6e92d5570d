/** A loading indicator with a text alternative. */
export function Spinner({ label = 'Loading...', className = '' }: { label?: string; className?: string }) {
  return (
    <div role="status" className={`flex items-center justify-center ${className}`}>
      <span aria-hidden="true" className="size-8 animate-spin rounded-full border-4 border-slate-200 border-t-blue-600" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
