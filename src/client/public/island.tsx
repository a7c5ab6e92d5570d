import type { ComponentProps, ComponentType } from 'react';
import { ISLANDS, type IslandName } from './island-registry.ts';
import { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from './shell.ts';

type IslandProps<N extends IslandName> = { name: N } & ComponentProps<(typeof ISLANDS)[N]>;

/**
 * A part of a prerendered page that the browser brings to life: it renders the island's
 * component inside a wrapper that names it and carries its props (JSON), for public/main.tsx
 * to hydrate in place. The wrapper is `display: contents`, so the layout is the component's own.
 */
export function Island<N extends IslandName>({ name, ...props }: IslandProps<N>) {
  const Component = ISLANDS[name] as ComponentType<Record<string, unknown>>;
  return (
    <div {...{ [ISLAND_ATTRIBUTE]: name, [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props) }} className="contents">
      <Component {...props} />
    </div>
  );
}
