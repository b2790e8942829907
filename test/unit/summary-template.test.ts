// The template summary provider and the screen (docs/api.md "AI-generated summaries"): deterministic, within the word
// limits, grounded (every number is an input's), never a flagged phrase — over generated reports, including ones
// with no comparables, no showings, no price, and agent texts full of flagged phrases.
import fc from "fast-check";
import type { SummaryInputs } from "../../src/schema/resources/summary/inputs";
import {
  FAIR_HOUSING_PHRASES,
  flaggedPhrases,
  inputNumbers,
  SUMMARY_LENGTHS,
  ungroundedNumbers,
  withinWords,
  WORD_LIMITS,
  wordCount,
} from "../../src/schema/resources/summary/screen";
import { screenForm } from "../../src/schema/resources/summary/normalise";
import { SUMMARY_TONES, templateSummary } from "../../src/schema/resources/summary/template";

const FLAGGED = FAIR_HOUSING_PHRASES.map((p) => p.phrase);

const base: SummaryInputs = {
  property: {
    address: "123 North Main Street",
    city: "Springfield",
    state: "IL",
    zip: "62704",
    property_type: "single_family",
    price: 350000,
    beds: 3,
    baths: 2.5,
    sqft: 1850,
    year_built: 1998,
    lot_size: 0.25,
    description: "Sun-filled rooms and a renovated kitchen. Close to parks.",
    listing_agent: "Dana Agent",
  },
  valuation: {
    comparables_total: 4,
    comparables_used: 4,
    estimated_value: 362000,
    value_range: { low: 340000, high: 381000 },
    price_per_sqft: { min: 183.78, median: 195.68, max: 205.95 },
    warnings: [],
  },
  showings: { showings: 12, open_houses: 2, open_house_attendees: 30, rated: 10, average_rating: 4.3, rating_scale: 5, interested: 5, feedback: ["Loved the kitchen."] },
  social: { posts: 6, platforms: ["facebook", "instagram"], views: 12400, reach: 9000, likes: 830, comments: 45, shares: 12, saves: 30 },
  insights: [{ category: "pricing", title: "Priced to sell", body: "Three pending sales on this street closed above list." }],
};

// ---- generated reports ----

const phrase = fc.constantFrom(...FLAGGED);
/** Free text that often carries a flagged phrase (in any case) and numbers. */
const agentText = fc
  .tuple(fc.lorem({ maxCount: 12 }), fc.option(phrase, { nil: undefined }), fc.boolean(), fc.nat({ max: 99999 }), fc.constantFrom(".", "!", ""))
  .map(([words, flagged, upper, n, end]) => {
    const text = `${words} ${n}${flagged ? ` ${upper ? flagged.toUpperCase() : flagged}` : ""}${end}`.trim();
    return text;
  });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const money = fc.integer({ min: 1, max: 50_000_000 }).map((n) => (n % 7 === 0 ? n + 0.5 : n));

const inputs: fc.Arbitrary<SummaryInputs> = fc.record({
  property: fc.record({
    address: fc.oneof(fc.constant("9 Elm St"), fc.lorem({ maxCount: 6 }).map((w) => `${w.length} ${w}`), phrase.map((p) => `1 ${p} Way`)),
    city: maybe(fc.constantFrom("Springfield", "Austin", "Bachelor Pad")),
    state: maybe(fc.constantFrom("IL", "TX")),
    zip: maybe(fc.constantFrom("62704", "73301")),
    property_type: maybe(fc.constantFrom("single_family", "condo", "townhouse", "land", "tiny_house", "bachelor pad")),
    price: maybe(money),
    beds: maybe(fc.nat({ max: 12 })),
    baths: maybe(fc.constantFrom(0, 1, 1.5, 2, 2.5, 3.75)),
    sqft: maybe(fc.integer({ min: 1, max: 20000 })),
    year_built: maybe(fc.integer({ min: 1600, max: 2030 })),
    lot_size: maybe(fc.constantFrom(0.1, 0.25, 2)),
    description: maybe(agentText),
    listing_agent: fc.constantFrom("Dana Agent", "Alex Admin"),
  }),
  valuation: maybe(
    fc.record({
      comparables_total: fc.integer({ min: 1, max: 50 }),
      comparables_used: fc.integer({ min: 0, max: 50 }),
      estimated_value: maybe(money),
      value_range: maybe(fc.record({ low: money, high: money })),
      price_per_sqft: fc.constant(null),
      warnings: fc.subarray(["too_few_comparables", "list_price_differs", "stale_comparables"]),
    }),
  ),
  showings: fc.record({
    showings: fc.nat({ max: 300 }),
    open_houses: fc.nat({ max: 20 }),
    open_house_attendees: fc.nat({ max: 500 }),
    rated: fc.nat({ max: 300 }),
    average_rating: maybe(fc.constantFrom(1, 2.5, 4.3, 5)),
    rating_scale: fc.constant(5),
    interested: fc.nat({ max: 300 }),
    feedback: fc.array(agentText, { maxLength: 10 }),
  }),
  social: maybe(
    fc.record({
      posts: fc.integer({ min: 1, max: 500 }),
      platforms: fc.subarray(["facebook", "instagram", "tiktok", "x", "linkedin", "myspace"], { minLength: 1 }),
      views: fc.nat(),
      reach: fc.nat(),
      likes: fc.nat(),
      comments: fc.nat(),
      shares: fc.nat(),
      saves: fc.nat(),
    }),
  ),
  insights: fc.array(fc.record({ category: fc.constantFrom("market", "pricing", "other"), title: maybe(agentText), body: agentText }), { maxLength: 10 }),
});

