import { Toaster } from '#client/components/ui/toaster.tsx';
import { ManageBookingIsland } from './booking/manage-booking-island.tsx';
import { GetStartedButton } from './landing/components/get-started-button.tsx';
import { LeadForm } from './landing/components/lead-form.tsx';
import { SiteHeader } from './layout/site-header.tsx';

/**
 * The interactive parts of the public pages, by name, as the prerender renders them (through
 * `<Island>`). Everything else is prerendered HTML and ships no JavaScript. In the browser,
 * public/island-code.ts says when each island's code loads.
 * docs/decisions/011-react-on-every-page.md.
 */
export const ISLANDS = {
  'site-header': SiteHeader,
  'get-started': GetStartedButton,
  'lead-form': LeadForm,
  toaster: Toaster,
  'manage-booking': ManageBookingIsland,
};

export type IslandName = keyof typeof ISLANDS;
