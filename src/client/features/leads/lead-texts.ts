// docs/product-rules.md, "Confirmations", word for word.
export const DELETE_LEAD_CONFIRMATION = 'Are you sure you want to delete this lead? This action cannot be undone.';
