import type { ComponentType } from 'react';
import { Toaster } from '#client/components/ui/toaster.tsx';
import { ManageBookingIsland } from './booking/manage-booking-island.tsx';
import { GetStartedButton } from './landing/components/get-started-button.tsx';
import { LEAD_FAILURE_MESSAGE } from './landing/lead-messages.ts';
import { SiteHeader } from './layout/site-header.tsx';
import type { IslandName } from './island-registry.ts';

type IslandComponent = ComponentType<Record<string, unknown>>;

/**
 * Code that loads only once the visitor nears the island (or touches it), then hydrates it;
 * `unavailable` is the toast for a submit made while that code could not be loaded (offline).
 */
export type DeferredIsland = { loadWhenNear: () => Promise<IslandComponent>; unavailable: string };

/**
 * What the browser runs for each island (public/main.tsx). Most arrive with the page, so they
 * respond at once. The lead form sits far below the fold on `/`: its code (and the rules it
 * checks with) loads when the form comes within a screen of the viewport, or at the first
 * focus or press inside it, whichever is first. Its HTML is in the page from the start.
 */
export const ISLAND_CODE: Record<IslandName, IslandComponent | DeferredIsland> = {
  'site-header': SiteHeader as IslandComponent,
  'get-started': GetStartedButton,
  toaster: Toaster,
  'manage-booking': ManageBookingIsland,
  'lead-form': {
    loadWhenNear: () => import('./landing/components/lead-form.tsx').then((m) => m.LeadForm),
    unavailable: LEAD_FAILURE_MESSAGE,
  },
};

export const isDeferred = (code: IslandComponent | DeferredIsland): code is DeferredIsland => 'loadWhenNear' in code;
