import { Toaster } from '#client/components/ui/toaster.tsx';
import { ManageBookingIsland } from './booking/manage-booking-island.tsx';
import { GetStartedButton } from './landing/components/get-started-button.tsx';
import { LeadForm } from './landing/components/lead-form.tsx';
import { SiteHeader } from './layout/site-header.tsx';

/**
 * The interactive parts of the public pages, by name: the only components whose code the
 * browser downloads (public/main.tsx hydrates each where the page marks it). Everything else
 * is prerendered HTML and ships no JavaScript. docs/decisions/001-preact-for-public-pages.md.
 */
export const ISLANDS = {
  'site-header': SiteHeader,
  'get-started': GetStartedButton,
  'lead-form': LeadForm,
  toaster: Toaster,
  'manage-booking': ManageBookingIsland,
};

export type IslandName = keyof typeof ISLANDS;
export const ISLAND_ATTRIBUTE = 'data-island';
export const ISLAND_PROPS_ATTRIBUTE = 'data-island-props';
