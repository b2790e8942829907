// The property types this service knows by name. `property_type` is free text (the contract says so), but a reader
// — the client's page, a RESO consumer — needs to know what "SFR", "Single Family Home" or "Town-home" mean: each
// known type has its stored value, its common spellings and the label a person reads.

/** Each known type: its value as the API suggests storing it, its spellings, and how a page names it. */
export const PROPERTY_TYPES = {
  single_family: { spelled: /^(single_?family(_(home|residence|house))?|sfr|sfh)$/, label: "Single-family home" },
  condo: { spelled: /^condo(minium)?$/, label: "Condominium" },
  townhouse: { spelled: /^town_?(house|home)$/, label: "Townhouse" },
  manufactured: { spelled: /^manufactured(_home)?$/, label: "Manufactured home" },
  multi_family: { spelled: /^multi_?family(_home)?$/, label: "Multi-family" },
  rental: { spelled: /^rental$/, label: "Rental" },
  land: { spelled: /^land$/, label: "Land" },
  farm: { spelled: /^farm$/, label: "Farm" },
  commercial: { spelled: /^commercial$/, label: "Commercial" },
} as const satisfies Record<string, { spelled: RegExp; label: string }>;

export type PropertyType = keyof typeof PROPERTY_TYPES;

/** The known type a free text names, once case, spaces, hyphens and underscores are folded; undefined otherwise. */
export function knownPropertyType(text: string): PropertyType | undefined {
  const folded = text.trim().toLowerCase().replace(/[\s_-]+/g, "_");
  return (Object.keys(PROPERTY_TYPES) as PropertyType[]).find((type) => PROPERTY_TYPES[type].spelled.test(folded));
}

/** How a page names a property type: a known type's label, other text as written with underscores as spaces. */
export function propertyTypeLabel(text: string): string {
  const known = knownPropertyType(text);
  if (known) return PROPERTY_TYPES[known].label;
  const spoken = text.trim().replaceAll("_", " ");
  return spoken.charAt(0).toUpperCase() + spoken.slice(1);
}
