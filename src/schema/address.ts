// Address normalisation for search (docs/api.md "Address search"): lower case, punctuation dropped, whitespace
// collapsed, and USPS street suffixes, unit designators and directionals folded to one spelling each, so that
// "123 North Main Street, Apt 4" and "123 n main st apt 4" compare equal. Applied on write (indexed columns)
// and to the search input.
const EQUIVALENTS: Record<string, string[]> = {
  st: ["street"],
  ave: ["avenue", "av"],
  rd: ["road"],
  blvd: ["boulevard"],
  dr: ["drive"],
  ln: ["lane"],
  ct: ["court"],
  pl: ["place"],
  ter: ["terrace"],
  pkwy: ["parkway"],
  hwy: ["highway"],
  cir: ["circle"],
  sq: ["square"],
  apt: ["apartment"],
  ste: ["suite"],
  unit: ["#"],
  n: ["north"],
  s: ["south"],
  e: ["east"],
  w: ["west"],
  ne: ["northeast"],
  nw: ["northwest"],
  se: ["southeast"],
  sw: ["southwest"],
};

const CANONICAL = new Map<string, string>(
  Object.entries(EQUIVALENTS).flatMap(([short, longs]) => [[short, short] as const, ...longs.map((l) => [l, short] as const)]),
);

export function normalizeAddress(input: string): string {
  return input
    .toLowerCase()
    .replace(/#/g, " # ") // "#4" is "unit 4"
    .replace(/[^a-z0-9#\s]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => CANONICAL.get(word) ?? word)
    .join(" ");
}

/** The report's one-line address, "address, city, state zip", normalised. */
export function normalizeFullAddress(parts: { address: string; city?: string | null; state?: string | null; zip?: string | null }): string {
  return normalizeAddress([parts.address, parts.city, parts.state, parts.zip].filter(Boolean).join(" "));
}
