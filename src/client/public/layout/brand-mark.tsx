import { Building2 } from '#client/components/icons.tsx';

/** The small logo square in front of the brand name. */
export function BrandMark() {
  return (
    <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-brand-600 text-white">
      <Building2 aria-hidden="true" className="size-5" />
    </span>
  );
}
