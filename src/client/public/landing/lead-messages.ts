// The public form's messages, word for word (docs/product-rules.md, "Toasts"): the thanks is
// shown in the form's own status line (above the time picker it turns into), the failures as toasts.
export const LEAD_SUCCESS_MESSAGE = 'Thank you for your interest! We will contact you shortly.';
export const LEAD_FAILURE_MESSAGE = 'Something went wrong. Please try again.';
