/**
 * A stage's place (docs/product-rules.md, "Pipeline", Up/Down): stages are ordered within their
 * status, numbered from 1; a stage moved to a place takes it and the others move along, and a
 * place past the end is the end. A stage never changes status.
 */

/** The status's stage ids in their new order: `id` put at `position` (from 1) among `others`, in their order. */
export function placeStage(others: readonly string[], id: string, position: number): string[] {
  const order = [...others];
  order.splice(Math.min(position, order.length + 1) - 1, 0, id);
  return order;
}
