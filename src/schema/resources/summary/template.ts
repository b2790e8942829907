// The template provider: a deterministic summary written from the inputs alone (no network), as an agent would write
// it — the property first, then price, value, interest and marketing, then a call to action. Each tone has its own
// phrasing; a longer length adds what there is to add. Every number it writes is an input number, written in full;
// a sentence that would carry a flagged phrase (from the agent's own text, say) is left out; sentences are taken by
// importance until the length's word limit.
import type { SummaryInputs } from "./inputs";
import { flaggedPhrases, WORD_LIMITS, wordCount, type SummaryLength } from "./screen";

export const SUMMARY_TONES = ["professional", "warm", "luxury"] as const;
export type SummaryTone = (typeof SUMMARY_TONES)[number];

export const TEMPLATE_MODEL = "template-v1";

/** A number as an input holds it, with thousands separators: 1,850 · 2.5 · 349,999.99. */
const num = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 20 });
const dollars = (n: number) => `$${num(n)}`;
const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

/** "a, b and c" */
function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

const PROPERTY_TYPES: Record<string, string> = {
  single_family: "single-family home",
  single_family_home: "single-family home",
  house: "home",
  condo: "condominium",
  condominium: "condominium",
  townhouse: "townhouse",
  townhome: "townhome",
  multi_family: "multi-family property",
  multifamily: "multi-family property",
  duplex: "duplex",
  apartment: "apartment",
  land: "parcel of land",
  lot: "parcel of land",
  commercial: "commercial property",
};

const PLATFORMS: Record<string, string> = {
  instagram: "Instagram",
  facebook: "Facebook",
  tiktok: "TikTok",
  twitter: "X",
  x: "X",
  linkedin: "LinkedIn",
  youtube: "YouTube",
  pinterest: "Pinterest",
  threads: "Threads",
};

