import { PROPERTY_TYPE_LABELS, PROPERTY_TYPES, type PropertyType } from './constants.ts';

/**
 * How a property type reads wherever it is shown: the list and cards, the lead page, the
 * filters and forms, the Overview, the CSV export, the emails, the merge chooser, the audit
 * log (docs/product-rules.md, "Leads"). A value the product does not know shows as stored.
 */
export const propertyTypeLabel = (type: string): string =>
  (PROPERTY_TYPES as readonly string[]).includes(type) ? PROPERTY_TYPE_LABELS[type as PropertyType] : type;

/** A lead's property types ("Single family, Land"); "" when it has none. */
export const propertyTypesLabel = (types: readonly string[]): string => types.map(propertyTypeLabel).join(', ');

/** The labels as a sentence's list: "Single family, Multifamily, Commercial, Land or Other". */
export const PROPERTY_TYPE_CHOICES = `${PROPERTY_TYPES.slice(0, -1).map(propertyTypeLabel).join(', ')} or ${propertyTypeLabel(PROPERTY_TYPES.at(-1)!)}`;
