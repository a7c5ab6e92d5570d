import { ArrowRight } from '#client/components/icons.tsx';
import { scrollToContactForm } from '../scroll-to-contact.ts';

/** The hero's call to action: scrolls to the contact form and puts the cursor in its first field. */
export function GetStartedButton() {
  return (
    <button
      type="button"
      onClick={scrollToContactForm}
      className="inline-flex items-center justify-center gap-2 rounded-md bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-lg ring-1 ring-white/20 hover:bg-brand-700"
    >
      Get Started Now
      <ArrowRight aria-hidden="true" className="size-5" />
    </button>
  );
}