/** A short free text (a title, the first sentence of a body), or null when too long or empty. */
function firstSentence(text: string | null, maxWords: number): string | null {
  if (!text) return null;
  const sentence = (text.match(/^[^.!?\n]+[.!?]?/)?.[0] ?? "").trim();
  if (!sentence || wordCount(sentence) > maxWords) return null;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

const words = (text: string | null | undefined, max: number) => (text && wordCount(text) <= max ? text.trim() : null);

interface Sentence {
  text: string;
  /** Lower is more important: taken first while words remain. */
  rank: number;
}

type Phrasing = Record<SummaryTone, string>;
const byTone = (tone: SummaryTone, phrasing: Phrasing) => phrasing[tone];

/** How the property is named: address with city and state, else the city; short enough to leave room. */
function names(p: SummaryInputs["property"]): string[] {
  const place = [p.city, p.state].filter((x): x is string => Boolean(words(x, 6))).join(", ");
  const address = words(p.address, 12);
  return [address && place ? `${address}, ${place}` : address, p.city && words(p.city, 6) ? `this property in ${p.city}` : null, "this property"].filter(
    (x): x is string => x !== null,
  );
}

function kind(p: SummaryInputs["property"]): string {
  const type = p.property_type?.trim().toLowerCase();
  if (!type) return "home";
  const known = PROPERTY_TYPES[type.replace(/[\s-]+/g, "_")];
  if (known) return known;
  const spoken = type.replace(/_/g, " ");
  return words(spoken, 4) && !flaggedPhrases(spoken).length ? spoken : "home";
}

function features(p: SummaryInputs["property"]): string[] {
  return [
    p.beds != null && p.beds > 0 ? plural(p.beds, "bedroom") : null,
    p.baths != null && p.baths > 0 ? plural(p.baths, "bathroom") : null,
    p.sqft != null && p.sqft > 0 ? `${num(p.sqft)} square feet` : null,
  ].filter((x): x is string => x !== null);
}

function lead(inputs: SummaryInputs, tone: SummaryTone): string {
  const p = inputs.property;
  const type = kind(p);
  const has = features(p);
  const built = p.year_built ? `, built in ${p.year_built}` : "";
  const candidates = names(p).map((name) => {
    const Name = name.charAt(0).toUpperCase() + name.slice(1);
    if (!has.length)
      return byTone(tone, {
        professional: `${Name} is a ${type}${built}.`,
        warm: `Welcome to ${name}, a ${type}${built}.`,
        luxury: `Presenting ${name}: a distinctive ${type}${built}.`,
      });
    return byTone(tone, {
      professional: `${Name} is a ${type} with ${list(has)}${built}.`,
      warm: `Welcome to ${name}, a ${type} with ${list(has)}${built}.`,
      luxury: `Presenting ${name}: a distinctive ${type} offering ${list(has)}${built}.`,
    });
  });
  // The first naming that carries no flagged phrase (an address could); "this property" always qualifies.
  return candidates.find((c) => !flaggedPhrases(c).length) ?? candidates[candidates.length - 1];
}

function price(inputs: SummaryInputs, tone: SummaryTone): string | null {
  const { price } = inputs.property;
  if (price == null || price <= 0) return null;
  return byTone(tone, {
    professional: `It is listed at ${dollars(price)}.`,
    warm: `It is offered at ${dollars(price)}.`,
    luxury: `The asking price is ${dollars(price)}.`,
  });
}

function valuation(inputs: SummaryInputs, tone: SummaryTone, length: SummaryLength): string[] {
  const v = inputs.valuation;
  if (!v || v.estimated_value == null || !v.value_range || v.comparables_used < 1) return [];
  const used = plural(v.comparables_used, "comparable property", "comparable properties");
  const range = `${dollars(v.value_range.low)} to ${dollars(v.value_range.high)}`;
  const sentences = [
    byTone(tone, {
      professional: `An analysis of ${used} supports an estimated market value of ${dollars(v.estimated_value)}, within a range of ${range}.`,
      warm: `Nearby comparable homes point to a value of ${dollars(v.estimated_value)}, in a range of ${range}, based on ${used}.`,
      luxury: `A review of ${used} indicates a value of ${dollars(v.estimated_value)}, with a range of ${range}.`,
    }),
  ];
  if (length === "long" && v.warnings.includes("too_few_comparables"))
    sentences.push("The estimate rests on a small set of comparables and should be read with care.");
  if (length === "long" && v.warnings.includes("list_price_differs"))
    sentences.push("The list price sits outside the range the comparables support.");
  return sentences;
}

function showings(inputs: SummaryInputs, tone: SummaryTone): string | null {
  const s = inputs.showings;
  const visits = [s.showings ? plural(s.showings, "showing") : null, s.open_houses ? plural(s.open_houses, "open house", "open houses") : null].filter(
    (x): x is string => x !== null,
  );
  if (!visits.length) return null;
  const rating = s.average_rating != null ? `${num(s.average_rating)} out of ${num(s.rating_scale)}` : null;
  const interested = s.interested ? plural(s.interested, "visitor") : null;
  const subject = list(visits);
  switch (tone) {
    case "professional":
      return `The property has had ${subject}${rating ? `, with an average rating of ${rating}` : ""}${interested ? `; ${interested} expressed interest` : ""}.`;
    case "warm":
      return `So far it has welcomed guests at ${subject}${rating ? `, who rated it ${rating} on average` : ""}${interested ? `, and ${interested} would like to know more` : ""}.`;
    case "luxury":
      return `It has drawn ${subject}${rating ? `, earning an average rating of ${rating}` : ""}${interested ? `, with ${interested} expressing interest` : ""}.`;
  }
}

function feedback(inputs: SummaryInputs, tone: SummaryTone, length: SummaryLength): string[] {
  const quotes = inputs.showings.feedback
    .map((f) => firstSentence(f, 25))
    .filter((f): f is string => f !== null && !flaggedPhrases(f).length)
    .slice(0, length === "long" ? 2 : 0);
  const said = byTone(tone, { professional: "One visitor noted", warm: "One visitor shared", luxury: "One guest remarked" });
  const again = byTone(tone, { professional: "Another noted", warm: "Another shared", luxury: "Another remarked" });
  return quotes.map((q, i) => `${i === 0 ? said : again}: “${q}”`);
}

function social(inputs: SummaryInputs, tone: SummaryTone, length: SummaryLength): string | null {
  const s = inputs.social;
  if (!s) return null;
  const shown = s.platforms.slice(0, 4).map((p) => PLATFORMS[p] ?? p).filter((p) => words(p, 3));
  const where = shown.length ? ` on ${list(s.platforms.length > shown.length ? [...shown, "other platforms"] : shown)}` : "";
  const counts: Array<[number, string]> = [
    [s.views, "view"],
    [s.likes, "like"],
    ...(length === "long" ? ([[s.comments, "comment"], [s.shares, "share"]] as Array<[number, string]>) : []),
  ];
  const reached = list(counts.filter(([n]) => n > 0).map(([n, noun]) => plural(n, noun)));
  const posts = plural(s.posts, "post");
  if (!reached)
    return byTone(tone, {
      professional: `It is being marketed with ${posts}${where}.`,
      warm: `It is being shared with ${posts}${where}.`,
      luxury: `It is presented in ${posts}${where}.`,
    });
  return byTone(tone, {
    professional: `Its social media campaign of ${posts}${where} has drawn ${reached}.`,
    warm: `Online, its ${posts}${where} have drawn ${reached}.`,
    luxury: `Its presence${where} has earned ${reached} across ${posts}.`,
  });
}

/**
 * The agent's insights. A body's first sentence is quoted as the agent's own words; a title is a heading, not a
 * sentence ("Buyer feedback", "Back Cove"), so titles of insights whose body cannot be quoted are named as topics
 * in one sentence of the template's own: "The agent's notes also cover “Buyer feedback” and “Back Cove”."
 */
function insights(inputs: SummaryInputs, tone: SummaryTone, length: SummaryLength): string[] {
  const intro = byTone(tone, { professional: "The listing agent notes", warm: "The agent shares", luxury: "The agent observes" });
  const usable = (text: string | null): text is string => text !== null && !flaggedPhrases(text).length;
  const quoted: string[] = [];
  const topics: string[] = [];
  for (const insight of inputs.insights.slice(0, 10)) {
    const sentence = firstSentence(insight.body, length === "long" ? 30 : 20);
    const title = insight.title ? words(insight.title.replace(/[.!?:;]+$/, ""), 8) : null;
    if (usable(sentence) && wordCount(sentence) >= 3) quoted.push(sentence);
    else if (usable(title)) topics.push(title);
  }
  const max = length === "long" ? 3 : 2;
  const said = quoted.slice(0, max).map((text) => `${intro}: “${text}”`);
  const room = max - said.length;
  const named = topics.slice(0, Math.max(room, 0)).map((t) => `“${t}”`);
  if (named.length) said.push(`The agent's notes ${said.length ? "also " : ""}cover ${list(named)}.`);
  return said;
}

function description(inputs: SummaryInputs): string | null {
  const sentence = firstSentence(inputs.property.description, 30);
  return sentence && `The listing reads: “${sentence}”`;
}

function closing(inputs: SummaryInputs, tone: SummaryTone): string {
  const agent = words(inputs.property.listing_agent, 5) ?? "the listing agent";
  return byTone(tone, {
    professional: `Contact ${agent} for details or to arrange a showing.`,
    warm: `Reach out to ${agent} to come see it in person.`,
    luxury: `Private viewings are available through ${agent}.`,
  });
}

/** The summary of the inputs in a tone and length: the same inputs always give the same text. */
export function templateSummary(inputs: SummaryInputs, tone: SummaryTone, length: SummaryLength): string {
  const longer = length !== "short";
  // In reading order; the rank decides what is kept when the words run out (lower first).
  const at = (rank: number, texts: Array<string | null>): Sentence[] => texts.filter((text): text is string => Boolean(text)).map((text) => ({ text, rank }));
  const [worth, ...caveats] = longer ? valuation(inputs, tone, length) : [];
  const planned: Sentence[] = [
    ...at(0, [lead(inputs, tone)]),
    ...at(1, [price(inputs, tone)]),
    ...at(8, [length === "long" ? description(inputs) : null]),
    ...at(2, [worth ?? null]),
    ...at(7, caveats),
    ...at(3, [longer ? showings(inputs, tone) : null]),
    ...at(9, feedback(inputs, tone, length)),
    ...at(4, [longer ? social(inputs, tone, length) : null]),
    ...at(6, longer ? insights(inputs, tone, length) : []),
    ...at(5, [closing(inputs, tone)]),
  ];
  const sentences = planned.filter((s) => !flaggedPhrases(s.text).length);

  let budget = WORD_LIMITS[length];
  const kept = new Set<Sentence>();
  for (const sentence of [...sentences].sort((a, b) => a.rank - b.rank)) {
    const cost = wordCount(sentence.text);
    if (cost > budget) continue;
    kept.add(sentence);
    budget -= cost;
  }
  return sentences
    .filter((s) => kept.has(s))
    .map((s) => s.text)
    .join(" ");
}
