/** Scrolls to the contact form and puts the cursor in its first field. */
export function scrollToContactForm() {
  const section = document.getElementById('contact');
  if (!section) return;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  section.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  document.getElementById('lead-full_name')?.focus({ preventScroll: true });
}
