import type { ReactNode } from 'react';
import { useSiteConfig } from './site-config-context.tsx';

/**
 * A part of a page the firm's saved content may leave out (a figure under the headline). The
 * prerender renders every possible part, each between `%%IF_<name>%%` and `%%FI_<name>%%`; the
 * server keeps the parts the saved content has and drops the others with their markers
 * (server/http/static-site.ts). Rendered anywhere else, it is just its children.
 */
export function OptionalPart({ name, children }: { name: string; children: ReactNode }) {
  const { prerender } = useSiteConfig();
  if (!prerender) return <>{children}</>;
  return (
    <>
      {`%%IF_${name}%%`}
      {children}
      {`%%FI_${name}%%`}
    </>
  );
}
