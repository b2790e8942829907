// Deterministic, unique, realistic US-style addresses for the seed, and differently spelled search inputs for
// them (abbreviations, case, punctuation), so the search does the normalisation work a client would cause.
const STREETS = [
  "Maple", "Oak", "Pine", "Cedar", "Elm", "Willow", "Birch", "Spruce", "Walnut", "Chestnut", "Hickory", "Magnolia",
  "Sycamore", "Dogwood", "Juniper", "Laurel", "Aspen", "Poplar", "Cypress", "Redwood", "Lincoln", "Washington",
  "Jefferson", "Madison", "Franklin", "Jackson", "Adams", "Monroe", "Harrison", "Grant", "Hamilton", "Highland",
  "Lakeview", "Ridge", "Sunset", "Meadow", "Forest", "River", "Park", "Hillcrest", "Valley", "Spring", "Church",
  "Mill", "Center", "Market", "Union", "Broad", "Bridge", "Water",
];
const SUFFIXES: [short: string, long: string][] = [
  ["St", "Street"], ["Ave", "Avenue"], ["Rd", "Road"], ["Blvd", "Boulevard"], ["Dr", "Drive"],
  ["Ln", "Lane"], ["Ct", "Court"], ["Pl", "Place"], ["Ter", "Terrace"], ["Pkwy", "Parkway"],
];
const DIRECTIONS: [short: string, long: string][] = [["", ""], ["N", "North"], ["S", "South"], ["E", "East"], ["W", "West"]];
const CITIES: [city: string, state: string, zip: string][] = [
  ["Springfield", "IL", "62704"], ["Portland", "OR", "97205"], ["Austin", "TX", "78701"], ["Denver", "CO", "80203"],
  ["Madison", "WI", "53703"], ["Raleigh", "NC", "27601"], ["Boise", "ID", "83702"], ["Tucson", "AZ", "85701"],
];

/** Street combinations; with house numbers from 100 up this gives unique addresses for any team size. */
const COMBOS = STREETS.length * SUFFIXES.length * DIRECTIONS.length; // 2,500

export interface SeedAddress {
  address: string;
  city: string;
  state: string;
  zip: string;
  /** The same address spelled the other way (long ↔ short forms, other case, punctuation). */
  searchInput: string;
}

export function seedAddress(i: number, cityOffset = 0): SeedAddress {
  const combo = i % COMBOS;
  const number = 100 + Math.floor(i / COMBOS) * 7 + (combo % 7); // unique per (number, combo)
  const street = STREETS[combo % STREETS.length];
  const [sufShort, sufLong] = SUFFIXES[Math.floor(combo / STREETS.length) % SUFFIXES.length];
  const [dirShort, dirLong] = DIRECTIONS[Math.floor(combo / (STREETS.length * SUFFIXES.length))];
  const [city, state, zip] = CITIES[(i + cityOffset) % CITIES.length];
  const unit = i % 5 === 0 ? ` Apt ${(i % 40) + 1}` : "";
  const address = [number, dirShort, street, sufShort].filter(Boolean).join(" ") + unit;
  const searchInput = `${[number, dirLong, street.toUpperCase(), sufLong].filter(Boolean).join(" ")}${unit ? `, Apartment ${(i % 40) + 1}` : ""}`;
  return { address, city, state, zip, searchInput };
}