const tone = fc.constantFrom(...SUMMARY_TONES);
const length = fc.constantFrom(...SUMMARY_LENGTHS);

describe("template summaries", () => {
  it("are the same text for the same inputs", () => {
    fc.assert(fc.property(inputs, tone, length, (i, t, l) => templateSummary(structuredClone(i), t, l) === templateSummary(i, t, l)));
  });

  it("stay within the word limit of each length", () => {
    fc.assert(fc.property(inputs, tone, length, (i, t, l) => wordCount(templateSummary(i, t, l)) <= WORD_LIMITS[l]));
  });

  it("write only numbers that appear in the inputs", () => {
    fc.assert(
      fc.property(inputs, tone, length, (i, t, l) => {
        expect(ungroundedNumbers(templateSummary(i, t, l), inputNumbers(i))).toEqual([]);
      }),
    );
  });

  it("never carry a flagged phrase, even when the agent's own texts do", () => {
    fc.assert(
      fc.property(inputs, tone, length, (i, t, l) => {
        expect(flaggedPhrases(templateSummary(i, t, l))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("name the property, and give the list price at standard and long length", () => {
    for (const t of SUMMARY_TONES) {
      for (const l of SUMMARY_LENGTHS) {
        const text = templateSummary(base, t, l);
        expect(text).toContain("123 North Main Street, Springfield, IL");
        if (l !== "short") expect(text).toContain("$350,000");
      }
    }
    const noPrice = { ...base, property: { ...base.property, price: null } };
    expect(templateSummary(noPrice, "professional", "standard")).not.toMatch(/listed at/);
  });

  it("read differently in each tone", () => {
    for (const l of SUMMARY_LENGTHS) {
      const texts = SUMMARY_TONES.map((t) => templateSummary(base, t, l));
      expect(new Set(texts).size).toBe(SUMMARY_TONES.length);
    }
  });

  it("say more at a longer length when there is more to say", () => {
    const [short, standard, long] = SUMMARY_LENGTHS.map((l) => templateSummary(base, "professional", l));
    expect(wordCount(short)).toBeLessThan(wordCount(standard));
    expect(wordCount(standard)).toBeLessThan(wordCount(long));
    expect(standard).toContain("$362,000"); // the valuation
    expect(standard).toContain("12 showings and 2 open houses");
    expect(standard).toContain("12,400 views");
    expect(long).toContain("“Loved the kitchen.”");
  });

  it("write a professional summary an agent would send", () => {
    expect(templateSummary(base, "professional", "standard")).toBe(
      "123 North Main Street, Springfield, IL is a single-family home with 3 bedrooms, 2.5 bathrooms and 1,850 square feet, built in 1998. " +
        "It is listed at $350,000. " +
        "An analysis of 4 comparable properties supports an estimated market value of $362,000, within a range of $340,000 to $381,000. " +
        "The property has had 12 showings and 2 open houses, with an average rating of 4.3 out of 5; 5 visitors expressed interest. " +
        "Its social media campaign of 6 posts on Facebook and Instagram has drawn 12,400 views and 830 likes. " +
        "The listing agent notes: “Three pending sales on this street closed above list.” " +
        "Contact Dana Agent for details or to arrange a showing.",
    );
  });

  it("quote an insight's body as the agent's words, and name a title only as a topic, never as a sentence", () => {
    const titled = (title: string, body: string) => ({ category: "other", title, body });
    const quoted = templateSummary({ ...base, insights: [titled("Buyer feedback", "Buyers asked about the roof."), titled("Back Cove", "The cove path is being repaved.")] }, "warm", "long");
    expect(quoted).toContain("The agent shares: “Buyers asked about the roof.”");
    expect(quoted).toContain("The agent shares: “The cove path is being repaved.”");
    expect(quoted).not.toMatch(/Buyer feedback|Back Cove/);
    // Bodies too short to quote (or too long, or flagged): the titles become the topics of one sentence.
    const topics = templateSummary({ ...base, insights: [titled("Buyer feedback", "Roof."), titled("Back Cove", "Ok")] }, "warm", "long");
    expect(topics).toContain("The agent's notes cover “Buyer feedback” and “Back Cove”.");
    expect(topics).not.toContain("From the agent");
  });

  it("read as written by a person for any input: no empty counts, no stray words or punctuation, titles only quoted", () => {
    fc.assert(
      fc.property(inputs, tone, length, (i, t, l) => {
        const text = templateSummary(i, t, l);
        expect(text).not.toMatch(/\b(undefined|null|NaN)\b|\[object/);
        expect(text).not.toMatch(/ {2}| [.,;:]|\.\.|,,|^[a-z]/);
        expect(text).not.toMatch(/\b0 (showings?|open houses?|posts?|visitors?|views?|likes?|comments?|shares?|comparable)/);
        expect(text).toMatch(/[.!?”]$/);
        // An insight's title is never set down as a sentence of its own: only inside quotes, as a topic.
        for (const { title } of i.insights) {
          const bare = title?.replace(/[.!?:;]+$/, "");
          if (bare && text.includes(bare)) expect(text).toContain(`“${bare}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("work for a report with nothing but an address", () => {
    const bare: SummaryInputs = {
      property: { ...base.property, city: null, state: null, zip: null, property_type: null, price: null, beds: null, baths: null, sqft: null, year_built: null, lot_size: null, description: null },
      valuation: null,
      showings: { showings: 0, open_houses: 0, open_house_attendees: 0, rated: 0, average_rating: null, rating_scale: 5, interested: 0, feedback: [] },
      social: null,
      insights: [],
    };
    expect(templateSummary(bare, "warm", "long")).toBe("Welcome to 123 North Main Street, a home. Reach out to Dana Agent to come see it in person.");
  });
});

describe("the screen", () => {
  it("finds listed phrases case-insensitively, on word boundaries, across spaces and hyphens", () => {
    expect(flaggedPhrases("PERFECT for Families and a Master  Bedroom")).toEqual(["perfect for families", "master bedroom"]);
    expect(flaggedPhrases("A family friendly street")).toEqual(["family-friendly"]);
    expect(flaggedPhrases("No Section 8.")).toEqual(["no section 8"]);
    expect(flaggedPhrases("remaster bedroom; no section 80; safe neighborhoods")).toEqual([]);
  });

  // Each disguise renders like the phrase it hides; the warning names the listed phrase.
  const DISGUISED: Array<[string, string]> = [
    ["family\u2011friendly", "family-friendly"], // non-breaking hyphen
    ["family\u2013friendly", "family-friendly"], // en dash
    ["family\u2014friendly", "family-friendly"], // em dash
    ["family\u2212friendly", "family-friendly"], // minus sign
    ["mas\u00adter bedroom", "master bedroom"], // soft hyphen
    ["master\u200b bedroom", "master bedroom"], // zero-width space
    ["mas\u{E0041}ter bedroom", "master bedroom"], // a tag character
    ["m\u0430ster bedroom", "master bedroom"], // Cyrillic a
    ["\u041cASTER SUITE", "master suite"], // Cyrillic capital M
    ["n\u03bf children", "no children"], // Greek omicron
    ["\u0399DEAL FOR COUPLES", "ideal for couples"], // Greek capital iota
    ["perfect for \uff46\uff41\uff4d\uff49\uff4c\uff49\uff45\uff53", "perfect for families"], // full-width
    ["\u{1d5c6}aster bedroom", "master bedroom"], // mathematical sans-serif m
    ["sa\u0301fe\u0308 neighborhood", "safe neighborhood"], // combining marks
    ["master\u00a0bedroom", "master bedroom"], // no-break space
    ["master\u2800bedroom", "master bedroom"], // Braille blank
    ["n0 section 8", "no section 8"], // digit zero for o
    ["fami1y-friendly", "family-friendly"], // digit one for l
    ["rnaster bedroom", "master bedroom"], // r n for m
  ];
  it.each(DISGUISED)("sees through %j", (text, phrase) => {
    expect(flaggedPhrases(`It has a ${text}.`)).toEqual([phrase]);
  });

  it("flags nothing new in ordinary text", () => {
    for (const text of [
      "remaster bedroom; no section 80; safe neighborhoods; 10 children; masterful bedroom design",
      "A 1 bedroom condo with a primary suite, walking distance to the park, ideal for commuters.",
      "The family room opens to an exclusive-use patio; 2 bedrooms, 1.5 baths, built in 1901.",
      "Mister Rogers' neighborhood is safe-ish; families of ducks live by the pond. Café, naïve, résumé.",
    ]) {
      expect(flaggedPhrases(text)).toEqual([]);
    }
  });

  it("knows every phrase the fair-housing list of docs/api.md names", () => {
    for (const listed of [
      "perfect for families",
      "great for families",
      "ideal for couples",
      "perfect for retirees",
      "bachelor pad",
      "exclusive neighborhood",
      "safe neighborhood",
      "walking distance to church",
      "master bedroom",
      "no section 8",
    ]) {
      expect(flaggedPhrases(`It is ${listed}.`)).toEqual([listed]);
    }
    for (const entry of FAIR_HOUSING_PHRASES) expect(entry.reason.length && entry.alternative.length).toBeTruthy();
  });

  it("reads a text in one form: plain, lower case, Latin look-alikes, one hyphen and one space", () => {
    expect(screenForm("Perfect for FAMILIES")).toBe("perfect for farnilies"); // "m" and "rn" look alike: both read "rn"
    expect(screenForm("\uff26\uff41\uff4d\uff49\uff4c\uff59")).toBe("farnily"); // full width (NFKC)
    expect(screenForm("Caf\u00e9 na\u0131\u0308ve r\u00e9sum\u00e9")).toBe("cafe naive resurne"); // accents, dotless i (NFD, marks removed)
    expect(screenForm("a\u00adb\u200bc\u200dd\u2060e\ufeff\u{E0041}f\u202eg")).toBe("abcdefg"); // invisible and format characters
    expect(screenForm("a\u2010b\u2011c\u2012d\u2013e\u2014f\u2015g\u2212h\ufe63i\uff0dj")).toBe("a-b-c-d-e-f-g-h-i-j"); // dashes and minus
    expect(screenForm("a \u00a0\u2009\u3000\u2800 b\n\tc")).toBe("a b c"); // blanks
    expect(screenForm("\u0421\u0430\u0435 \u039f\u03bf\u0399\u03b9 \u041c \u0416\u0436 \u65e5")).toBe("cae ooii rn жж \u65e5"); // Cyrillic, Greek; a letter with no Latin look-alike stays
    expect(screenForm("N0 1ab |ab")).toBe("no lab lab"); // digits that read as letters
  });

  it("finds numbers that are not in the inputs, as written", () => {
    const known = inputNumbers({ price: 1200000, address: "123 Main St", beds: 3, baths: 2.5 });
    expect(ungroundedNumbers("123 Main St: 3 beds, 2.5 baths, $1,200,000 or $1.2 million.", known)).toEqual([]);
    expect(ungroundedNumbers("About 3% below the $1,150,000 estimate, 26 years old; 26 again.", known)).toEqual(["1,150,000", "26"]);
  });

  it("cuts a text to the sentences that fit", () => {
    expect(withinWords("One two three. Four five six. Seven.", 6)).toBe("One two three. Four five six.");
    expect(withinWords("One two three four.", 2)).toBe("One two…");
    expect(withinWords("Short.", 2)).toBe("Short.");
  });
});
